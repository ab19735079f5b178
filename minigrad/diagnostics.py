"""The standard diagnostics a learner runs when gradients look wrong.

Each one is a function with no arguments returning a `Verdict`: it passes on
healthy minigrad and, if it can, catches a break. They import minigrad as it is
*now*, so inside `minigrad.breaks.applied(slug)` they test the broken copy;
that is how CI computes the break x diagnostic matrix. Pages call them too.
"""

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from . import functional as F
from . import nn, optim
from .gradcheck import gradcheck
from .scalar import Value
from .tensor import Tensor

REFERENCE = Path(__file__).with_name("torch_reference.json")


@dataclass
class Verdict:
    passed: bool
    detail: str

    def __str__(self):
        return f"{'passed' if self.passed else 'caught'}: {self.detail}"


def _weights(shape):
    """A fixed, non-uniform loss weight: a uniform one hides wrong sums."""
    return Tensor(np.arange(int(np.prod(shape))).reshape(shape) % 7 - 3.0)


def _leaf(shape, seed):
    return Tensor(np.random.default_rng(seed).normal(size=shape), requires_grad=True)


# Broadcasting and reductions in both of the seed's regimes, plus matmul.
TENSOR_CASES = {
    "add (3,) + (4, 3)": ([(3,), (4, 3)], lambda a, b: a + b),
    "add (3, 1) + (3, 5)": ([(3, 1), (3, 5)], lambda a, b: a + b),
    "mul (3, 1) * (3, 5)": ([(3, 1), (3, 5)], lambda a, b: a * b),
    "div (4, 3) / (3,)": ([(4, 3), (3,)], lambda a, b: a / (b * b + 1)),
    "matmul (3, 4) @ (4, 2)": ([(3, 4), (4, 2)], lambda a, b: a @ b),
    "sum axis 1 (3, 4)": ([(3, 4)], lambda a: a.sum(axis=1)),
    "mean axis 0 (4, 3)": ([(4, 3)], lambda a: a.mean(axis=0)),
    "max axis 1 (3, 4)": ([(3, 4)], lambda a: a.max(axis=1)),
    "tanh, exp, relu (2, 3)": ([(2, 3)], lambda a: a.tanh() + (a * 0.5).exp() + a.relu()),
}

SCALAR_CASES = {
    "diamond (a*b + c) * (a - c)": lambda a, b, c: (a * b + c) * (a - c),
    "x*x + x": lambda a, b, c: a * a + a,
    "tanh(a*b) / c": lambda a, b, c: (a * b).tanh() / c,
    "exp, log, relu, sigmoid": lambda a, b, c: (a.exp() + c.log()) * b.relu() + (a * b).sigmoid(),
    "a ** 3 - b ** -2": lambda a, b, c: a**3 - b**-2,
    # relu's input and its upstream gradient on opposite sides of zero: the case
    # that tells "gate on the input" from "gate on the upstream gradient".
    "relu(a - b) * c + relu(c - a) * -b": lambda a, b, c: (a - b).relu() * c + (c - a).relu() * -b,
}


def _constant_column(x):
    """Feature 1 made constant: a normalization without eps divides by zero there."""
    x = x.copy()
    x[:, 1] = 2.0
    return x


def _layer_norm(x):
    ln = nn.LayerNorm(4)
    ln.weight.data[:] = 1 + 0.1 * np.arange(4)
    ln.bias.data[:] = 0.1 * np.arange(4)
    return ln(x)


def _batch_norm_train(x):
    return nn.BatchNorm1d(3)(x)


def _batch_norm_eval(x):
    bn = nn.BatchNorm1d(3)
    bn(Tensor(x.data[:3] * 2 + 1))
    bn(Tensor(x.data[2:] - 1))
    return bn.eval()(x)


# Layers and losses: (input shape, input transform, f). Their PyTorch twins are in
# scripts/make_diagnostic_reference.py.
MODULE_CASES = {
    "layernorm (3, 4)": ((3, 4), None, _layer_norm),
    "batchnorm1d train (5, 3), a constant feature": ((5, 3), _constant_column, _batch_norm_train),
    "batchnorm1d eval after two batches (5, 3)": ((5, 3), None, _batch_norm_eval),
    "log_softmax of logits near 1000 (2, 3)": ((2, 3), lambda x: x + 1000, F.log_softmax),
    "cross_entropy (4, 3)": ((4, 3), None, lambda x: F.cross_entropy(x, np.array([0, 2, 1, 2]))),
}


def _module_input(name):
    shape, transform, _ = MODULE_CASES[name]
    x = np.random.default_rng(len(name)).normal(size=shape)
    return transform(x) if transform else x


def shape_invariant():
    """After every backward, each gradient has its tensor's shape."""
    for name, (shapes, f) in TENSOR_CASES.items():
        leaves = [_leaf(s, i) for i, s in enumerate(shapes)]
        out = f(*leaves)
        try:
            (out * _weights(out.shape)).sum().backward()
        except Exception as e:
            return Verdict(False, f"{name}: backward raised {type(e).__name__}: {e}")
        for i, leaf in enumerate(leaves):
            if leaf.grad is None or leaf.grad.shape != leaf.shape:
                got = None if leaf.grad is None else leaf.grad.shape
                return Verdict(False, f"{name}: input {i} has shape {leaf.shape}, its gradient {got}")
    return Verdict(True, f"every gradient has its tensor's shape ({len(TENSOR_CASES)} cases)")


def finite_differences():
    """Analytic gradients agree with central differences on non-uniform losses."""
    for name, f in SCALAR_CASES.items():
        try:
            result = gradcheck(f, Value(2.0), Value(3.0), Value(4.0))
        except Exception as e:
            return Verdict(False, f"{name}: raised {type(e).__name__}: {e}")
        if not result.ok:
            return Verdict(False, f"{name}: {result}")
    for name, (shapes, f) in TENSOR_CASES.items():
        leaves = [_leaf(s, i) for i, s in enumerate(shapes)]
        weight = _weights(f(*leaves).shape)
        try:
            result = gradcheck(lambda *xs: (f(*xs) * weight).sum(), *leaves)
        except Exception as e:
            return Verdict(False, f"{name}: raised {type(e).__name__}: {e}")
        if not result.ok:
            return Verdict(False, f"{name}: {result}")
    return Verdict(True, f"{len(SCALAR_CASES) + len(TENSOR_CASES)} functions agree with central differences")


def diamond_test():
    """The hand-worked diamond of theory page 03: L = (a*b + c) * (a - c) at 2, 3, 4."""
    a, b, c = Value(2.0), Value(3.0), Value(4.0)
    L = (a * b + c) * (a - c)
    L.backward()
    got = (a.grad, b.grad, c.grad)
    if got != (4.0, -4.0, -12.0):
        return Verdict(False, f"(a.grad, b.grad, c.grad) = {got}, by hand (4.0, -4.0, -12.0)")
    return Verdict(True, "(a.grad, b.grad, c.grad) = (4.0, -4.0, -12.0), as by hand")


def torch_reference():
    """Values and gradients equal PyTorch's, committed as data by scripts/make_diagnostic_reference.py."""
    reference = json.loads(REFERENCE.read_text())
    for name, (shapes, f) in TENSOR_CASES.items():
        expected = reference[name]
        leaves = [Tensor(np.array(x), requires_grad=True) for x in expected["inputs"]]
        try:
            out = f(*leaves)
            (out * _weights(out.shape)).sum().backward()
        except Exception as e:
            return Verdict(False, f"{name}: raised {type(e).__name__}: {e}")
        if not np.allclose(out.data, expected["output"], rtol=1e-9, atol=1e-12):
            return Verdict(False, f"{name}: output differs from torch's")
        for i, (leaf, grad) in enumerate(zip(leaves, expected["grads"])):
            if leaf.grad is None or leaf.grad.shape != np.shape(grad) or not np.allclose(leaf.grad, grad, rtol=1e-9, atol=1e-12):
                return Verdict(False, f"{name}: gradient of input {i} differs from torch's")
    for name, (_, _, f) in MODULE_CASES.items():
        expected = reference[name]
        x = Tensor(np.array(expected["inputs"][0]), requires_grad=True)
        with np.errstate(all="ignore"):  # a broken layer may divide by zero: that is the finding
            try:
                out = f(x)
                (out * _weights(out.shape)).sum().backward()
            except Exception as e:
                return Verdict(False, f"{name}: raised {type(e).__name__}: {e}")
        if not np.allclose(out.data, expected["output"], rtol=1e-9, atol=1e-12):
            return Verdict(False, f"{name}: output differs from torch's (first row {np.round(out.data.reshape(len(out.data), -1)[0], 4).tolist()})")
        if not np.allclose(x.grad, expected["grads"][0], rtol=1e-8, atol=1e-10):
            return Verdict(False, f"{name}: input gradient differs from torch's")
    for name, f in SCALAR_CASES.items():
        expected = reference[name]
        inputs = [Value(x) for x in expected["inputs"]]
        try:
            f(*inputs).backward()
        except Exception as e:
            return Verdict(False, f"{name}: raised {type(e).__name__}: {e}")
        got = [v.grad for v in inputs]
        if not np.allclose(got, expected["grads"], rtol=1e-9, atol=1e-12):
            return Verdict(False, f"{name}: gradients {got} differ from torch's {expected['grads']}")
    return Verdict(True, f"{len(reference)} cases match PyTorch's values and gradients")


def training_smoke_test():
    """A small MLP learns XOR with SGD: loss falls below 0.05 within 300 steps."""
    saved = nn._rng
    try:
        nn.manual_seed(0)
        x = Tensor(np.array([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]]))
        y = np.array([0, 1, 1, 0])
        model = nn.MLP([2, 8, 2], activation=nn.Tanh)
        opt = optim.SGD(model.parameters(), lr=0.5, momentum=0.9)
        first = None
        with np.errstate(all="ignore"):
            for _ in range(300):
                opt.zero_grad()
                loss = F.cross_entropy(model(x), y)
                loss.backward()
                opt.step()
                first = loss.item() if first is None else first
    except Exception as e:
        return Verdict(False, f"training raised {type(e).__name__}: {e}")
    finally:
        nn._rng = saved
    final = loss.item()
    if not final < 0.05:
        return Verdict(False, f"XOR loss {first:.4f} -> {final:.4f} after 300 steps (expected < 0.05)")
    return Verdict(True, f"XOR loss {first:.4f} -> {final:.4f} after 300 steps")


def repeatable_gradients():
    """The same loss, backpropagated twice with zero_grad() between, gives the same gradients."""
    x = Tensor(np.random.default_rng(1).normal(size=(4, 3)))
    layer = nn.Linear(3, 2)
    opt = optim.SGD(layer.parameters(), lr=0.1)
    grads = []
    try:
        for _ in range(2):
            opt.zero_grad()
            (layer(x).tanh() * _weights((4, 2))).sum().backward()
            grads.append([p.grad.copy() for p in layer.parameters()])
    except Exception as e:
        return Verdict(False, f"raised {type(e).__name__}: {e}")
    for name, first, second in zip(("weight", "bias"), *grads):
        if not np.allclose(first, second):
            ratio = float(np.median(second / np.where(first == 0, np.nan, first)))
            return Verdict(False, f"second pass {name}.grad is {ratio:g}x the first: gradients leaked across zero_grad()")
    return Verdict(True, "two passes with zero_grad() between give identical gradients")


DIAGNOSTICS = {
    "shape-invariant": shape_invariant,
    "finite-differences": finite_differences,
    "diamond-test": diamond_test,
    "torch-reference": torch_reference,
    "training-smoke-test": training_smoke_test,
    "repeatable-gradients": repeatable_gradients,
}
