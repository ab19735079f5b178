"""Every differentiable op of minigrad, one row each (minitorch's way): tests/test_op_properties.py
checks each row's properties with Hypothesis, on `Value` and/or `Tensor`.

To add an op, add ONE `Op(...)` row to OPS: how to call it (`call`, on the engine's own
objects), where (`on`), its inputs (`shapes`, `domains`, `params`), whether it broadcasts,
its NumPy forward (`reference`), its kinks with minigrad's convention there (`kink`), and the
catalogue breaks that live in it (`breaks`). Every property then runs on the new row, and the
mutation test proves the row catches its breaks.

Rows call minigrad through the objects they are given, and `functional(name)` looks the
function up when called: inside `minigrad.breaks.applied`, the row runs the broken copy.
"""

import importlib
import itertools
from dataclasses import dataclass

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from strategies import broadcast_pairs, small_floats

MAX_SIDE = 3  # at most 27 elements: finite differences stay fast

# ---- input domains: elements per operand ---------------------------------------------------

POSITIVE = st.floats(0.5, 3.0)  # log, real powers: away from 0, where they or their slope blow up
NONZERO = st.one_of(POSITIVE, POSITIVE.map(lambda x: -x))  # divisors, negative powers
AWAY_FROM_ZERO = st.one_of(st.floats(1e-3, 3.0), st.floats(-3.0, -1e-3))  # relu, far from its kink
GRID = st.integers(-300, 300).map(lambda k: k / 100)  # with unique=True: no two entries within 0.01 (max without ties)
SMALL_INTEGERS = st.integers(0, 2).map(float)  # exact zeros and exact ties: the kinks
SATURATING = st.one_of(small_floats, st.floats(-800.0, -350.0), st.floats(350.0, 800.0))  # flat tanh, sigmoid: exp(2x) overflows
LOGITS = st.one_of(small_floats.map(lambda x: x + 1000), small_floats, st.floats(-1010.0, 1010.0))  # exp overflows past 709 unless shifted
UNIT = st.floats(0.0, 1.0)  # probabilities as targets


@dataclass(frozen=True)
class Domain:
    elements: st.SearchStrategy = small_floats
    unique: bool = False


ANY, DISTINCT = Domain(), Domain(GRID, unique=True)

# ---- input shapes: a strategy of a tuple of shapes, one per operand ------------------------

ONE = hnp.array_shapes(min_dims=0, max_dims=3, min_side=1, max_side=MAX_SIDE).map(lambda s: (s,))
AXES_TO_REDUCE = hnp.array_shapes(min_dims=1, max_dims=3, min_side=2, max_side=MAX_SIDE).map(lambda s: (s,))  # axes told apart
ONE_AXIS_AT_LEAST = hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=MAX_SIDE).map(lambda s: (s,))
SAME_TWO = ONE.map(lambda s: s * 2)
BROADCAST_TWO = broadcast_pairs(max_dims=3)
MATMUL = hnp.mutually_broadcastable_shapes(signature=np.matmul.signature, max_dims=2, max_side=MAX_SIDE).map(lambda b: b.input_shapes)
LOGITS_BY_CLASS = st.tuples(st.integers(1, 4), st.integers(2, 4)).map(lambda s: (s,))

# ---- parameters drawn per example, given the shapes -----------------------------------------


def no_params(shapes):
    return st.just({})


def axis_and_keepdims(shapes):
    """Any axis choice, sampled uniformly: None, each axis (both signs), each group of axes (both orders)."""
    ndim = len(shapes[0])
    groups = [order for r in range(2, ndim + 1) for c in itertools.combinations(range(ndim), r) for order in (c, c[::-1])]
    axes = [None, *range(-ndim, ndim), *groups]
    return st.sampled_from([{"axis": axis, "keepdims": keep} for axis in axes for keep in (False, True)])


def softmax_axis(shapes):
    """The default axis (left out of the call, so a changed default is seen) or an explicit one."""
    ndim = len(shapes[0])
    return st.one_of(st.just({}), st.sampled_from([{"axis": a} for a in range(-ndim, ndim)]))


def exponents(*ps):
    return lambda shapes: st.sampled_from(ps).map(lambda p: {"p": p})


def row_indices(shapes):
    """Integer indices into the first axis, repeats included (each repeat adds its own share)."""
    return st.lists(st.integers(0, shapes[0][0] - 1), min_size=1, max_size=5).map(lambda i: {"index": np.array(i)})


def permutations(shapes):
    return st.one_of(st.just({"axes": None}), st.permutations(range(len(shapes[0]))).map(lambda p: {"axes": tuple(p)}))


def class_targets(shapes):
    n, c = shapes[0]
    return st.lists(st.integers(0, c - 1), min_size=n, max_size=n).map(lambda t: {"targets": np.array(t)})


# ---- NumPy references -----------------------------------------------------------------------


def np_log_softmax(x, axis=-1):
    shifted = x - x.max(axis=axis, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=axis, keepdims=True))


def np_sigmoid(x):
    return np.exp(-np.logaddexp(0.0, -x))


def np_reduce(name):
    return lambda x, axis, keepdims: getattr(np, name)(x, axis=axis, keepdims=keepdims)


def np_cross_entropy(x, targets):
    return -np_log_softmax(x)[np.arange(len(targets)), targets].mean()


def np_bce_with_logits(x, y):
    return ((1 - y) * x + np.logaddexp(0.0, -x)).mean()


# ---- kinks: where the derivative does not exist, and what minigrad returns there ------------


@dataclass(frozen=True)
class Kink:
    """`elements` hit the kink often; `convention(arrays, params, upstream)` is the gradient
    minigrad gives the first operand there. `torch_cases` (case id in minigrad/reference/engine.json
    -> the row's params for it) hold PyTorch's numbers at such points, so the convention is
    torch's, checked, not a choice of ours; `present(x, params)` says a case really hits the kink."""

    why: str
    elements: st.SearchStrategy
    convention: object
    torch_cases: dict
    present: object
    params: object = no_params
    smooth: Domain = ANY  # where the gradient property draws instead, away from the kink


def relu_convention(arrays, params, upstream):
    return upstream * (arrays[0] > 0)


def max_convention(arrays, params, upstream):
    x, axis = arrays[0], params["axis"]
    m = x.max(axis=axis, keepdims=True)
    up = upstream if params["keepdims"] else np.expand_dims(upstream, tuple(range(x.ndim)) if axis is None else axis)
    winners = x == m
    return winners * up / winners.sum(axis=axis, keepdims=True)


def power_convention(arrays, params, upstream):
    x, p = arrays[0], params["p"]
    return upstream * (p * x ** (p - 1) if p else np.zeros_like(x))


RELU_AT_ZERO = Kink("relu'(0) = 0: zero is not positive", SMALL_INTEGERS.map(lambda v: v - 1), relu_convention,
                    {"relu:4x3:init=ties": {}, "Value:relu_zero": {}}, lambda x, params: (x == 0).any(),
                    smooth=Domain(AWAY_FROM_ZERO))
MAX_TIES = Kink("tied maxima share the gradient equally (torch.amax)", SMALL_INTEGERS, max_convention,
                {"max:4x6:axis=1,init=ties": {"axis": 1, "keepdims": False},
                 "max:4x6:axis=None,init=ties": {"axis": None, "keepdims": False}},
                lambda x, params: ((x == x.max(axis=params["axis"], keepdims=True)).sum(axis=params["axis"]) > 1).any(),
                axis_and_keepdims, smooth=DISTINCT)
POWER_ZERO_AT_ZERO = Kink("d(x**0)/dx = 0 at x = 0 too, not 0 * 0**-1 = nan", SMALL_INTEGERS, power_convention,
                          {"pow:4x3:p=0,init=ties": {"p": 0}, "Value:pow0_at_zero": {"p": 0}},
                          lambda x, params: (x == 0).any(), exponents(0), smooth=Domain(NONZERO))

# ---- the table ------------------------------------------------------------------------------


def functional(name):
    """minigrad.functional's `name`, looked up at call time (the broken copy inside `applied`)."""
    return lambda *xs, **kw: getattr(importlib.import_module("minigrad.functional"), name)(*xs, **kw)


BOTH, TENSOR = ("Value", "Tensor"), ("Tensor",)


@dataclass(frozen=True)
class Op:
    name: str
    call: object  # call(*operands, **params) on Values or Tensors
    reference: object  # reference(*arrays, **params), NumPy float64
    on: tuple = TENSOR
    shapes: st.SearchStrategy = ONE  # Tensor operands' shapes (Values are scalars)
    domains: tuple = (ANY,)  # one per operand (the last is repeated)
    params: object = no_params
    broadcasts: bool = None  # binary rows: True if operands broadcast (then `shapes` draws broadcasting pairs),
    # False if different shapes must be refused; None where it does not apply
    constants: tuple = ()  # operand positions that may be a plain number / ndarray instead
    fd_domains: tuple = None  # where the gradient property draws instead, if not `domains`
    kink: Kink = None
    breaks: dict = None  # catalogue breaks whose bug lives in this op: slug -> the property that catches it

    def domain(self, i):
        return self.domains[min(i, len(self.domains) - 1)]

    def gradient_domain(self, i):
        """Finite differences need a smooth neighbourhood (away from the kink) and outputs small
        enough that rounding the loss stays far below the tolerance."""
        if self.kink and i == 0:
            return self.kink.smooth
        domains = self.fd_domains or self.domains
        return domains[min(i, len(domains) - 1)]


OPS = [
    Op("add", lambda a, b: a + b, np.add, BOTH, BROADCAST_TWO, broadcasts=True, constants=(0, 1),
       breaks={"overwrite-grad": "aliased", "no-reflected-add": "constant", "skip-unbroadcast": "gradient",
               "unbroadcast-forgets-size-1-axes": "gradient"}),
    Op("sub", lambda a, b: a - b, np.subtract, BOTH, BROADCAST_TWO, broadcasts=True, constants=(0, 1),
       breaks={"sub-backward-sign-flipped": "gradient"}),
    Op("mul", lambda a, b: a * b, np.multiply, BOTH, BROADCAST_TWO, broadcasts=True, constants=(0, 1)),
    Op("div", lambda a, b: a / b, np.divide, BOTH, BROADCAST_TWO, (ANY, Domain(NONZERO)), broadcasts=True, constants=(0, 1)),
    Op("neg", lambda a: -a, np.negative, BOTH),
    Op("pow_integer_exponent", lambda a, p: a**p, lambda x, p: x**p, BOTH, domains=(Domain(NONZERO),),
       params=exponents(-2, -1, 0, 1, 2, 3), kink=POWER_ZERO_AT_ZERO, breaks={"pow-exponent-off-by-one": "gradient"}),
    Op("pow_real_exponent", lambda a, p: a**p, lambda x, p: x**p, BOTH, domains=(Domain(POSITIVE),),
       params=exponents(0.5, -0.5, 1.5, 2.5)),
    Op("pow_value_exponent", lambda a, b: a**b, np.power, ("Value",), SAME_TWO, (Domain(POSITIVE), ANY),
       constants=(0, 1), breaks={"value-exponent-gets-no-gradient": "gradient"}),
    Op("exp", lambda a: a.exp(), np.exp, BOTH, breaks={"exp-never-joins-the-graph": "gradient"}),
    Op("log", lambda a: a.log(), np.log, BOTH, domains=(Domain(POSITIVE),)),
    Op("tanh", lambda a: a.tanh(), np.tanh, BOTH, domains=(Domain(SATURATING),),
       breaks={"tanh-grad-from-input": "gradient", "tanh-from-exp": "forward"}),
    Op("relu", lambda a: a.relu(), lambda x: np.maximum(x, 0.0), BOTH, kink=RELU_AT_ZERO,
       breaks={"relu-gated-on-upstream": "gradient", "relu-in-place": "forward"}),
    Op("sigmoid", lambda a: a.sigmoid(), np_sigmoid, BOTH, domains=(Domain(SATURATING),)),
    Op("matmul", lambda a, b: a @ b, np.matmul, TENSOR, MATMUL, constants=(0, 1),
       breaks={"matmul-without-transpose": "gradient"}),
    Op("sum", lambda a, axis, keepdims: a.sum(axis=axis, keepdims=keepdims), np_reduce("sum"), shapes=AXES_TO_REDUCE,
       params=axis_and_keepdims, breaks={"sum-forgets-reduced-axis": "gradient"}),
    Op("mean", lambda a, axis, keepdims: a.mean(axis=axis, keepdims=keepdims), np_reduce("mean"), shapes=AXES_TO_REDUCE,
       params=axis_and_keepdims, breaks={"mean-forgets-n": "gradient"}),
    Op("max", lambda a, axis, keepdims: a.max(axis=axis, keepdims=keepdims), np_reduce("max"), shapes=AXES_TO_REDUCE,
       params=axis_and_keepdims, kink=MAX_TIES),
    Op("reshape", lambda a: a.reshape(a.shape[::-1]), lambda x: x.reshape(x.shape[::-1])),
    Op("transpose", lambda a, axes: a.T if axes is None else a.transpose(*axes), lambda x, axes: x.transpose(axes),
       params=permutations),
    Op("getitem", lambda a, index: a[index], lambda x, index: x[index], shapes=ONE_AXIS_AT_LEAST, params=row_indices,
       breaks={"getitem-loses-repeated-indices": "gradient"}),
    Op("log_softmax", functional("log_softmax"), np_log_softmax, shapes=ONE_AXIS_AT_LEAST, domains=(Domain(LOGITS),),
       fd_domains=(ANY,), params=softmax_axis,
       breaks={"log-softmax-without-max": "forward", "log-softmax-sum-drops-keepdims": "forward"}),
    Op("softmax", functional("softmax"), lambda x, axis=-1: np.exp(np_log_softmax(x, axis)), shapes=ONE_AXIS_AT_LEAST,
       domains=(Domain(LOGITS),), fd_domains=(ANY,), params=softmax_axis, breaks={"softmax-over-the-batch": "forward"}),
    Op("cross_entropy", functional("cross_entropy"), np_cross_entropy, shapes=LOGITS_BY_CLASS, domains=(Domain(LOGITS),),
       fd_domains=(ANY,), params=class_targets, breaks={"softmax-before-cross-entropy": "forward"}),
    Op("mse_loss", functional("mse_loss"), lambda x, y: ((x - y) ** 2).mean(), shapes=SAME_TWO, broadcasts=False,
       constants=(1,), breaks={"mse-loss-broadcasts": "refuses_broadcasting"}),
    Op("binary_cross_entropy_with_logits", functional("binary_cross_entropy_with_logits"), np_bce_with_logits,
       shapes=SAME_TWO, domains=(Domain(LOGITS), Domain(UNIT)), fd_domains=(ANY, Domain(UNIT)), broadcasts=False,
       constants=(1,), breaks={"bce-log-of-sigmoid": "forward"}),
]
OPS_BY_NAME = {op.name: op for op in OPS}
