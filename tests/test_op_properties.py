"""Every property of tests/op_checks.py on every row of tests/op_table.py it applies to
(minitorch's way): a new op gets its property tests by adding one row to the table.

Derandomized, with a fixed number of examples and no deadline: CI cannot flake, and the file
runs in seconds. The mutation test proves the properties can fail: under each catalogue break
whose bug lives in a row's op, the property the row names fails, and passes on healthy minigrad
with the very same examples.
"""

import json

import numpy as np
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from minigrad import breaks
from op_checks import PROPERTIES, cases
from op_table import OPS
from scripts.torch_reference import engine as torch_engine

# Derandomized: the same examples on every run, so CI cannot flake and the mutation test replays
# exactly the examples the healthy run passed. No shrinking: those examples start small already,
# and a broken run stops at its first failure.
EXAMPLES = settings(derandomize=True, max_examples=15, deadline=None, database=None,
                    phases=[Phase.explicit, Phase.generate], suppress_health_check=[HealthCheck.too_slow])
TORCH = json.loads(torch_engine.OUT.read_text())["cases"]
ENGINE_FILES = {"minigrad/scalar.py", "minigrad/tensor.py", "minigrad/functional.py"}
NOT_OP_BUGS = {  # breaks in the engine's files whose bug is in no single op: backward()'s own machinery
    "topological-order-not-reversed": "the order backward() visits the graph in, shared by every op",
    "no-output-seed": "the seed backward() starts from, shared by every op",
    "recursive-backward": "how backward() walks the graph (a recursion limit, on deep graphs only)",
    "backward-keeps-old-intermediate-grads": "what a second backward() through the same graph starts from",
}


@EXAMPLES
@given(data=st.data())
def holds_on_every_example(name, op, kind, data):
    PROPERTIES[name][0](data.draw, op, kind)


@pytest.mark.parametrize("name, op, kind", [
    pytest.param(name, op, kind, id=f"{name}-{op.name}-{kind}") for name in PROPERTIES for op, kind in cases(name)])
def test_op_property(name, op, kind):
    holds_on_every_example(name, op, kind)


@pytest.mark.parametrize("op, case_id, params", [
    pytest.param(op, case_id, params, id=case_id) for op in OPS if op.kink for case_id, params in op.kink.torch_cases.items()])
def test_the_kink_convention_is_torchs(op, case_id, params):
    """The convention the kink property holds minigrad to reproduces PyTorch's committed gradient."""
    case, numbers = torch_engine.CASES_BY_ID[case_id], TORCH[case_id]
    tensor = case.kind == "tensor"
    assert ("Tensor" if tensor else "Value") in op.on and case.kwargs.items() <= params.items()
    x = np.asarray(numbers["inputs"]["x0" if tensor else "a"])
    assert op.kink.present(x, params), f"{case_id} never reaches the kink: it proves nothing"
    upstream = np.asarray(numbers["inputs"]["W"]) if tensor else 1.0
    expected = numbers["expected"]["grad.x0" if tensor else "grad.a"]
    np.testing.assert_allclose(op.kink.convention([x], params, upstream), expected, rtol=1e-12, atol=0)


@pytest.mark.parametrize("op, slug, name", [
    pytest.param(op, slug, name, id=slug) for op in OPS for slug, name in (op.breaks or {}).items()])
def test_the_table_catches_the_op_breaks(op, slug, name):
    """The property the row names fails under the break, on the examples test_op_property passes healthy."""
    kind = "Value" if breaks.get(slug).target == "minigrad/scalar.py" else "Tensor"
    assert (op, kind) in cases(name), f"{name} does not apply to {op.name} on {kind}"
    with breaks.applied(slug), np.errstate(all="ignore"):  # a broken op may overflow: that is expected
        with pytest.raises(Exception):  # an assertion, or the broken op raising: either way the property fails
            holds_on_every_example(name, op, kind)


def test_every_engine_break_is_claimed_by_a_row_or_said_to_be_no_op_bug():
    claimed = [slug for op in OPS for slug in (op.breaks or {})]
    in_engine = {b.slug for b in breaks.catalogue() if b.target in ENGINE_FILES}
    assert len(claimed) == len(set(claimed)), "a break is claimed by two rows"
    assert set(claimed) | set(NOT_OP_BUGS) == in_engine and not set(claimed) & set(NOT_OP_BUGS)
