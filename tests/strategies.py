"""Hypothesis strategies shared by the property tests (minitorch keeps them in one file)."""

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

small_floats = st.floats(-3, 3, allow_nan=False, width=64)


@st.composite
def broadcast_pairs(draw, max_dims=3):
    """Two shapes that broadcast, covering both regimes: axes created and length-1 axes expanded."""
    shapes = draw(hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=max_dims, max_side=4))
    return shapes.input_shapes


def arrays(shape):
    return hnp.arrays(np.float64, shape, elements=small_floats)
