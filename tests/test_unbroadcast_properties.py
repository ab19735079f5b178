"""Property tests: for any two broadcastable shapes, each gradient has its parent's
shape and equals the finite-difference gradient of a non-uniform loss."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from minigrad.gradcheck import gradcheck
from minigrad.tensor import Tensor, unbroadcast
from strategies import arrays, broadcast_pairs


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_unbroadcast_is_the_adjoint_of_broadcasting(data):
    """<broadcast(x), g> == <x, unbroadcast(g)> for every x and g: the definition of an adjoint."""
    shape, other = data.draw(broadcast_pairs())
    target = np.broadcast_shapes(shape, other)
    x = data.draw(arrays(shape))
    g = data.draw(arrays(target))
    summed = unbroadcast(g, shape)
    assert summed.shape == shape
    np.testing.assert_allclose(np.sum(np.broadcast_to(x, target) * g), np.sum(x * summed), atol=1e-9)


@settings(max_examples=40, deadline=None)
@given(st.data(), st.sampled_from(["add", "mul", "sub", "div"]))
def test_broadcast_ops_grads_have_parent_shape_and_match_finite_differences(data, op):
    shape_a, shape_b = data.draw(broadcast_pairs())
    a = Tensor(data.draw(arrays(shape_a)), requires_grad=True)
    b = Tensor(data.draw(arrays(shape_b)) ** 2 + 1, requires_grad=True)  # no division by ~0
    weight = Tensor(np.arange(np.prod(np.broadcast_shapes(shape_a, shape_b))).reshape(np.broadcast_shapes(shape_a, shape_b)) % 5 - 2.0)
    f = {"add": lambda x, y: x + y, "mul": lambda x, y: x * y, "sub": lambda x, y: x - y, "div": lambda x, y: x / y}[op]
    loss = lambda x, y: (f(x, y) * weight).sum()  # noqa: E731
    result = gradcheck(loss, a, b)
    assert a.grad.shape == shape_a and b.grad.shape == shape_b
    assert result.ok, str(result)
