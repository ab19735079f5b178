"""PyTorch's numbers for the losses added with issue 11 (breaks-a):

- minigrad/torch_reference_losses.json: the cases of the `loss-reference`
  diagnostic (minigrad/loss_checks.py), which the matrix and the browser run;
- tests/data/torch_reference_breaks_a.json: more cases of
  binary_cross_entropy_with_logits and softmax, for tests/test_torch_parity_breaks_a.py.

Run with a Python that has torch (not the uv environment, on purpose):
    pip install torch==2.13.0 numpy && python3 scripts/make_torch_reference_breaks_a.py
"""

import json
import sys
from pathlib import Path

import numpy as np
import torch

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from minigrad import diagnostic_cases as loss_checks  # noqa: E402 (LOSS_CASES and their targets)
from minigrad.diagnostic_cases import _weight_array  # noqa: E402

F = torch.nn.functional
TORCH_LOSSES = {  # the twins of loss_checks.LOSS_CASES
    "softmax (3, 4)": lambda x: torch.softmax(x, dim=-1),
    "mse_loss (4, 1)": lambda x: F.mse_loss(x, torch.tensor(loss_checks.MSE_TARGET)),
    "binary_cross_entropy_with_logits, logits up to ±40 (6,)": lambda x: F.binary_cross_entropy_with_logits(
        x, torch.tensor(loss_checks.BCE_TARGETS)),
}


def _rng(seed, shape, scale=1.0):
    return np.random.default_rng(seed).normal(size=shape) * scale


# Parity cases: (kind, inputs); targets of a BCE case may be soft (between 0 and 1).
PARITY = {
    "bce logits (5,), hard targets": ("bce", _rng(0, (5,)), (np.arange(5) % 2).astype(float)),
    "bce logits (4, 3) x 30, soft targets": ("bce", _rng(1, (4, 3), 30.0), np.random.default_rng(2).uniform(size=(4, 3))),
    "bce logits of +-1000 (4,)": ("bce", np.array([1000.0, -1000.0, 1000.0, -1000.0]), np.array([0.0, 1.0, 1.0, 0.0])),
    "softmax (2, 3, 4) last axis": ("softmax", _rng(3, (2, 3, 4)), None),
}


def _run(f, x):
    leaf = torch.tensor(x, requires_grad=True)
    out = f(leaf)
    (out * torch.tensor(_weight_array(tuple(out.shape)))).sum().backward()
    return out.detach().numpy().tolist(), leaf.grad.numpy().tolist()


def compute():
    torch.set_default_dtype(torch.float64)
    diagnostic = {}
    for name, (x, _) in loss_checks.LOSS_CASES.items():
        output, grad = _run(TORCH_LOSSES[name], x)
        diagnostic[name] = {"inputs": [x.tolist()], "output": output, "grads": [grad]}
    parity = {}
    for name, (kind, x, y) in PARITY.items():
        f = (lambda t: F.binary_cross_entropy_with_logits(t, torch.tensor(y))) if kind == "bce" else (lambda t: torch.softmax(t, dim=-1))
        output, grad = _run(f, x)
        parity[name] = {"kind": kind, "input": x.tolist(), "target": None if y is None else y.tolist(), "output": output, "grad": grad}
    return diagnostic, parity


if __name__ == "__main__":
    diagnostic, parity = compute()
    (ROOT / "minigrad" / "torch_reference_losses.json").write_text(json.dumps(diagnostic, indent=1, ensure_ascii=False) + "\n")
    (ROOT / "tests" / "data" / "torch_reference_breaks_a.json").write_text(json.dumps(parity, indent=1) + "\n")
    print(f"torch {torch.__version__}: {len(diagnostic)} diagnostic cases, {len(parity)} parity cases")
