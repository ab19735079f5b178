"""PyTorch's numbers for more cases of binary_cross_entropy_with_logits and
softmax (tests/data/torch_reference_breaks_a.json, read by
tests/test_torch_parity_breaks_a.py). The checks' own cases are written by
scripts/make_check_reference.py.

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

from minigrad.checks.engine import weight_array  # noqa: E402

F = torch.nn.functional


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
    (out * torch.tensor(weight_array(tuple(out.shape)))).sum().backward()
    return out.detach().numpy().tolist(), leaf.grad.numpy().tolist()


def compute():
    torch.set_default_dtype(torch.float64)
    parity = {}
    for name, (kind, x, y) in PARITY.items():
        f = (lambda t: F.binary_cross_entropy_with_logits(t, torch.tensor(y))) if kind == "bce" else (lambda t: torch.softmax(t, dim=-1))
        output, grad = _run(f, x)
        parity[name] = {"kind": kind, "input": x.tolist(), "target": None if y is None else y.tolist(), "output": output, "grad": grad}
    return parity


if __name__ == "__main__":
    parity = compute()
    (ROOT / "tests" / "data" / "torch_reference_breaks_a.json").write_text(json.dumps(parity, indent=1) + "\n")
    print(f"torch {torch.__version__}: {len(parity)} parity cases")
