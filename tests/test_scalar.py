import math

import pytest

from minigrad.graph import topological_order
from minigrad.gradcheck import gradcheck
from minigrad.scalar import Value


def test_worked_diamond():
    a, b, c = Value(2.0), Value(3.0), Value(4.0)
    L = (a * b + c) * (a - c)
    L.backward()
    assert (L.data, a.grad, b.grad, c.grad) == (-20.0, 4.0, -4.0, -12.0)


def test_leaf_the_output_ignores_has_zero_grad():
    x, unused = Value(3.0), Value(7.0)
    (x * x).backward()
    assert x.grad == 6.0 and unused.grad == 0.0


def test_deep_chain_has_no_recursion_error():
    x = Value(1.0)
    y = x
    for _ in range(100_000):
        y = y * 1.0 + 0.0
    y.backward()
    assert x.grad == 1.0


def test_topological_order_is_deterministic_and_children_first():
    a, b = Value(1.0, label="a"), Value(2.0, label="b")
    out = (a * b) + a
    order = topological_order(out)
    assert [v.label or v._op for v in order] == ["a", "b", "*", "+"]
    assert order == topological_order(out)


def test_second_backward_accumulates_into_leaves_only():
    x = Value(2.0)
    y = x * x
    y.backward()
    y.backward()
    assert x.grad == 8.0  # two passes, each adding 4; intermediates restart from 0


@pytest.mark.parametrize(
    "f",
    [
        lambda x, y: x + y,
        lambda x, y: x * y,
        lambda x, y: x - y,
        lambda x, y: x / y,
        lambda x, y: x**3 + y**-2,
        lambda x, y: (x * y).tanh(),
        lambda x, y: (x - y).exp(),
        lambda x, y: (x * x + 1).log() * y,
        lambda x, y: (x - y).relu() + (y - x).relu() * 2,
        lambda x, y: (x * y).sigmoid(),
        lambda x, y: 2 - x + 3 * y - 1 / y,
        lambda x, y: -x * (y + 1),
        lambda x, y: (x * x) ** y + 2**x,  # the base x*x is positive at the inputs below
    ],
    ids=["add", "mul", "sub", "div", "pow", "tanh", "exp", "log", "relu", "sigmoid", "reflected", "neg", "pow-value"],
)
def test_gradients_match_finite_differences(f):
    result = gradcheck(f, Value(0.7), Value(-1.3))
    assert result.ok, str(result)


@pytest.mark.parametrize("x", [-50.0, -1.0, 0.0, 2.0, 50.0])
def test_sigmoid_is_stable(x):
    assert Value(x).sigmoid().data == pytest.approx(1 / (1 + math.exp(-x)))


def test_bad_exponent_is_a_clear_error():
    with pytest.raises(TypeError, match="number or a Value exponent"):
        Value(2.0) ** "3"
    with pytest.raises(ValueError, match="positive base"):
        Value(-2.0) ** Value(3.0)
    with pytest.raises(ValueError, match="non-positive"):
        Value(0.0).log()
