"""The engine's parity cases: every op, layer, loss and optimizer of minigrad against
PyTorch, written to minigrad/reference/engine.json (scripts/make_torch_reference.py).

The case tables below are the single source of truth. tests/test_torch_parity.py
imports this module (torch is imported lazily, so that works without torch), runs
every case through minigrad and compares with the committed numbers; when torch
is importable it also reruns `compute()` to catch stale data.

Conventions:
- everything is float64; inputs come from np.random.default_rng(crc32(case id)),
  so adding or removing a case never changes another case's numbers;
- inputs are stored in the JSON, so the tests never regenerate them;
- a tensor case's loss is sum(out * W) with a fixed random W of out's shape, so
  no gradient is trivially uniform;
- floats are written with repr (json's default): nothing is rounded.
"""

import json
import zlib
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from scripts.torch_reference import HOME

OUT = HOME / "engine.json"


# ---- the case tables ------------------------------------------------------------

# Tensor ops: (op, input shapes[, options]). The loss is sum(op(*inputs) * W).
# Options are the op's keyword arguments, plus two that only shape the inputs:
#   init  -- how inputs are drawn (see `draw`): normal (default), positive,
#            nonzero, ties (small integers: exact ties and zeros), wide, large, spread
#   const -- input positions passed as plain constants (a numpy array on the
#            minigrad side, a tensor without grad on the torch side), to exercise
#            reflected operators such as `ndarray + Tensor`
TENSOR_CASES = [
    # elementwise binary ops, same shapes and both broadcasting regimes
    ("add", [(4, 3), (4, 3)]),
    ("add", [(4, 3), (3,)]),
    ("add", [(3, 1), (3, 5)]),
    ("add", [(2, 1, 3), (4, 1)]),
    ("add", [(), ()]),
    ("add", [(), (4, 3)]),
    ("sub", [(4, 3), (4, 3)]),
    ("sub", [(3,), (4, 3)]),
    ("sub", [(3, 5), (3, 1)]),
    ("sub", [(2, 1, 3), (4, 1)]),
    ("sub", [(), ()]),
    ("sub", [(4, 3), ()]),
    ("mul", [(4, 3), (4, 3)]),
    ("mul", [(4, 3), (3,)]),
    ("mul", [(3, 1), (3, 5)]),
    ("mul", [(2, 1, 3), (4, 1)]),
    ("mul", [(), ()]),
    ("mul", [(), (4, 3)]),
    ("div", [(4, 3), (4, 3)], dict(init="nonzero")),
    ("div", [(4, 3), (3,)], dict(init="nonzero")),
    ("div", [(3, 1), (3, 5)], dict(init="nonzero")),
    ("div", [(2, 1, 3), (4, 1)], dict(init="nonzero")),
    ("div", [(), ()], dict(init="nonzero")),
    ("div", [(), (4, 3)], dict(init="nonzero")),
    # python numbers on either side
    ("add_scalar", [(4, 3)], dict(c=2.5)),
    ("radd_scalar", [(4, 3)], dict(c=2.5)),
    ("sub_scalar", [(4, 3)], dict(c=2.5)),
    ("rsub_scalar", [(4, 3)], dict(c=2.5)),
    ("mul_scalar", [(4, 3)], dict(c=-1.5)),
    ("rmul_scalar", [(4, 3)], dict(c=-1.5)),
    ("div_scalar", [(4, 3)], dict(c=-1.5)),
    ("rdiv_scalar", [(4, 3)], dict(c=-1.5, init="nonzero")),
    ("rmul_scalar", [()], dict(c=-1.5)),
    ("rdiv_scalar", [()], dict(c=2.0, init="nonzero")),
    # numpy constants on either side (the left ones go through Tensor.__r*__)
    ("add", [(3,), (4, 3)], dict(const=[0])),
    ("sub", [(3, 1), (3, 5)], dict(const=[0])),
    ("mul", [(4, 3), (3,)], dict(const=[1])),
    ("div", [(4, 3), (4, 3)], dict(const=[0], init="nonzero")),
    ("matmul", [(4, 3), (3, 5)], dict(const=[0])),
    # powers
    ("pow", [(4, 3)], dict(p=2)),
    ("pow", [(4, 3)], dict(p=3)),
    ("pow", [(4, 3)], dict(p=0.5, init="positive")),
    ("pow", [(4, 3)], dict(p=-1, init="nonzero")),
    ("pow", [(4, 3)], dict(p=-0.5, init="positive")),
    ("pow", [(4, 3)], dict(p=2.5, init="positive")),
    ("pow", [(4, 3)], dict(p=2, init="ties")),
    ("pow", [(4, 3)], dict(p=0, init="ties")),
    ("pow", [()], dict(p=3)),
    ("neg", [(4, 3)]),
    ("neg", [()]),
    # matrix products
    ("matmul", [(4, 3), (3, 5)]),
    ("matmul", [(3,), (3, 5)]),
    ("matmul", [(4, 3), (3,)]),
    ("matmul", [(3,), (3,)]),
    ("matmul", [(2, 4, 3), (2, 3, 5)]),
    ("matmul", [(2, 4, 3), (3, 5)]),
    ("matmul", [(4, 3), (2, 3, 5)]),
    ("matmul", [(1, 4, 3), (2, 3, 5)]),
    ("matmul", [(2, 1, 4, 3), (3, 3, 2)]),
    ("matmul", [(3,), (2, 3, 5)]),
    ("matmul", [(2, 4, 3), (3,)]),
    # reductions
    ("sum", [(2, 3, 4)], dict(axis=None)),
    ("sum", [(2, 3, 4)], dict(axis=None, keepdims=True)),
    ("sum", [(2, 3, 4)], dict(axis=1)),
    ("sum", [(2, 3, 4)], dict(axis=-1, keepdims=True)),
    ("sum", [(2, 3, 4)], dict(axis=(0, 2))),
    ("sum", [(2, 3, 4)], dict(axis=(-1, 0), keepdims=True)),
    ("sum", [(5,)], dict(axis=0)),
    ("sum", [()], dict(axis=None)),
    ("mean", [(2, 3, 4)], dict(axis=None)),
    ("mean", [(2, 3, 4)], dict(axis=None, keepdims=True)),
    ("mean", [(2, 3, 4)], dict(axis=1)),
    ("mean", [(2, 3, 4)], dict(axis=-2, keepdims=True)),
    ("mean", [(2, 3, 4)], dict(axis=(0, 2))),
    ("mean", [(2, 3, 4)], dict(axis=(0, 1), keepdims=True)),
    ("mean", [()], dict(axis=None)),
    ("max", [(2, 3, 4)], dict(axis=None)),
    ("max", [(2, 3, 4)], dict(axis=None, keepdims=True)),
    ("max", [(2, 3, 4)], dict(axis=0)),
    ("max", [(2, 3, 4)], dict(axis=-1, keepdims=True)),
    ("max", [(2, 3, 4)], dict(axis=(0, 2))),
    ("max", [(2, 3, 4)], dict(axis=(1, 2), keepdims=True)),
    ("max", [(4, 6)], dict(axis=1, init="ties")),
    ("max", [(4, 6)], dict(axis=None, init="ties")),
    ("max", [()], dict(axis=None)),
    # shapes
    ("reshape", [(2, 3, 4)], dict(shape=(4, 6))),
    ("reshape", [(2, 3, 4)], dict(shape=(6, -1))),
    ("reshape", [(1,)], dict(shape=())),
    ("transpose", [(4, 3)], dict(axes=None)),
    ("transpose", [(2, 3, 4)], dict(axes=(1, 0, 2))),
    ("transpose", [(2, 3, 4)], dict(axes=(2, 0, 1))),
    ("transpose", [(2, 3, 4)], dict(axes=(0, -1, 1))),
    ("transpose", [(3, 3)], dict(axes=(-1, 0))),
    ("T", [(4, 3)]),
    ("T", [(2, 3, 4)]),
    ("T", [(5,)]),
    # indexing; `index` is numpy index syntax, parsed by `parse_index`
    ("getitem", [(5, 4)], dict(index="[1]")),
    ("getitem", [(5, 4)], dict(index="[1:4]")),
    ("getitem", [(5, 4)], dict(index="[:, 1]")),
    ("getitem", [(5, 4)], dict(index="[-1, ::2]")),
    ("getitem", [(5, 4)], dict(index="[1, 2]")),
    ("getitem", [(2, 5, 4)], dict(index="[..., 0]")),
    ("getitem", [(5, 4)], dict(index="[None, 1:3]")),
    ("getitem", [(5, 4)], dict(index="[[0, 2, 0, 0]]")),
    ("getitem", [(5, 4)], dict(index="[:, [3, 3, 0]]")),
    ("getitem", [(5, 4)], dict(index="[[0, 2, 0], [1, 1, 1]]")),
    ("getitem", [(5, 4)], dict(index="[np.array([True, False, True, True, False])]")),
    # elementwise unary ops
    ("exp", [(4, 3)]),
    ("exp", [()]),
    ("log", [(4, 3)], dict(init="positive")),
    ("tanh", [(4, 3)]),
    ("tanh", [(4, 3)], dict(init="wide")),
    ("relu", [(4, 3)]),
    ("relu", [(4, 3)], dict(init="ties")),
    ("sigmoid", [(4, 3)]),
    ("sigmoid", [(4, 3)], dict(init="wide")),
    # minigrad.functional
    ("softmax", [(4, 5)], dict(axis=-1)),
    ("softmax", [(4, 5)], dict(axis=0)),
    ("softmax", [(2, 3, 4)], dict(axis=1)),
    ("softmax", [(4, 5)], dict(axis=-1, init="large")),
    ("log_softmax", [(4, 5)], dict(axis=-1)),
    ("log_softmax", [(4, 5)], dict(axis=0)),
    ("log_softmax", [(4, 5)], dict(axis=-1, init="large")),
    ("log_softmax", [(4, 5)], dict(axis=-1, init="spread")),
    ("cross_entropy", [(5, 4)], dict(targets=[0, 3, 1, 1, 2])),
    ("cross_entropy", [(5, 4)], dict(targets=[2, 2, 0, 3, 1], init="large")),
    ("cross_entropy", [(5, 4)], dict(targets=[2, 2, 0, 3, 1], init="spread")),
    ("mse_loss", [(4, 3), (4, 3)]),
    ("mse_loss", [(5,), (5,)]),
    ("mse_loss", [(), ()]),
]

# Modules: (class, constructor kwargs, steps). A fresh module gets random
# parameters, then one forward/backward per step on a fresh input, in train or
# eval mode, with zero_grad before each backward.
MODULE_CASES = [
    ("Linear", dict(in_features=4, out_features=3), [("train", (5, 4))]),
    ("Linear", dict(in_features=4, out_features=3), [("train", (4,))]),
    ("Linear", dict(in_features=4, out_features=3), [("train", (2, 5, 4))]),
    ("Linear", dict(in_features=4, out_features=3, bias=False), [("train", (5, 4))]),
    ("LayerNorm", dict(normalized_shape=6), [("train", (4, 6))]),
    ("LayerNorm", dict(normalized_shape=6, eps=1e-3), [("train", (2, 3, 6))]),
    ("LayerNorm", dict(normalized_shape=(3, 6)), [("train", (2, 3, 6))]),
    ("BatchNorm1d", dict(num_features=5), [("train", (8, 5)), ("train", (8, 5)), ("eval", (6, 5))]),
    ("BatchNorm1d", dict(num_features=5), [("eval", (6, 5))]),
    ("BatchNorm1d", dict(num_features=3, eps=1e-3, momentum=0.3), [("train", (2, 3)), ("train", (4, 3)), ("eval", (3, 3))]),
]

# Optimizers: (class, constructor kwargs, steps[, params left out of the first
# step's loss]). Parameters w (3,) and b () fit a fixed linear regression,
# loss = mean((X @ w + b - y) ** 2); parameters are recorded after every step.
OPTIM_CASES = [
    ("SGD", dict(lr=0.1), 3),
    ("SGD", dict(lr=0.1, momentum=0.9), 3),
    ("Adam", dict(lr=0.1), 3),
    ("Adam", dict(lr=0.01, betas=(0.8, 0.99), eps=1e-6), 3),
    ("SGD", dict(lr=0.1, momentum=0.9), 3, ["b"]),
    ("Adam", dict(lr=0.1), 3, ["b"]),
]


def _micrograd_more_ops(a, b):
    """micrograd's test_more_ops, written without augmented assignment."""
    c = a + b
    d = a * b + b**3
    c = c + c + 1
    c = c + 1 + c + (-a)
    d = d + d * 2 + (b + a).relu()
    d = d + 3 * d + (b - a).relu()
    e = c - d
    f = e**2
    g = f / 2.0
    g = g + 10.0 / f
    return g


# Scalars: (name, f, inputs). f runs unchanged on minigrad Values and on 0-d
# torch tensors; the reference is f's value and its gradient in every input.
VALUE_CASES = [
    ("add", lambda a, b: a + b, dict(a=1.5, b=-2.25)),
    ("sub", lambda a, b: a - b, dict(a=1.5, b=-2.25)),
    ("mul", lambda a, b: a * b, dict(a=1.5, b=-2.25)),
    ("div", lambda a, b: a / b, dict(a=1.5, b=-2.25)),
    ("neg", lambda a: -a, dict(a=1.5)),
    ("pow2", lambda a: a**2, dict(a=-1.3)),
    ("pow3", lambda a: a**3, dict(a=-1.3)),
    ("pow0.5", lambda a: a**0.5, dict(a=2.0)),
    ("pow-1", lambda a: a**-1, dict(a=-0.8)),
    ("pow0_at_zero", lambda a: a**0, dict(a=0.0)),
    ("pow_value", lambda a, b: a**b, dict(a=1.5, b=-2.25)),
    ("rpow", lambda a: 2**a, dict(a=1.5)),
    ("radd", lambda a: 2 + a, dict(a=1.5)),
    ("rsub", lambda a: 2 - a, dict(a=1.5)),
    ("rmul", lambda a: 2 * a, dict(a=1.5)),
    ("rdiv", lambda a: 2 / a, dict(a=1.5)),
    ("exp", lambda a: a.exp(), dict(a=0.7)),
    ("log", lambda a: a.log(), dict(a=0.7)),
    ("tanh", lambda a: a.tanh(), dict(a=0.7)),
    ("relu_pos", lambda a: a.relu(), dict(a=0.7)),
    ("relu_neg", lambda a: a.relu(), dict(a=-0.7)),
    ("relu_zero", lambda a: a.relu(), dict(a=0.0)),
    ("sigmoid", lambda a: a.sigmoid(), dict(a=0.7)),
    ("sigmoid_neg_large", lambda a: a.sigmoid(), dict(a=-40.0)),
    ("reuse", lambda a: a * a + a, dict(a=-1.5)),
    ("diamond", lambda a, b, c: (a * b + c) * (a - c), dict(a=2.0, b=3.0, c=4.0)),
    ("neuron", lambda x1, x2, w1, w2, b: (x1 * w1 + x2 * w2 + b).tanh(),
     dict(x1=2.0, x2=0.0, w1=-3.0, w2=1.0, b=6.8813735870195432)),
    ("micrograd_more_ops", _micrograd_more_ops, dict(a=-4.0, b=2.0)),
]


# ---- cases ------------------------------------------------------------------------


@dataclass
class Case:
    id: str
    kind: str  # "tensor", "module", "optim" or "value"
    op: str  # a tensor op, module class, optimizer class or value-case name
    shapes: list = field(default_factory=list)  # tensor: input shapes
    kwargs: dict = field(default_factory=dict)  # the op's / constructor's keyword arguments
    init: str = "normal"
    const: tuple = ()
    steps: object = None  # module: [(mode, shape)]; optim: number of steps
    skip_first: tuple = ()  # optim: params left out of the first step's loss
    fn: object = None  # value: the function
    values: dict = field(default_factory=dict)  # value: the inputs

    @property
    def seed(self):
        return zlib.crc32(self.id.encode())


def _shape_str(shape):
    return "x".join(map(str, shape)) if shape else "()"


def _fmt(value):
    return value if isinstance(value, str) else repr(value).replace(" ", "")


def _tensor_case(op, shapes, options=None):
    kwargs = dict(options or {})
    init = kwargs.pop("init", "normal")
    const = tuple(kwargs.pop("const", ()))
    parts = [("ndarray" if i in const else "") + _shape_str(s) for i, s in enumerate(shapes)]
    id_ = f"{op}:{'|'.join(parts)}"
    if "index" in kwargs:
        id_ += kwargs["index"].replace(" ", "")
    shown = {k: v for k, v in kwargs.items() if k != "index"}
    if init != "normal":
        shown["init"] = init
    if shown:
        id_ += ":" + ",".join(f"{k}={_fmt(v)}" for k, v in shown.items())
    return Case(id_, "tensor", op, [tuple(s) for s in shapes], kwargs, init, const)


def _module_case(name, kwargs, steps):
    args = ",".join(f"{k}={_fmt(v)}" for k, v in kwargs.items())
    run = ",".join(f"{mode}{_shape_str(shape)}" for mode, shape in steps)
    return Case(f"{name}({args}):{run}", "module", name, kwargs=kwargs, steps=steps)


def _optim_case(name, kwargs, steps, skip_first=()):
    args = ",".join(f"{k}={_fmt(v)}" for k, v in kwargs.items())
    id_ = f"{name}({args}):{steps}steps"
    if skip_first:
        id_ += f":no_{'_'.join(skip_first)}_in_step0"
    return Case(id_, "optim", name, kwargs=kwargs, steps=steps, skip_first=tuple(skip_first))


def _value_case(name, fn, values):
    return Case(f"Value:{name}", "value", name, fn=fn, values=values)


CASES = (
    [_tensor_case(*row) for row in TENSOR_CASES]
    + [_module_case(*row) for row in MODULE_CASES]
    + [_optim_case(*row) for row in OPTIM_CASES]
    + [_value_case(*row) for row in VALUE_CASES]
)
CASES_BY_ID = {case.id: case for case in CASES}
assert len(CASES_BY_ID) == len(CASES), "case ids must be unique"


def parse_index(text):
    """'[[0, 2, 0], 1:3]' -> the index object numpy would get from x[[0, 2, 0], 1:3]."""
    return eval("np.s_" + text, {"np": np, "__builtins__": {}})  # our own table, not user input


def draw(rng, shape, init):
    """Inputs for one operand; `init` keeps them inside the op's domain or makes a point."""
    if init == "normal":
        return rng.standard_normal(shape)
    if init == "positive":  # log, fractional powers
        return rng.uniform(0.5, 2.0, shape)
    if init == "nonzero":  # denominators, negative powers
        return rng.uniform(0.5, 2.0, shape) * rng.choice([-1.0, 1.0], shape)
    if init == "ties":  # exact ties for max, exact zeros for relu and pow
        return rng.integers(0, 3, shape).astype(np.float64)
    if init == "wide":  # saturating tanh / sigmoid
        return 20 * rng.standard_normal(shape)
    if init == "large":  # logits near 1000: a naive exp overflows
        return 1000 + 5 * rng.standard_normal(shape)
    if init == "spread":  # logits at -1000, 0 and 1000 in one row: exp underflows too
        return 1000 * rng.integers(-1, 2, shape) + rng.standard_normal(shape)
    raise ValueError(f"unknown init {init!r}")


def regression_loss(X, y, w, b=None):
    """The optimizer cases' loss; the same code runs on torch and minigrad tensors."""
    pred = X @ w if b is None else X @ w + b
    return ((pred - y) ** 2).mean()


def regression_data(case):
    """Inputs of an optimizer case: X (8, 3), y (8,), initial w (3,) and b ()."""
    rng = np.random.default_rng(case.seed)
    X = rng.standard_normal((8, 3))
    y = X @ np.array([1.5, -2.0, 0.5]) + 0.3 + 0.1 * rng.standard_normal(8)
    return {"X": X, "y": y, "w": rng.standard_normal(3), "b": np.asarray(rng.standard_normal())}


# ---- torch ----------------------------------------------------------------------------


def _torch():
    import torch

    torch.set_num_threads(1)  # one summation order
    return torch


def _torch_index(torch, index):
    parts = index if isinstance(index, tuple) else (index,)
    parts = tuple(torch.from_numpy(p) if isinstance(p, np.ndarray) else p for p in parts)
    return parts if isinstance(index, tuple) else parts[0]


def _dims(a, axis):
    return tuple(range(a.ndim)) if axis is None else axis


# Python operators mean the same on a torch tensor and a minigrad Tensor: one table for both.
OPERATOR_OPS = {
    "add": lambda a, b: a + b,
    "sub": lambda a, b: a - b,
    "mul": lambda a, b: a * b,
    "div": lambda a, b: a / b,
    "add_scalar": lambda a, c: a + c,
    "radd_scalar": lambda a, c: c + a,
    "sub_scalar": lambda a, c: a - c,
    "rsub_scalar": lambda a, c: c - a,
    "mul_scalar": lambda a, c: a * c,
    "rmul_scalar": lambda a, c: c * a,
    "div_scalar": lambda a, c: a / c,
    "rdiv_scalar": lambda a, c: c / a,
    "pow": lambda a, p: a**p,
    "neg": lambda a: -a,
    "matmul": lambda a, b: a @ b,
}


def torch_ops(torch):
    """Each tensor op of the table, in torch, with minigrad's (numpy's) semantics."""
    F = torch.nn.functional
    return {
        **OPERATOR_OPS,
        "sum": lambda a, axis, keepdims=False: a.sum(dim=_dims(a, axis), keepdim=keepdims),
        "mean": lambda a, axis, keepdims=False: a.mean(dim=_dims(a, axis), keepdim=keepdims),
        # amax, not max: it shares the gradient among ties, as minigrad does
        "max": lambda a, axis, keepdims=False: a.amax(dim=_dims(a, axis), keepdim=keepdims),
        "reshape": lambda a, shape: a.reshape(shape),
        "transpose": lambda a, axes: a.permute(*(axes or reversed(range(a.ndim)))),
        "T": lambda a: a.permute(*reversed(range(a.ndim))),  # numpy's .T: all axes reversed
        "getitem": lambda a, index: a[_torch_index(torch, parse_index(index))],
        "exp": lambda a: a.exp(),
        "log": lambda a: a.log(),
        "tanh": lambda a: a.tanh(),
        "relu": lambda a: a.relu(),
        "sigmoid": lambda a: a.sigmoid(),
        "softmax": lambda a, axis: F.softmax(a, dim=axis),
        "log_softmax": lambda a, axis: F.log_softmax(a, dim=axis),
        "cross_entropy": lambda a, targets: F.cross_entropy(a, torch.tensor(targets)),
        "mse_loss": lambda a, b: F.mse_loss(a, b),
    }


def _numpy(t):
    return t.detach().numpy().copy()


def _grad(t):
    return np.zeros(tuple(t.shape)) if t.grad is None else _numpy(t.grad)


def torch_compute(case):
    """One case in torch: {"inputs": {name: array}, "expected": {name: array}}."""
    torch = _torch()
    f64 = torch.float64
    rng = np.random.default_rng(case.seed)
    inputs, expected = {}, {}

    if case.kind == "tensor":
        arrays = [draw(rng, shape, case.init) for shape in case.shapes]
        xs = [torch.tensor(a, dtype=f64, requires_grad=i not in case.const) for i, a in enumerate(arrays)]
        out = torch_ops(torch)[case.op](*xs, **case.kwargs)
        W = np.asarray(rng.standard_normal(tuple(out.shape)))
        (out * torch.tensor(W)).sum().backward()
        inputs = {f"x{i}": a for i, a in enumerate(arrays)} | {"W": W}
        expected["out"] = _numpy(out)
        for i, x in enumerate(xs):
            if i not in case.const:
                expected[f"grad.x{i}"] = _grad(x)

    elif case.kind == "module":
        module = getattr(torch.nn, case.op)(**case.kwargs, dtype=f64)
        with torch.no_grad():
            for name, p in module.named_parameters():
                inputs[f"param.{name}"] = rng.standard_normal(tuple(p.shape))
                p.copy_(torch.tensor(inputs[f"param.{name}"]))
        for i, (mode, shape) in enumerate(case.steps):
            module.train(mode == "train")
            inputs[f"step{i}.input"] = draw(rng, shape, case.init)
            x = torch.tensor(inputs[f"step{i}.input"], requires_grad=True)
            out = module(x)
            inputs[f"step{i}.W"] = W = np.asarray(rng.standard_normal(tuple(out.shape)))
            module.zero_grad()
            (out * torch.tensor(W)).sum().backward()
            expected[f"step{i}.out"] = _numpy(out)
            expected[f"step{i}.grad.input"] = _grad(x)
            for name, p in module.named_parameters():
                expected[f"step{i}.grad.{name}"] = _grad(p)
            for name in ("running_mean", "running_var"):
                if hasattr(module, name):
                    expected[f"step{i}.{name}"] = _numpy(getattr(module, name))

    elif case.kind == "optim":
        inputs = regression_data(case)
        X, y = torch.tensor(inputs["X"]), torch.tensor(inputs["y"])
        params = {name: torch.tensor(inputs[name], requires_grad=True) for name in ("w", "b")}
        opt = getattr(torch.optim, case.op)(list(params.values()), **case.kwargs)
        for i in range(case.steps):
            opt.zero_grad()
            b = None if i == 0 and "b" in case.skip_first else params["b"]
            loss = regression_loss(X, y, params["w"], b)
            loss.backward()
            opt.step()
            expected[f"step{i}.loss"] = _numpy(loss)
            for name, p in params.items():
                expected[f"step{i}.{name}"] = _numpy(p)

    elif case.kind == "value":
        xs = {k: torch.tensor(v, dtype=f64, requires_grad=True) for k, v in case.values.items()}
        out = case.fn(**xs)
        out.backward()
        inputs = {k: np.asarray(v) for k, v in case.values.items()}
        expected["out"] = _numpy(out)
        for k, x in xs.items():
            expected[f"grad.{k}"] = _grad(x)

    else:
        raise ValueError(f"unknown case kind {case.kind!r}")
    return {"inputs": inputs, "expected": expected}


def compute():
    return {case.id: torch_compute(case) for case in CASES}


# ---- the JSON file ------------------------------------------------------------------


def _to_json(arrays):
    return {name: np.asarray(a, dtype=np.float64).tolist() for name, a in arrays.items()}


def _dump(value):
    return json.dumps(value, allow_nan=False, separators=(",", ":"))


def dumps(results):
    """The JSON text: one line per array, floats as repr (round-trip exact)."""
    torch = _torch()
    meta = {
        "generator": "scripts/make_torch_reference.py",
        "torch": torch.__version__,
        "numpy": np.__version__,
        "dtype": "float64",
        "loss": "tensor and module cases backpropagate sum(out * W), W stored with the inputs",
    }
    lines = ["{", f' "meta": {json.dumps(meta)},', ' "cases": {']
    for n, (case_id, result) in enumerate(results.items()):
        case = CASES_BY_ID[case_id]
        lines.append(f"  {json.dumps(case_id)}: {{")
        lines.append(f'   "kind": {json.dumps(case.kind)},')
        for section in ("inputs", "expected"):
            lines.append(f"   {json.dumps(section)}: {{")
            items = list(_to_json(result[section]).items())
            for m, (name, value) in enumerate(items):
                comma = "," if m < len(items) - 1 else ""
                lines.append(f"    {json.dumps(name)}: {_dump(value)}{comma}")
            lines.append("   }" + ("," if section == "inputs" else ""))
        lines.append("  }" + ("," if n < len(results) - 1 else ""))
    lines += [" }", "}", ""]
    return "\n".join(lines)


def load(path=OUT):
    return json.loads(Path(path).read_text())


def stale_cases(reference, fresh, rtol=1e-12, atol=1e-14):
    """{case id: what is wrong} between the committed JSON and a fresh `compute()`.

    Inputs must match exactly (they come from numpy's seeded generator); torch's
    numbers may move by a few ulps between torch builds, hence the tolerance.
    """
    committed = reference["cases"]
    problems = {}
    for case_id in committed.keys() - fresh.keys():
        problems[case_id] = "in the JSON but no longer in the case table"
    for case_id, result in fresh.items():
        if case_id not in committed:
            problems[case_id] = "in the case table but not in the JSON"
            continue
        for section in ("inputs", "expected"):
            old, new = committed[case_id][section], _to_json(result[section])
            if old.keys() != new.keys():
                problems[case_id] = f"{section} names differ: {sorted(old)} vs {sorted(new)}"
                break
            for name in new:
                a, b = np.asarray(old[name], dtype=np.float64), np.asarray(new[name], dtype=np.float64)
                exact = section == "inputs"
                if a.shape != b.shape or not (np.array_equal(a, b) if exact else np.allclose(a, b, rtol, atol)):
                    problems[case_id] = f"{section}[{name!r}] differs"
                    break
            if case_id in problems:
                break
    return problems


def stale(committed_text, results):
    """What is stale, case by case, within torch's few ulps between builds."""
    return [f"{case_id}: {why}" for case_id, why in sorted(stale_cases(json.loads(committed_text), results).items())]
