"""The properties every row of tests/op_table.py must have, as plain functions of
(draw, op, kind): `draw` is Hypothesis's `data.draw`, `kind` is "Value" or "Tensor".

They reach minigrad through `sys.modules` at call time (`engine()`), so the same
check runs the healthy engine or, inside `minigrad.breaks.applied`, the broken one.
"""

import functools
import importlib

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from op_table import BROADCAST_TWO, OPS, SAME_TWO, Domain

# Forward: minigrad and NumPy evaluate the same float64 formulas, sometimes in another order or
# form (e.g. sigmoid, a reduction's summation order): a few ulps apart. Terms up to ~1e3 (logits)
# may cancel to ~1e-13, hence an absolute floor; a real bug is off by far more.
FORWARD_RTOL, FORWARD_ATOL = 1e-9, 1e-9
# Gradients against central differences with eps = 1e-6: truncation ~eps**2 * f''' ~ 1e-12, rounding
# ~|loss| * 1e-16 / eps <~ 1e-7 for the losses of these domains (<~ 1e3); atol 1e-5 keeps a 100x margin.
FD_ATOL, FD_RTOL = 1e-5, 1e-3
IN_EVERY_DOMAIN = st.floats(0.5, 1.0)  # positive, nonzero, a probability: an input for every binary op
DIFFERENT_SHAPES = BROADCAST_TWO.filter(lambda pair: pair[0] != pair[1])


def engine():
    """(Value, Tensor, gradcheck) as minigrad is imported now: the broken copy inside `applied`."""
    scalar, tensor = importlib.import_module("minigrad.scalar"), importlib.import_module("minigrad.tensor")
    return scalar.Value, tensor.Tensor, importlib.import_module("minigrad.gradcheck").gradcheck


@functools.cache
def arrays_of(shape, domain):
    """One strategy per (shape, domain), built once: building it anew for every example costs more than drawing."""
    return hnp.arrays(np.float64, shape, elements=domain.elements, unique=domain.unique)


def draw_inputs(draw, op, kind, domain_of, params=None, elements=None):
    """(arrays, params): one array per operand (0-d for a Value), drawn from `domain_of(i)`."""
    shapes = draw(op.shapes)
    shapes = shapes if kind == "Tensor" else tuple(() for _ in shapes)  # a Value is a scalar
    params = draw((params or op.params)(shapes))
    arrays = []
    for i, shape in enumerate(shapes):
        domain = Domain(elements) if elements is not None else domain_of(i)
        arrays.append(draw(arrays_of(shape, domain)))
    return arrays, params


def wrap(kind, arrays):
    Value, Tensor, _ = engine()
    return [Value(float(a)) if kind == "Value" else Tensor(a, requires_grad=True) for a in arrays]


def weighted_loss(draw, op, kind, params, out_shape, constants=None):
    """x -> sum(op(x) * W), W fixed random normal numbers: no gradient is trivially uniform."""
    _, Tensor, _ = engine()
    weights = np.random.default_rng(draw(st.integers(0, 2**32 - 1))).normal(size=out_shape)

    def loss(*variables):
        operands = list(variables)
        for i, c in sorted((constants or {}).items()):
            operands.insert(i, c)
        out = op.call(*operands, **params)
        return out * float(weights) if kind == "Value" else (out * Tensor(weights)).sum()

    return loss, weights


def assert_gradients_match_finite_differences(loss, variables):
    result = engine()[2](loss, *variables, atol=FD_ATOL, rtol=FD_RTOL)
    assert result.ok, str(result)
    for x in variables:  # each gradient has its input's shape
        assert np.shape(x.grad) == np.shape(x.data), f"gradient {np.shape(x.grad)} for an input {np.shape(x.data)}"


def forward(draw, op, kind):
    """Equals the NumPy reference, in shape and value, and leaves its inputs unchanged."""
    arrays, params = draw_inputs(draw, op, kind, op.domain)
    xs = wrap(kind, arrays)
    out = op.call(*xs, **params)
    expected = op.reference(*arrays, **params)
    assert np.shape(out.data) == np.shape(expected), f"shape {np.shape(out.data)}, NumPy's {np.shape(expected)}"
    np.testing.assert_allclose(out.data, expected, rtol=FORWARD_RTOL, atol=FORWARD_ATOL)
    for x, a in zip(xs, arrays):
        np.testing.assert_array_equal(x.data, a, err_msg="the op changed its input")


def gradient(draw, op, kind):
    """Each input's gradient has its shape and agrees with central differences, away from kinks."""
    arrays, params = draw_inputs(draw, op, kind, op.gradient_domain)
    loss, _ = weighted_loss(draw, op, kind, params, np.shape(op.reference(*arrays, **params)))
    assert_gradients_match_finite_differences(loss, wrap(kind, arrays))


def aliased(draw, op, kind):
    """op(x, x): the operand used twice gets both shares (backward adds, never overwrites)."""
    arrays, params = draw_inputs(draw, op, kind, op.domain, elements=IN_EVERY_DOMAIN)
    x = arrays[0]
    loss, _ = weighted_loss(draw, op, kind, params, np.shape(op.reference(x, x, **params)))
    assert_gradients_match_finite_differences(lambda v: loss(v, v), wrap(kind, [x]))


def constant(draw, op, kind):
    """A plain number (Value) or ndarray (Tensor) on either allowed side: the reflected operators."""
    arrays, params = draw_inputs(draw, op, kind, op.domain)
    i = draw(st.sampled_from(op.constants))
    plain = float(arrays[i]) if kind == "Value" else arrays[i].copy()
    expected = op.reference(*arrays, **params)
    variables = wrap(kind, arrays[:i] + arrays[i + 1:])
    loss, weights = weighted_loss(draw, op, kind, params, np.shape(expected), constants={i: plain})
    out = op.call(*(variables[:i] + [plain] + variables[i:]), **params)
    np.testing.assert_allclose(out.data, expected, rtol=FORWARD_RTOL, atol=FORWARD_ATOL)
    assert_gradients_match_finite_differences(loss, variables)


def refuses_broadcasting(draw, op, kind):
    """An op that must not broadcast says so on different shapes, instead of a silently wrong number."""
    shapes = draw(DIFFERENT_SHAPES)
    arrays = [draw(arrays_of(s, op.domain(i))) for i, s in enumerate(shapes)]
    try:
        op.call(*wrap(kind, arrays))
    except ValueError:
        return
    raise AssertionError(f"{op.name} accepted shapes {shapes[0]} and {shapes[1]}")


def kink(draw, op, kind):
    """At the kink, the gradient is the convention (the torch one, tests/test_op_properties.py checks)."""
    arrays, params = draw_inputs(draw, op, kind, op.domain, params=op.kink.params, elements=op.kink.elements)
    loss, weights = weighted_loss(draw, op, kind, params, np.shape(op.reference(*arrays, **params)))
    xs = wrap(kind, arrays)
    loss(*xs).backward()
    np.testing.assert_allclose(xs[0].grad, op.kink.convention(arrays, params, weights), rtol=1e-12, atol=0, err_msg=op.kink.why)


PROPERTIES = {  # name -> (check, the rows it applies to)
    "forward": (forward, lambda op: True),
    "gradient": (gradient, lambda op: True),
    "aliased": (aliased, lambda op: op.shapes is SAME_TWO or op.broadcasts),
    "constant": (constant, lambda op: bool(op.constants)),
    "refuses_broadcasting": (refuses_broadcasting, lambda op: op.broadcasts is False),
    "kink": (kink, lambda op: op.kink is not None),
}


def cases(name):
    """(op, kind) pairs the property `name` applies to."""
    applies = PROPERTIES[name][1]
    return [(op, kind) for op in OPS for kind in op.on if applies(op)]
