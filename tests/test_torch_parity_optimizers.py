"""clip_grad_norm_, Adam's weight_decay and AdamW against PyTorch's numbers.

minigrad/reference/optimizers.json is written by
scripts/make_torch_reference.py (run it with a Python that has torch);
torch is not a dependency of this project, so the numbers are committed data.
Dropout has no torch numbers to compare (torch's mask comes from torch's own
generator): its contract is tested in tests/test_nn.py.
"""

import json

import numpy as np
import pytest

from minigrad import Tensor, nn, optim
from scripts.torch_reference import optimizers

DATA = json.loads(optimizers.OUT.read_text())
RTOL, ATOL = 1e-12, 1e-14  # same float64 formulas; tests/test_torch_parity.py explains the margin


@pytest.mark.parametrize("name", list(DATA["clip"]))
def test_clip_grad_norm_matches_torch(name):
    case = DATA["clip"][name]
    params = [Tensor(np.zeros(np.shape(g)), requires_grad=True) for g in case["grads"]]
    for p, g in zip(params, case["grads"]):
        p.grad = np.array(g)
    total = nn.clip_grad_norm_(params, case["max_norm"])
    assert total == pytest.approx(case["total_norm"], rel=RTOL)
    for p, expected in zip(params, case["clipped"]):
        np.testing.assert_allclose(p.grad, expected, rtol=RTOL, atol=ATOL)


def test_clip_grad_norm_skips_parameters_without_a_gradient():
    a, b = Tensor(np.zeros(2), requires_grad=True), Tensor(np.zeros(2), requires_grad=True)
    a.grad = np.array([3.0, 4.0])
    assert nn.clip_grad_norm_([a, b], 1.0) == 5.0
    assert b.grad is None and np.allclose(a.grad, [0.6, 0.8])


@pytest.mark.parametrize("name", list(DATA["optimizers"]))
def test_optimizer_with_weight_decay_matches_torch(name):
    case = DATA["optimizers"][name]
    params = [Tensor(np.array(x), requires_grad=True) for x in case["start"]]
    opt = getattr(optim, case["optimizer"])(params, **case["kwargs"])
    for step in case["grads"]:
        for p, g in zip(params, step):
            p.grad = np.array(g)
        opt.step()
    for p, expected in zip(params, case["final"]):
        np.testing.assert_allclose(p.data, expected, rtol=RTOL, atol=ATOL)
