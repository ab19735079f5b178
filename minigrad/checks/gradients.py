"""Checks of the gradients themselves: their shapes, central differences, the diamond."""

import re

import numpy as np

from ..gradcheck import compare
from .cases import SCALAR_CASES, TENSOR_CASES, random_inputs, scalar_case
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
            name, lambda: compare(scalar_case(m, name, f), [m.Value(2.0), m.Value(3.0), m.Value(4.0)], EngineAccess(m))))
    for name, (shapes, f, needs) in TENSOR_CASES.items():
        yield CaseSpec(name, ("Tensor", *needs), lambda m, name=name, shapes=shapes, f=f: _gradcheck(
            name, lambda: _tensor_gradcheck(m, shapes, f)))


def _tensor_gradcheck(m, shapes, f):
    leaves = [m.leaf(a) for a in random_inputs(shapes)]
    weight = m.tensor(weight_array(m.values(f(m, *leaves)).shape))
    # In float32 a step of 1e-6 is lost in rounding: a larger step and a looser bound, which the
    # breaks' errors (a factor, a sign, a missing term) still exceed many times over.
    steps = {"eps": 1e-3, "atol": 1e-3, "rtol": 2e-2} if m.single_precision(leaves[0]) else {}
    return compare(lambda *xs: m.total(f(m, *xs) * weight), leaves, EngineAccess(m), **steps)


class EngineAccess:
    """What minigrad.gradcheck reads and writes, through the engine's protocol: its mapped attribute
    names, an ndarray subclass as its own array, a gradient that starts as None or as zeros."""

    def __init__(self, m):
        self.m = m

    def zero_grad(self, x):
        kept = getattr(x, self.m.grad_name, None)
        held = None if kept is None else self.m.raw_grad(x)
        if isinstance(held, np.ndarray) and held is not kept and held.flags.writeable:
            held[...] = 0  # a gradient kept as the engine's own Tensor: zeroed in place, still a Tensor
        elif not self.shape(x) and not isinstance(kept, np.ndarray):
            setattr(x, self.m.grad_name, 0.0)  # a Value's number
        else:  # as the engine keeps it: an array's zeros (it may `+=` into it), else None
            setattr(x, self.m.grad_name, np.zeros(self.shape(x)) if isinstance(kept, np.ndarray) else None)
        if getattr(x, "requires_grad", True) is False:
            x.requires_grad = True  # gradcheck asks for every input's gradient

    def grad(self, x):
        got = self.m.grad(x)
        return np.zeros(self.shape(x)) if got is None else got

    def shape(self, x):
        return self.m.values(x).shape

    def get(self, x, index):
        return float(self.m.values(x)[index])

    def set(self, x, index, v):
        array = self.m.values(x).copy()
        array[index] = v
        self.m.set_values(x, array)

    def number(self, out):
        return self.m.number(out)


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
    got = tuple(m.scalar_grad(v) for v in (a, b, c))
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
    got = tuple(m.scalar_grad(v) for v in (a, b))
    if got != ADD_LAST_BY_HAND:
        wrong = tuple(part(n, g) for n, g, e in zip("ab", got, ADD_LAST_BY_HAND) if g != e)
        return Failure(Said("by-hand", case=ADD_LAST, names="(a.grad, b.grad)", got=got, expected=ADD_LAST_BY_HAND), wrong)
