"""The cases the diagnostics run: plain functions of their inputs, so the same
table runs on minigrad, on a learner's engine, and (their twins) on PyTorch
in scripts/make_diagnostic_reference.py."""

import numpy as np


def _weight_array(shape):
    """A fixed, non-uniform loss weight: a uniform one hides wrong sums."""
    return np.arange(int(np.prod(shape))).reshape(shape) % 7 - 3.0


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

# The optional ops of the engine protocol each case needs (docs/doctor.md):
# without them the case is skipped, by name, instead of "caught".
NEEDS = {
    "max axis 1 (3, 4)": ("max",),
    "tanh, exp, relu (2, 3)": ("tanh", "exp", "relu"),
    "tanh(a*b) / c": ("tanh",),
    "exp, log, relu, sigmoid": ("exp", "log", "relu", "sigmoid"),
    "relu(a - b) * c + relu(c - a) * -b": ("relu", "__neg__"),  # unary minus is not in the protocol
}


def _constant_column(x):
    """Feature 1 made constant: a normalization without eps divides by zero there."""
    x = x.copy()
    x[:, 1] = 2.0
    return x


def _layer_norm(x, m):
    ln = m.nn.LayerNorm(4)
    ln.weight.data[:] = 1 + 0.1 * np.arange(4)
    ln.bias.data[:] = 0.1 * np.arange(4)
    return ln(x)


def _batch_norm_train(x, m):
    return m.nn.BatchNorm1d(3)(x)


def _batch_norm_eval(x, m):
    bn = m.nn.BatchNorm1d(3)
    bn(m.Tensor(x.data[:3] * 2 + 1))
    bn(m.Tensor(x.data[2:] - 1))
    return bn.eval()(x)


# Layers and losses: (input shape, input transform, f(x, engine)). They need
# minigrad's nn and functional, so they run on minigrad only. Their PyTorch
# twins are in scripts/make_diagnostic_reference.py.
MODULE_CASES = {
    "layernorm (3, 4)": ((3, 4), None, _layer_norm),
    "batchnorm1d train (5, 3), a constant feature": ((5, 3), _constant_column, _batch_norm_train),
    "batchnorm1d eval after two batches (5, 3)": ((5, 3), None, _batch_norm_eval),
    "log_softmax of logits near 1000 (2, 3)": ((2, 3), lambda x: x + 1000, lambda x, m: m.F.log_softmax(x)),
    "cross_entropy (4, 3)": ((4, 3), None, lambda x, m: m.F.cross_entropy(x, np.array([0, 2, 1, 2]))),
}


# Losses and softmax (minigrad/loss_checks.py): (input, f(x, F)), fixed inputs
# that scripts/make_torch_reference_breaks_a.py gives torch too.
BCE_TARGETS = np.array([1.0, 0.0, 1.0, 0.5, 1.0, 0.0])
MSE_TARGET = np.array([[0.5], [-1.0], [2.0], [0.0]])

LOSS_CASES = {
    "softmax (3, 4)": (np.arange(12.0).reshape(3, 4) % 5 - 2.0, lambda x, F: F.softmax(x)),
    "mse_loss (4, 1)": (np.array([[1.0], [-2.0], [0.5], [3.0]]), lambda x, F: F.mse_loss(x, MSE_TARGET)),
    "binary_cross_entropy_with_logits, logits up to ±40 (6,)": (
        np.array([-800.0, -40.0, -3.0, 0.0, 2.0, 40.0]),
        lambda x, F: F.binary_cross_entropy_with_logits(x, BCE_TARGETS),
    ),
}


def _module_input(name):
    shape, transform, _ = MODULE_CASES[name]
    x = np.random.default_rng(len(name)).normal(size=shape)
    return transform(x) if transform else x
