"""binary_cross_entropy_with_logits and softmax against PyTorch: saturated logits,
soft targets, a 3-d softmax.

torch's numbers are committed in minigrad/reference/losses.json by
scripts/make_torch_reference.py (torch is not in the uv environment).
"""

import json

import numpy as np
import pytest

from minigrad import functional as F
from minigrad.checks.engine import weight_array
from minigrad.tensor import Tensor
from scripts.torch_reference import losses

PARITY = json.loads(losses.OUT.read_text())


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
