"""binary_cross_entropy_with_logits and softmax against PyTorch (issue 11, breaks-a).

torch's numbers are committed in tests/data/torch_reference_breaks_a.json by
scripts/make_torch_reference_breaks_a.py (torch is not in the uv environment).
"""

import json
from pathlib import Path

import numpy as np
import pytest

from minigrad import functional as F
from minigrad.checks.engine import weight_array
from minigrad.tensor import Tensor
from module_at import module_at

ROOT = Path(__file__).resolve().parents[1]
PARITY = json.loads((ROOT / "tests" / "data" / "torch_reference_breaks_a.json").read_text())


def _run(case):
    x = Tensor(np.array(case["input"]), requires_grad=True)
    if case["kind"] == "bce":
        out = F.binary_cross_entropy_with_logits(x, np.array(case["target"]))
    else:
        out = F.softmax(x)
    (out * Tensor(weight_array(out.shape))).sum().backward()
    return out.data, x.grad


@pytest.mark.parametrize("name", list(PARITY))
def test_matches_torch(name):
    case = PARITY[name]
    output, grad = _run(case)
    np.testing.assert_allclose(output, case["output"], rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(grad, case["grad"], rtol=1e-10, atol=1e-12)


def test_bce_with_logits_stays_finite_where_log_of_sigmoid_does_not():
    x = Tensor(np.array([1000.0, -1000.0]), requires_grad=True)
    loss = F.binary_cross_entropy_with_logits(x, np.array([0.0, 1.0]))
    loss.backward()
    assert loss.item() == 1000.0 and x.grad.tolist() == [0.5, -0.5]


def test_bce_with_logits_refuses_mismatched_shapes_as_torch_does():
    with pytest.raises(ValueError, match=r"target \(4,\) and logits \(4, 1\) differ in shape"):
        F.binary_cross_entropy_with_logits(Tensor(np.zeros((4, 1))), np.zeros(4))


try:
    import torch  # noqa: F401
except ImportError:
    torch = None


@pytest.mark.skipif(torch is None, reason="torch is not installed here (it is not a dependency): the committed data is checked above")
def test_committed_data_matches_a_fresh_torch_run():
    module = module_at(ROOT / "scripts" / "make_torch_reference_breaks_a.py", "make_ref_a")
    assert json.loads(json.dumps(module.compute())) == PARITY
