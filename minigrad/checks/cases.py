"""The cases the checks run: plain functions of their inputs, so one table runs
on minigrad, on a learner's engine and (their twins) on PyTorch in
scripts/torch_reference/checks.py. Each case names what it needs beyond the
check's own needs; without it the case is skipped, by name."""

import numpy as np

# Broadcasting and reductions in both of the seed's regimes, plus matmul: (shapes, f(m, *tensors), needs).
# Constants are the engine's own tensors of full shape and reductions go through m.reduce (axis= or
# dim=), so no engine needs Python numbers, 0-d broadcasting or NumPy's keyword names.
TENSOR_CASES = {
    "add (3,) + (4, 3)": ([(3,), (4, 3)], lambda m, a, b: a + b, ()),
    "add (3, 1) + (3, 5)": ([(3, 1), (3, 5)], lambda m, a, b: a + b, ()),
    "mul (3, 1) * (3, 5)": ([(3, 1), (3, 5)], lambda m, a, b: a * b, ()),
    "div (4, 3) / (3,)": ([(4, 3), (3,)], lambda m, a, b: a / (b * b + m.const(1.0, b)), ("Tensor.__truediv__",)),
    "matmul (3, 4) @ (4, 2)": ([(3, 4), (4, 2)], lambda m, a, b: m.matmul(a, b), ()),
    "sum axis 1 (3, 4)": ([(3, 4)], lambda m, a: m.reduce(a, "sum", axis=1), ()),
    "mean axis 0 (4, 3)": ([(4, 3)], lambda m, a: m.reduce(a, "mean", axis=0), ()),
    "max axis 1 (3, 4)": ([(3, 4)], lambda m, a: m.reduce(a, "max", axis=1), ()),
    "tanh, exp, relu (2, 3)": ([(2, 3)], lambda m, a: a.tanh() + (a * m.const(0.5, a)).exp() + a.relu(),
                               ("Tensor.tanh", "Tensor.exp", "Tensor.relu")),
    # An embedding lookup: row 0 is picked twice, so its gradient is the sum of two shares.
    "index rows [0, 2, 0] of (3, 4)": ([(3, 4)], lambda m, a: a[np.array([0, 2, 0])], ("Tensor.__getitem__",)),
    # One leaf used three times: a gradient that is overwritten instead of accumulated keeps one use's share.
    "a * a + a (2, 3)": ([(2, 3)], lambda m, a: a * a + a, ()),
    # Each elementwise op alone too: an engine with relu but no tanh (many have) still has its relu checked.
    "relu (2, 3)": ([(2, 3)], lambda m, a: a.relu(), ("Tensor.relu",)),
    "exp (2, 3)": ([(2, 3)], lambda m, a: (a * m.const(0.5, a)).exp(), ("Tensor.exp",)),
    "tanh (2, 3)": ([(2, 3)], lambda m, a: a.tanh(), ("Tensor.tanh",)),
}

# (f, needs); the inputs are 2, 3, 4 (the PyTorch reference keeps its own).
SCALAR_CASES = {
    "diamond (a*b + c) * (a - c)": (lambda a, b, c: (a * b + c) * (a - c), ()),
    "x*x + x": (lambda a, b, c: a * a + a, ()),
    "tanh(a*b) / c": (lambda a, b, c: (a * b).tanh() / c, ("Value.tanh",)),
    "exp, log, relu, sigmoid": (lambda a, b, c: (a.exp() + c.log()) * b.relu() + (a * b).sigmoid(),
                                ("Value.exp", "Value.log", "Value.relu", "Value.sigmoid")),
    "a ** 3 - b ** -2": (lambda a, b, c: a**3 - b**-2, ()),
    # relu's input and its upstream gradient on opposite sides of zero: the case
    # that tells "gate on the input" from "gate on the upstream gradient".
    "relu(a - b) * c + relu(c - a) * -b": (lambda a, b, c: (a - b).relu() * c + (c - a).relu() * -b,
                                           ("Value.relu", "Value.__neg__")),
    # A non-leaf used twice: a backward that walks paths instead of nodes counts t's share twice.
    "t*t + t*c with t = a*b": (lambda a, b, c: (lambda t: t * t + t * c)(a * b), ()),
    # sum() starts from the int 0: 0 + Value needs __radd__.
    "sum([a*b, b*c, c*a])": (lambda a, b, c: sum([a * b, b * c, c * a]), ()),
    # tanh at 400: exp(800) overflows a float, tanh itself is 1.
    "tanh(a * 200) * b": (lambda a, b, c: (a * 200).tanh() * b, ("Value.tanh",)),
    # The exponent's share is log(a) * a**b; micrograd's ** takes numbers only, so it skips this.
    "a ** b, a Value exponent": (lambda a, b, c: a**b, ("Value ** Value",)),
}
def forward_only(name, f):
    """A tensor case's function, whose forward raising is a misfit, not evidence: one op the engine cannot
    compute (a broadcast its `+` refuses, as some engines' do by design) says nothing of its gradients,
    and no break of the catalogue fails there (their bugs are in backward)."""
    from .engine import Missing

    def forward(m, *xs):
        try:
            return f(m, *xs)
        except (Missing, RecursionError, TimeoutError):
            raise
        except Exception as e:
            raise Missing(f"call: your Tensor cannot compute {name} ({type(e).__name__}: {e});"
                          " the protocol's + - * / broadcast as NumPy's do") from None

    return forward


TENSOR_CASES = {name: (shapes, forward_only(name, f), needs) for name, (shapes, f, needs) in TENSOR_CASES.items()}

# The scalar cases written with plain numbers: an engine whose Value takes only Values skips them.
WITH_NUMBERS = ("sum([a*b, b*c, c*a])", "tanh(a * 200) * b")


def scalar_case(m, name, f):
    """The case's function on the engine, after asking whether it takes the plain numbers the case uses."""
    if name in WITH_NUMBERS:
        m.takes_numbers()
    return f


def constant_column(x):
    """Feature 1 made constant: a normalization without eps divides by zero there."""
    x = x.copy()
    x[:, 1] = 2.0
    return x


def layer_norm(x, m):
    """LayerNorm(4) with a scale and shift that are not 1 and 0, set through parameters():
    the one that starts at ones is the scale, whatever the engine calls it or its shape."""
    try:
        return _scaled_layer_norm(m, 4)(x)
    except TypeError:  # an engine that takes only torch's other form, the tuple normalized_shape
        return _scaled_layer_norm(m, (4,))(x)


def _scaled_layer_norm(m, shape):
    ln = m.nn.LayerNorm(shape)
    for p in m.parameters(ln):
        start = m.values(p)
        m.set_values(p, (1 + 0.1 * np.arange(4)) if np.all(start == 1) else 0.1 * np.arange(4))
    return ln


def batch_norm_eval(x, m):
    bn = m.nn.BatchNorm1d(3)
    data = m.values(x)
    bn(m.tensor(data[:3] * 2 + 1))
    bn(m.tensor(data[2:] - 1))
    bn.eval()  # not bn.eval()(x): a learner's eval() may return None
    return bn(x)


# Layers and losses through the engine's own modules: (input shape, input transform, f(x, engine), needs).
MODULE_CASES = {
    "layernorm (3, 4)": ((3, 4), None, layer_norm, ("nn.LayerNorm",)),
    "batchnorm1d train (5, 3), a constant feature": ((5, 3), constant_column, lambda x, m: m.nn.BatchNorm1d(3)(x),
                                                     ("nn.BatchNorm1d",)),
    "batchnorm1d eval after two batches (5, 3)": ((5, 3), None, batch_norm_eval, ("nn.BatchNorm1d",)),
    "log_softmax of logits near 1000 (2, 3)": ((2, 3), lambda x: x + 1000, lambda x, m: m.along_last(m.F.log_softmax, x),
                                               ("functional.log_softmax",)),
    "cross_entropy (4, 3)": ((4, 3), None, lambda x, m: batched_cross_entropy(m, x, np.array([0, 2, 1, 2])),
                             ("functional.cross_entropy",)),
}


def batched_cross_entropy(m, logits, targets):
    """cross_entropy over a batch, as the protocol has it; skipped, saying so, for an engine whose
    cross_entropy is written for one sample ((C,) logits and one class: some keep a batched one apart)."""
    from .engine import Missing

    problem = single_sample_only(m)
    if problem:
        raise Missing(f"call: your cross_entropy takes one sample ((C,) logits and one class), not a batch (on (4, 3) logits it {problem})")
    return m.F.cross_entropy(logits, targets)


def single_sample_only(m):
    """What a batch does to the engine's cross_entropy (raised ... / gave shape ...) when the batch fails
    and one sample gives one number; "" otherwise (a cross_entropy that fails both ways is evidence)."""
    logits, targets = np.arange(12.0).reshape(4, 3) / 10, np.array([0, 2, 1, 2])
    try:
        loss = m.F.cross_entropy(m.tensor(logits), targets)
        if m.values(loss).size == 1:
            return ""
        problem = f"gave shape {m.values(loss).shape}"
    except (RecursionError, TimeoutError):
        return ""
    except Exception as e:
        problem = f"raised {type(e).__name__}: {e}"
    try:
        return problem if m.values(m.F.cross_entropy(m.tensor(logits[0]), int(targets[0]))).size == 1 else ""
    except Exception:
        return ""


def module_input(name):
    shape, transform, _, _ = MODULE_CASES[name]
    x = np.random.default_rng(len(name)).normal(size=shape)
    return transform(x) if transform else x


# Losses and softmax: (input, f(x, engine), needs). Targets are the engine's own tensors.
BCE_TARGETS = np.array([1.0, 0.0, 1.0, 0.5, 1.0, 0.0])
MSE_TARGET = np.array([[0.5], [-1.0], [2.0], [0.0]])
BCE_CASE = "binary_cross_entropy_with_logits, logits from -800 to 40 (6,)"

LOSS_CASES = {
    "softmax (3, 4)": (np.arange(12.0).reshape(3, 4) % 5 - 2.0, lambda x, m: m.along_last(m.F.softmax, x), ("functional.softmax",)),
    "mse_loss (4, 1)": (np.array([[1.0], [-2.0], [0.5], [3.0]]), lambda x, m: m.F.mse_loss(x, m.tensor(MSE_TARGET)),
                        ("functional.mse_loss",)),
    BCE_CASE: (np.array([-800.0, -40.0, -3.0, 0.0, 2.0, 40.0]),
               lambda x, m: m.F.binary_cross_entropy_with_logits(x, m.tensor(BCE_TARGETS)),
               ("functional.binary_cross_entropy_with_logits",)),
}


def random_inputs(shapes):
    return [np.random.default_rng(seed).normal(size=s) for seed, s in enumerate(shapes)]
