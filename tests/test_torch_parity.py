"""minigrad against PyTorch, on numbers PyTorch computed once.

The cases, their inputs and torch's outputs and gradients live in
minigrad/reference/engine.json, written by scripts/make_torch_reference.py;
its case tables (scripts/torch_reference/engine.py) are the single source of
truth and are imported here. torch is not a dependency of this project (not
even a test one): the reference is committed data, and its freshness check
(tests/test_torch_reference.py) runs only where torch exists.
"""

import json

import numpy as np
import pytest

from minigrad import Tensor, Value, nn, optim
from minigrad import functional as F
from scripts.torch_reference import engine as ref

REFERENCE = json.loads(ref.OUT.read_text())

# minigrad and torch compute the same float64 formulas, often in a different
# order: two thirds of the compared arrays agree bit for bit and the worst
# relative difference seen is 6e-13 (BatchNorm1d's input gradient on a batch of
# two). rtol 1e-10 leaves room for that cancellation and is still orders of
# magnitude below any real gradient error. atol only matters for entries
# that are zero up to rounding, e.g. 1 - tanh(x)**2 on saturated inputs (~1e-16).
RTOL, ATOL = 1e-10, 1e-12

# Discrepancies found by these tests, reported to minigrad's owner; each xfail
# is strict, so the fix turns it into a failure that asks for the mark's removal.
KNOWN_BUGS = {}  # case id: (exception the bug raises, or None for either, reason); none open


def _params(cases):
    params = []
    for case in cases:
        marks = []
        if case.id in KNOWN_BUGS:
            raises, reason = KNOWN_BUGS[case.id]
            marks.append(pytest.mark.xfail(strict=True, raises=raises, reason=reason))
            if raises is None:  # the nan comes with numpy's divide/invalid RuntimeWarnings
                marks.append(pytest.mark.filterwarnings("ignore::RuntimeWarning"))
        params.append(pytest.param(case, id=case.id, marks=marks))
    return params


# ---- minigrad's side of every case ------------------------------------------------------

MINIGRAD_OPS = {
    **ref.OPERATOR_OPS,
    "sum": lambda a, axis, keepdims=False: a.sum(axis=axis, keepdims=keepdims),
    "mean": lambda a, axis, keepdims=False: a.mean(axis=axis, keepdims=keepdims),
    "max": lambda a, axis, keepdims=False: a.max(axis=axis, keepdims=keepdims),
    "reshape": lambda a, shape: a.reshape(shape),
    "transpose": lambda a, axes: a.transpose(*axes) if axes else a.transpose(),
    "T": lambda a: a.T,
    "getitem": lambda a, index: a[ref.parse_index(index)],
    "exp": lambda a: a.exp(),
    "log": lambda a: a.log(),
    "tanh": lambda a: a.tanh(),
    "relu": lambda a: a.relu(),
    "sigmoid": lambda a: a.sigmoid(),
    "softmax": lambda a, axis: F.softmax(a, axis=axis),
    "log_softmax": lambda a, axis: F.log_softmax(a, axis=axis),
    "cross_entropy": lambda a, targets: F.cross_entropy(a, targets),
    "mse_loss": lambda a, b: F.mse_loss(a, b),
}


def _grad(t):
    return np.zeros(t.shape) if t.grad is None else np.asarray(t.grad)


def minigrad_compute(case, inputs):
    """The same names as the reference's "expected", computed by minigrad from its "inputs"."""
    got = {}
    if case.kind == "tensor":
        arrays = [inputs[f"x{i}"] for i in range(len(case.shapes))]
        xs = [a.copy() if i in case.const else Tensor(a, requires_grad=True) for i, a in enumerate(arrays)]
        out = MINIGRAD_OPS[case.op](*xs, **case.kwargs)
        (out * Tensor(inputs["W"])).sum().backward()
        got["out"] = out.data
        for i, x in enumerate(xs):
            if i not in case.const:
                got[f"grad.x{i}"] = _grad(x)

    elif case.kind == "module":
        module = getattr(nn, case.op)(**case.kwargs)
        names = [key.removeprefix("param.") for key in inputs if key.startswith("param.")]
        for name in names:
            getattr(module, name).data[...] = inputs[f"param.{name}"]
        for i, (mode, _) in enumerate(case.steps):
            module.train(mode == "train")
            x = Tensor(inputs[f"step{i}.input"], requires_grad=True)
            out = module(x)
            module.zero_grad()
            (out * Tensor(inputs[f"step{i}.W"])).sum().backward()
            got[f"step{i}.out"] = out.data
            got[f"step{i}.grad.input"] = _grad(x)
            for name in names:
                got[f"step{i}.grad.{name}"] = _grad(getattr(module, name))
            for name in ("running_mean", "running_var"):
                if hasattr(module, name):
                    got[f"step{i}.{name}"] = np.array(getattr(module, name))

    elif case.kind == "optim":
        X, y = Tensor(inputs["X"]), Tensor(inputs["y"])
        params = {name: Tensor(inputs[name], requires_grad=True) for name in ("w", "b")}
        opt = getattr(optim, case.op)(list(params.values()), **case.kwargs)
        for i in range(case.steps):
            opt.zero_grad()
            b = None if i == 0 and "b" in case.skip_first else params["b"]
            loss = ref.regression_loss(X, y, params["w"], b)
            loss.backward()
            opt.step()
            got[f"step{i}.loss"] = loss.data
            for name, p in params.items():
                got[f"step{i}.{name}"] = p.data.copy()

    elif case.kind == "value":
        xs = {k: Value(float(v)) for k, v in inputs.items()}
        out = case.fn(**xs)
        out.backward()
        got["out"] = out.data
        for k, x in xs.items():
            got[f"grad.{k}"] = x.grad

    return {name: np.asarray(value, dtype=np.float64) for name, value in got.items()}


# ---- the tests ------------------------------------------------------------------------


def test_reference_covers_the_case_table():
    """A case added to (or removed from) the script's tables needs the JSON rewritten."""
    committed, table = set(REFERENCE["cases"]), set(ref.CASES_BY_ID)
    assert committed == table, (
        f"minigrad/reference/engine.json is stale (missing {sorted(table - committed)}, "
        f"extra {sorted(committed - table)}): rerun `python3 scripts/make_torch_reference.py`"
    )


def test_every_tensor_op_has_a_minigrad_side():
    assert {case.op for case in ref.CASES if case.kind == "tensor"} <= set(MINIGRAD_OPS)


@pytest.mark.parametrize("case", _params(ref.CASES))
def test_matches_torch(case):
    stored = REFERENCE["cases"][case.id]
    inputs = {name: np.asarray(v, dtype=np.float64) for name, v in stored["inputs"].items()}
    expected = {name: np.asarray(v, dtype=np.float64) for name, v in stored["expected"].items()}
    got = minigrad_compute(case, inputs)
    assert got.keys() == expected.keys()
    for name, want in expected.items():
        np.testing.assert_allclose(got[name], want, rtol=RTOL, atol=ATOL, strict=True, err_msg=f"{case.id}: {name}")


def test_diamond_gradients_are_the_textbook_ones():
    """L = (a*b + c) * (a - c) at a=2, b=3, c=4: the reference itself, checked by hand."""
    expected = REFERENCE["cases"]["Value:diamond"]["expected"]
    assert (expected["out"], expected["grad.a"], expected["grad.b"], expected["grad.c"]) == (-20.0, 4.0, -4.0, -12.0)
