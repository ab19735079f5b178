#!/usr/bin/env python3
"""Write each style's bug diffs, <style>/bugs/<slug>.diff, from the edits below.

    uv run python tests/learner_engines/make_bugs.py           # rewrite the diffs
    uv run python tests/learner_engines/make_bugs.py --check   # say which are stale

An edit is (file, old, new[, count]): `old` must occur exactly `count` times
(default once) in the healthy file, and every occurrence becomes `new`. The
diff is difflib's unified diff with three lines of context and git's a/ b/
paths, relative to the style's folder. tests/test_learner_engines.py checks
that the committed diffs are what this writes, so after changing a healthy
engine, run this again (an edit whose text is gone fails loudly).
"""

import difflib
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

E, T, NN, OPT, FN = (f"src/minigrad/{m}.py" for m in ("engine", "tensor", "nn", "optim", "functional"))
CLASSIC = {
    "overwrite-grad": [(E, "self.grad += ", "self.grad = ", 8), (E, "other.grad += ", "other.grad = ", 2)],
    "topological-order-not-reversed": [(E, "for v in reversed(topo):", "for v in topo:")],
    "no-output-seed": [(E, "        self.grad = 1\n", "")],
    "tanh-grad-from-input": [(E, "(1 - t**2) * out.grad", "(1 - self.data**2) * out.grad")],
    "relu-gated-on-upstream": [(E, "(out.data > 0) * out.grad", "(out.grad > 0) * out.grad")],
    "pow-exponent-off-by-one": [(E, "other * self.data ** (other - 1) * out.grad", "other * self.data**other * out.grad")],
    "skip-unbroadcast": [(T, "self.grad + unbroadcast(out.grad, self.shape)", "self.grad + out.grad"),
                         (T, "other.grad + unbroadcast(out.grad, other.shape)", "other.grad + out.grad")],
    "matmul-without-transpose": [(T, "out.grad @ other.data.T", "out.grad @ other.data"),
                                 (T, "self.data.T @ out.grad", "self.data @ out.grad")],
    "sum-forgets-reduced-axis": [(T, "g = out.grad if keepdims else np.expand_dims(out.grad, axes)\n"
                                     "            self.grad = self.grad + np.broadcast_to(g, self.shape)\n",
                                  "g = out.grad\n            self.grad = self.grad + np.broadcast_to(g, self.shape)\n")],
    "mean-forgets-n": [(T, "np.broadcast_to(g, self.shape) / n", "np.broadcast_to(g, self.shape)")],
    "log-softmax-without-max": [(FN, "shifted = x - x.data.max(axis=axis, keepdims=True)  # a constant: exp never overflows",
                                 "shifted = x")],
    "softmax-over-the-batch": [(FN, "def softmax(x, axis=-1):", "def softmax(x, axis=0):")],
    "softmax-before-cross-entropy": [(FN, "logp = log_softmax(logits, axis=1)", "logp = log_softmax(softmax(logits, axis=1), axis=1)")],
    "mse-loss-broadcasts": [(FN, "    if pred.shape != target.shape:\n"
                                 "        raise ValueError(f\"mse_loss: shapes {pred.shape} and {target.shape} differ\")\n", "")],
    "bce-log-of-sigmoid": [(FN, "    return -(targets * _log_sigmoid(logits) + (1 - targets) * _log_sigmoid(-logits)).mean()\n",
                            "    p = logits.sigmoid()\n    return -(targets * p.log() + (1 - targets) * (1 - p).log()).mean()\n")],
    "sgd-sign-flipped": [(OPT, "p.data -= self.lr * v", "p.data += self.lr * v")],
    "sgd-rebinds-the-parameter": [(OPT, "p.data -= self.lr * v", "p = p - self.lr * v")],
    "zero-grad-does-nothing": [(OPT, "p.grad = np.zeros_like(p.data)", "np.zeros_like(p.grad)", 2)],
    "zero-initialisation": [(NN, "Tensor(np.random.randn(in_features, out_features) / np.sqrt(in_features))",
                             "Tensor(np.zeros((in_features, out_features)))")],
    "dropout-on-in-eval": [(NN, "if not self.training or self.p == 0:", "if self.p == 0:")],
    "parameters-in-a-plain-list": [(NN, "            elif isinstance(value, (list, tuple)):\n"
                                        "                yield from (v for v in value if isinstance(v, Module))\n", "")],
    "clip-grad-norm-per-tensor": [(NN, "    scale = min(1.0, max_norm / (total + 1e-6))\n    for p in params:\n"
                                       "        p.grad = p.grad * scale\n",
                                   "    for p in params:\n"
                                   "        p.grad = p.grad * min(1.0, max_norm / (np.sqrt(np.sum(p.grad**2)) + 1e-6))\n")],
    "adamw-decay-in-the-gradient": [(OPT, "            p.data -= self.lr * self.weight_decay * p.data\n"
                                          "            self.update(p, p.grad, m, v)\n",
                                     "            self.update(p, p.grad + self.weight_decay * p.data, m, v)\n")],
    "layernorm-over-the-batch": [(NN, "mean = x.mean(axis=-1, keepdims=True)\n        var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)",
                                  "mean = x.mean(axis=0, keepdims=True)\n        var = ((x - mean) ** 2).mean(axis=0, keepdims=True)")],
    "batchnorm-batch-stats-in-eval": [(NN, "if self.training:", "if x.shape[0] > 1:")],
    "batchnorm-without-eps": [(NN, "x_hat = (x - mean) / (var + self.eps) ** 0.5", "x_hat = (x - mean) / var**0.5")],
    "layernorm-stats-detached": [(NN, "mean = x.mean(axis=-1, keepdims=True)\n        var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)",
                                  "mean = x.data.mean(axis=-1, keepdims=True)\n"
                                  "        var = ((x.data - mean) ** 2).mean(axis=-1, keepdims=True)")],
    "recursive-backward": [(E, "        self.grad = 1\n        for v in reversed(topo):\n            v._backward()\n",
                            "        self.grad = 1\n\n        def pass_on(v):\n            v._backward()\n"
                            "            for child in v._prev:\n                pass_on(child)\n\n        pass_on(self)\n")],
    "no-reflected-add": [(E, "    def __radd__(self, other):  # other + self\n        return self + other\n\n", "")],
    "tanh-from-exp": [(E, "        t = math.tanh(self.data)\n", "        t = (math.exp(2 * self.data) - 1) / (math.exp(2 * self.data) + 1)\n")],
    "log-softmax-sum-drops-keepdims": [(FN, "shifted.exp().sum(axis=axis, keepdims=True).log()", "shifted.exp().sum(axis=axis).log()")],
    "unbroadcast-forgets-size-1-axes": [(T, "    for i, n in enumerate(shape):\n        if n == 1 and grad.shape[i] != 1:\n"
                                            "            grad = grad.sum(axis=i, keepdims=True)\n", "")],
    "getitem-loses-repeated-indices": [(T, "            np.add.at(g, idx, out.grad)  # a repeated index gets every share\n",
                                        "            g[idx] += out.grad\n")],
    "exp-never-joins-the-graph": [(T, "            self.grad = self.grad + out.data * out.grad\n\n        out._backward = _backward\n",
                                   "            self.grad = self.grad + out.data * out.grad\n\n")],
    "backward-keeps-old-intermediate-grads": [(T, "        for v in topo:  # a second backward on this graph starts from zero (micrograd's issue 53)\n"
                                               "            if v._prev:\n                v.grad = np.zeros_like(v.data)\n", "")],
    "dropout-without-rescaling": [(NN, "mask = (np.random.rand(*x.shape) >= self.p) / (1 - self.p)", "mask = np.random.rand(*x.shape) >= self.p")],
    "batchnorm-running-var-biased": [(NN, "m * var.data[0] * n / (n - 1)", "m * var.data[0]")],
    # micrograd's ** asserts a number exponent: the learner's edit lets a Value through, with the base's share only.
    "value-exponent-gets-no-gradient": [(E, '        assert isinstance(other, (int, float)), "only int/float powers for now"\n',
                                         "        if isinstance(other, Value):\n"
                                         "            out = Value(self.data**other.data, (self, other), \"**\")\n\n"
                                         "            def _backward():\n"
                                         "                self.grad += other.data * self.data ** (other.data - 1) * out.grad\n\n"
                                         "            out._backward = _backward\n            return out\n"
                                         '        assert isinstance(other, (int, float)), "only int/float powers for now"\n')],
    "relu-in-place": [(T, 'Tensor(np.maximum(self.data, 0), (self,), "relu")', 'Tensor(np.maximum(self.data, 0, out=self.data), (self,), "relu")')],
    "sub-backward-sign-flipped": [(E, "    def __sub__(self, other):  # self - other\n        return self + (-other)\n",
                                   "    def __sub__(self, other):  # self - other\n"
                                   "        other = other if isinstance(other, Value) else Value(other)\n"
                                   "        out = Value(self.data - other.data, (self, other), \"-\")\n\n"
                                   "        def _backward():\n            self.grad += out.grad\n            other.grad += out.grad\n\n"
                                   "        out._backward = _backward\n        return out\n")],
}

T, NN, OPT, FN = (f"mygrad/{m}.py" for m in ("tensor", "nn", "optim", "functional"))
FUNCTIONS = {
    "overwrite-grad": [(T, "node.grad = g.copy() if node.grad is None else node.grad + g", "node.grad = g.copy()"),
                       (T, "grads[id(parent)] = grads[id(parent)] + pg if id(parent) in grads else pg", "grads[id(parent)] = pg")],
    "topological-order-not-reversed": [(T, "for node in reversed(_topological_order(self)):", "for node in _topological_order(self):")],
    "no-output-seed": [(T, "grad = np.ones_like(self.data)", "grad = np.zeros_like(self.data)")],
    "skip-unbroadcast": [(T, "return unbroadcast(g, a_shape), unbroadcast(g, b_shape)", "return g, g")],
    "matmul-without-transpose": [(T, "unbroadcast(G @ np.swapaxes(B, -1, -2), A.shape)", "unbroadcast(G @ B, A.shape)"),
                                 (T, "unbroadcast(np.swapaxes(A, -1, -2) @ G, B.shape)", "unbroadcast(A @ G, B.shape)")],
    "sum-forgets-reduced-axis": [(T, "        g = g if ctx.keepdims else np.expand_dims(g, ctx.axes)\n"
                                     "        return (np.broadcast_to(g, ctx.shape).copy(),)\n",
                                  "        return (np.broadcast_to(g, ctx.shape).copy(),)\n")],
    "mean-forgets-n": [(T, "np.broadcast_to(g, ctx.shape) / ctx.n,", "np.broadcast_to(g, ctx.shape),")],
    "log-softmax-without-max": [(FN, "shifted = x - x.max(axis=axis, keepdims=True)", "shifted = x")],
    "softmax-over-the-batch": [(FN, "def softmax(x, axis=-1):", "def softmax(x, axis=0):")],
    "softmax-before-cross-entropy": [(FN, "-(log_softmax(logits, axis=1) * one_hot)", "-(log_softmax(softmax(logits), axis=1) * one_hot)")],
    "mse-loss-broadcasts": [(FN, "    if input.shape != target.shape:\n        raise ValueError(f\"mse_loss: input {input.shape} and "
                                 "target {target.shape} must have the same shape\")\n", "")],
    "bce-log-of-sigmoid": [(FN, "    m = np.maximum(-input.data, 0.0)\n    softplus = m + (np.exp(-m) + (-input - m).exp()).log()\n"
                                "    return ((1 - target) * input + softplus).mean()\n",
                            "    p = input.sigmoid()\n    return -(target * p.log() + (1 - target) * (1 - p).log()).mean()\n")],
    "sgd-sign-flipped": [(OPT, "p.data -= self.lr * grad", "p.data += self.lr * grad")],
    "sgd-rebinds-the-parameter": [(OPT, "p.data -= self.lr * grad", "p = p - self.lr * grad")],
    "zero-grad-does-nothing": [(OPT, "            p.grad = None\n", "            self.grad = None\n")],
    "zero-initialisation": [(NN, "Parameter(_rng.uniform(-k, k, (out_features, in_features)))", "Parameter(np.zeros((out_features, in_features)))"),
                            (NN, "Parameter(_rng.uniform(-k, k, out_features))", "Parameter(np.zeros(out_features))")],
    "dropout-on-in-eval": [(NN, "if not self.training or self.p == 0:", "if self.p == 0:")],
    "parameters-in-a-plain-list": [(NN, "        self._modules[str(len(self._items) - 1)] = module  # registered, as torch does\n", "")],
    "clip-grad-norm-per-tensor": [(NN, "    clip_coef = max_norm / (total_norm + 1e-6)\n    if clip_coef < 1:\n        for g in grads:\n"
                                       "            g *= clip_coef\n",
                                   "    for g in grads:\n        clip_coef = max_norm / (np.sqrt((g**2).sum()) + 1e-6)\n"
                                   "        if clip_coef < 1:\n            g *= clip_coef\n")],
    "adamw-decay-in-the-gradient": [(OPT, "        p.data *= 1 - self.lr * self.weight_decay  # decoupled: not through m and v\n"
                                          "        super().update(p, grad, state)\n",
                                     "        super().update(p, grad + self.weight_decay * p.data, state)\n")],
    "layernorm-over-the-batch": [(NN, "mu = x.mean(axis=-1, keepdims=True)\n        var = ((x - mu) ** 2).mean(axis=-1, keepdims=True)",
                                  "mu = x.mean(axis=0, keepdims=True)\n        var = ((x - mu) ** 2).mean(axis=0, keepdims=True)")],
    "batchnorm-batch-stats-in-eval": [(NN, "if self.training:", "if x.shape[0] > 1:")],
    "batchnorm-without-eps": [(NN, "x_hat = (x - mu) / (var + self.eps) ** 0.5", "x_hat = (x - mu) / var**0.5")],
    "layernorm-stats-detached": [(NN, "mu = x.mean(axis=-1, keepdims=True)\n        var = ((x - mu) ** 2).mean(axis=-1, keepdims=True)",
                                  "mu = Tensor(x.data.mean(axis=-1, keepdims=True))\n"
                                  "        var = Tensor(((x.data - mu.data) ** 2).mean(axis=-1, keepdims=True))")],
    "getitem-loses-repeated-indices": [(T, "np.add.at(grad, ctx.index, g)  # a repeated index adds every share", "grad[ctx.index] += g")],
    "log-softmax-sum-drops-keepdims": [(FN, "np.log(np.exp(shifted).sum(axis=axis, keepdims=True))", "np.log(np.exp(shifted).sum(axis=axis))")],
    "unbroadcast-forgets-size-1-axes": [(T, "    stretched = tuple(i for i, n in enumerate(shape) if n == 1 and grad.shape[i] != 1)\n"
                                            "    return grad.sum(axis=stretched, keepdims=True)\n", "    return grad\n")],
    "exp-never-joins-the-graph": [(T, "def exp(self): return Exp.apply(self)", "def exp(self): return Tensor(np.exp(self.data))")],
    "dropout-without-rescaling": [(NN, "x * (keep / (1 - self.p) if self.p < 1 else np.zeros(x.shape))", "x * keep")],
    "batchnorm-running-var-biased": [(NN, "self.momentum * var.data * n / (n - 1)", "self.momentum * var.data")],
    "relu-in-place": [(T, "        return np.maximum(a, 0.0)\n", "        return np.maximum(a, 0.0, out=a)\n")],
}

T, NN, OPT, FN = (f"arraygrad/{m}.py" for m in ("tensor", "nn", "optim", "functional"))
NDARRAY = {
    "overwrite-grad": [(T, "self.grad += ", "self.grad = ", 9), (T, "other.grad += ", "other.grad = ", 3)],
    "no-output-seed": [(T, "        self.grad = np.ones(self.shape)\n", "")],
    "skip-unbroadcast": [(T, "self.grad += unbroadcast(out.grad, self.shape)\n            other.grad += unbroadcast(out.grad, other.shape)",
                          "self.grad += out.grad\n            other.grad += out.grad")],
    "matmul-without-transpose": [(T, "out.grad @ other.data.T", "out.grad @ other.data"), (T, "self.data.T @ out.grad", "self.data @ out.grad")],
    "sum-forgets-reduced-axis": [(T, "            g = out.grad if keepdims or axis is None else np.expand_dims(out.grad, axis)\n"
                                     "            self.grad += g\n", "            self.grad += out.grad\n")],
    "mean-forgets-n": [(T, "self.grad += g / n", "self.grad += g")],
    "log-softmax-without-max": [(FN, "shifted = x - x.data.max(axis=axis, keepdims=True)", "shifted = x")],
    "softmax-over-the-batch": [(FN, "def softmax(x, axis=-1):", "def softmax(x, axis=0):")],
    "softmax-before-cross-entropy": [(FN, "-log_softmax(logits, axis=1)[rows", "-log_softmax(softmax(logits), axis=1)[rows")],
    "mse-loss-broadcasts": [(FN, "    if pred.shape != np.shape(target):\n"
                                 "        raise ValueError(f\"mse_loss: prediction {pred.shape} vs target {np.shape(target)}\")\n", "")],
    "bce-log-of-sigmoid": [(FN, "    positive = logits.data >= 0\n    abs_x = logits * np.where(positive, 1.0, -1.0)\n"
                                "    return (logits * positive - logits * targets + ((-abs_x).exp() + 1).log()).mean()\n",
                            "    p = logits.sigmoid()\n    return -(targets * p.log() + (1 - targets) * (1 - p).log()).mean()\n")],
    "sgd-sign-flipped": [(OPT, "p.data -= self.lr * g", "p.data += self.lr * g")],
    "sgd-rebinds-the-parameter": [(OPT, "p.data -= self.lr * g", "p = p - self.lr * g")],
    "zero-grad-does-nothing": [(OPT, "            p.grad = None\n", "            pass\n")],
    "zero-initialisation": [(NN, "Tensor(rng.normal(0.0, std, (in_features, out_features)), requires_grad=True)",
                             "Tensor(np.zeros((in_features, out_features)), requires_grad=True)")],
    "dropout-on-in-eval": [(NN, "if not self.training or self.p == 0:", "if self.p == 0:")],
    "parameters-in-a-plain-list": [(NN, "            elif isinstance(value, list):\n"
                                        "                yield from (v for v in value if isinstance(v, Module))\n", "")],
    "clip-grad-norm-per-tensor": [(NN, "    if norm > max_norm:\n        for g in grads:\n            g *= max_norm / (norm + 1e-6)\n",
                                   "    for g in grads:\n        g_norm = np.sqrt((g * g).sum())\n        if g_norm > max_norm:\n"
                                   "            g *= max_norm / (g_norm + 1e-6)\n")],
    "adamw-decay-in-the-gradient": [(OPT, "                p.data *= 1 - self.lr * self.weight_decay\n"
                                          "                self.adam_step(i, p, p.grad)\n",
                                     "                self.adam_step(i, p, p.grad + self.weight_decay * p.data)\n")],
    "layernorm-over-the-batch": [(NN, "mean = x.mean(axis=-1, keepdims=True)", "mean = x.mean(axis=0, keepdims=True)"),
                                 (NN, "var = (centered * centered).mean(axis=-1, keepdims=True)", "var = (centered * centered).mean(axis=0, keepdims=True)")],
    "layernorm-stats-detached": [(NN, "mean = x.mean(axis=-1, keepdims=True)", "mean = x.data.mean(axis=-1, keepdims=True)"),
                                 (NN, "var = (centered * centered).mean(axis=-1, keepdims=True)",
                                  "var = (centered.data * centered.data).mean(axis=-1, keepdims=True)")],
    "log-softmax-sum-drops-keepdims": [(FN, "shifted.exp().sum(axis=axis, keepdims=True).log()", "shifted.exp().sum(axis=axis).log()")],
    "unbroadcast-forgets-size-1-axes": [(T, "    for axis, n in enumerate(shape):\n        if n == 1:\n"
                                            "            grad = grad.sum(axis=axis, keepdims=True)\n", "")],
    "getitem-loses-repeated-indices": [(T, "np.add.at(self.grad, index, out.grad)", "self.grad[index] += out.grad")],
    "backward-keeps-old-intermediate-grads": [(T, "if t._prev or t.grad is None:  # leaves keep accumulating; the rest start at 0",
                                               "if t.grad is None:")],
    "dropout-without-rescaling": [(NN, "mask = (rng.random(x.shape) >= self.p) / (1 - self.p)", "mask = rng.random(x.shape) >= self.p")],
    "relu-in-place": [(T, "self._unary(np.maximum(self.data, 0), lambda y: self.data > 0)",
                       "self._unary(np.maximum(self.data, 0, out=self.data), lambda y: self.data > 0)")],
}

EDITS = {"classic": CLASSIC, "functions": FUNCTIONS, "ndarray": NDARRAY}


def diff(style, slug):
    """The unified diff of the bug's edits, file by file, as `git diff` would write it."""
    edits, out = EDITS[style][slug], []
    for path in dict.fromkeys(edit[0] for edit in edits):
        before = (HERE / style / path).read_text(encoding="utf-8")
        after = before
        for _, old, new, *count in (e for e in edits if e[0] == path):
            found = after.count(old)
            if found != (count[0] if count else 1):
                raise ValueError(f"{style}/{slug}: {old!r} occurs {found} times in {path}, expected {count[0] if count else 1}")
            after = after.replace(old, new)
        lines = difflib.unified_diff(before.splitlines(keepends=True), after.splitlines(keepends=True), f"a/{path}", f"b/{path}", n=3)
        out.append(f"diff --git a/{path} b/{path}\n" + "".join(lines))
    return "".join(out)


def main(argv):
    stale = []
    for style, bugs in EDITS.items():
        (HERE / style / "bugs").mkdir(exist_ok=True)
        for slug in bugs:
            target, text = HERE / style / "bugs" / f"{slug}.diff", diff(style, slug)
            if not target.exists() or target.read_text(encoding="utf-8") != text:
                stale.append(target.relative_to(HERE))
                if "--check" not in argv:
                    target.write_text(text, encoding="utf-8")
    print("\n".join(f"{'stale' if '--check' in argv else 'wrote'} {p}" for p in stale) or "all diffs up to date")
    return 1 if stale and "--check" in argv else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
