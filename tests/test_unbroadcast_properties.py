"""Property test: unbroadcast is the adjoint of broadcasting, for any two broadcastable shapes.
(That each broadcasting op's gradients have their parents' shapes and agree with finite
differences is the op table's property: tests/op_table.py, tests/test_op_properties.py.)"""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from minigrad.tensor import unbroadcast
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
