"""Checks of the gradients themselves: their shapes, central differences, the diamond."""

import re

from ..gradcheck import gradcheck
from .cases import SCALAR_CASES, TENSOR_CASES, random_inputs
from .engine import weight_array
from .evidence import Failure, part
from .registry import CaseSpec, check
from .words import Said, error_of


def _ran(cases):
    return sum(c.status != "skipped" for c in cases)


@check("shape-invariant", "shapes", passed=lambda cases: f"every gradient has its tensor's shape ({_ran(cases)} cases)")
def shape_invariant(engine):
    """After every backward, each gradient has its tensor's shape."""
    for name, (shapes, f, needs) in TENSOR_CASES.items():
        yield CaseSpec(name, ("Tensor", *needs), lambda m, name=name, shapes=shapes, f=f: _shapes(m, name, shapes, f))


def _shapes(m, name, shapes, f):
    leaves = [m.leaf(a) for a in random_inputs(shapes)]
    loss = m.weighted_total(f(m, *leaves))
    try:
        loss.backward()
    except Exception as e:
        return Failure(Said("backward-raised", name=name, error=error_of(e)), ("run",), "raised")
    wrong = []
    for i, leaf in enumerate(leaves):
        grad = m.grad(leaf)
        if grad is None or grad.shape != m.values(leaf).shape:
            wrong.append((i, None if grad is None else grad.shape))
    if wrong:
        i, got = wrong[0]
        detail = Said("grad-shape", name=name, i=i, shape=m.values(leaves[i]).shape, grad=got)
        return Failure(detail, tuple(f"input {i}" for i, _ in wrong), "wrong shape")


def _gradcheck(name, run):
    result = run()
    if not result.ok:
        shapes = re.fullmatch(r"input (\d+) has shape (.*) but its gradient has shape (.*)", result.message)
        if shapes:
            detail = Said("gradcheck-shape", name=name, i=shapes[1], shape=shapes[2], grad=shapes[3])
        else:
            detail = Said("gradcheck", name=name, i=result.input, index=result.index,
                          analytic=f"{result.analytic:.6g}", numeric=f"{result.numeric:.6g}")
        return Failure(detail, (part(f"input {result.input}", result.analytic),), "wrong shape" if shapes else "wrong values")


@check("finite-differences", "finite differences",
       passed=lambda cases: f"{_ran(cases)} functions agree with central differences")
def finite_differences(engine):
    """Analytic gradients agree with central differences on non-uniform losses."""
    for name, (f, needs) in SCALAR_CASES.items():
        yield CaseSpec(name, ("Value", *needs), lambda m, name=name, f=f: _gradcheck(
            name, lambda: gradcheck(f, m.Value(2.0), m.Value(3.0), m.Value(4.0))))
    for name, (shapes, f, needs) in TENSOR_CASES.items():
        yield CaseSpec(name, ("Tensor", *needs), lambda m, name=name, shapes=shapes, f=f: _gradcheck(
            name, lambda: _tensor_gradcheck(m, shapes, f)))


def _tensor_gradcheck(m, shapes, f):
    leaves = [m.leaf(a) for a in random_inputs(shapes)]
    weight = m.tensor(weight_array(m.values(f(m, *leaves)).shape))
    # In float32 a step of 1e-6 is lost in rounding: a larger step and a looser bound, which the
    # breaks' errors (a factor, a sign, a missing term) still exceed many times over.
    steps = {"eps": 1e-3, "atol": 1e-3, "rtol": 2e-2} if m.single_precision(leaves[0]) else {}
    return gradcheck(lambda *xs: m.total(f(m, *xs) * weight), *leaves, **steps)


DIAMOND = "diamond (a*b + c) * (a - c) at 2, 3, 4"
BY_HAND = (4.0, -4.0, -12.0)


@check("diamond-test", DIAMOND, needs=("Value",), passed=lambda cases: "(a.grad, b.grad, c.grad) = (4.0, -4.0, -12.0), as by hand")
def diamond_test(engine):
    """The hand-worked diamond of theory page 03: L = (a*b + c) * (a - c) at 2, 3, 4; then (a + b) * a."""
    yield CaseSpec(DIAMOND, (), _diamond)
    yield CaseSpec(ADD_LAST, (), _add_last)


def _diamond(m):
    a, b, c = (m.Value(x) for x in (2.0, 3.0, 4.0))
    ((a * b + c) * (a - c)).backward()
    got = tuple(None if v.grad is None else float(v.grad) for v in (a, b, c))
    if got != BY_HAND:
        wrong = tuple(part(n, g) for n, g, e in zip("abc", got, BY_HAND) if g != e)
        return Failure(Said("diamond", got=got, expected=BY_HAND), wrong)


# A leaf whose last use, in backward's order, is an addition: `(a + b) * a` runs mul's backward first and
# add's last, so an add that overwrites its inputs' gradients (`child.grad = out.grad`) erases mul's share
# of a. The diamond hides that in any order where add runs first (Kahn's algorithm with sub as add and neg).
ADD_LAST = "(a + b) * a at 2, 3"
ADD_LAST_BY_HAND = (7.0, 2.0)


def _add_last(m):
    a, b = m.Value(2.0), m.Value(3.0)
    ((a + b) * a).backward()
    got = tuple(None if v.grad is None else float(v.grad) for v in (a, b))
    if got != ADD_LAST_BY_HAND:
        wrong = tuple(part(n, g) for n, g, e in zip("ab", got, ADD_LAST_BY_HAND) if g != e)
        return Failure(Said("by-hand", case=ADD_LAST, names="(a.grad, b.grad)", got=got, expected=ADD_LAST_BY_HAND), wrong)
