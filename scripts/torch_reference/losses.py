"""More cases of binary_cross_entropy_with_logits and softmax against PyTorch
(saturated logits, soft targets, a 3-d softmax): minigrad/reference/losses.json,
read by tests/test_torch_parity_losses.py. The checks' own cases are checks.py's.
"""

import json

import numpy as np

from minigrad.checks.engine import weight_array
from scripts.torch_reference import HOME

OUT = HOME / "losses.json"


def _rng(seed, shape, scale=1.0):
    return np.random.default_rng(seed).normal(size=shape) * scale


# Parity cases: (kind, inputs); targets of a BCE case may be soft (between 0 and 1).
PARITY = {
    "bce logits (5,), hard targets": ("bce", _rng(0, (5,)), (np.arange(5) % 2).astype(float)),
    "bce logits (4, 3) x 30, soft targets": ("bce", _rng(1, (4, 3), 30.0), np.random.default_rng(2).uniform(size=(4, 3))),
    "bce logits of +-1000 (4,)": ("bce", np.array([1000.0, -1000.0, 1000.0, -1000.0]), np.array([0.0, 1.0, 1.0, 0.0])),
    "softmax (2, 3, 4) last axis": ("softmax", _rng(3, (2, 3, 4)), None),
}


def _run(torch, f, x):
    leaf = torch.tensor(x, requires_grad=True)
    out = f(leaf)
    (out * torch.tensor(weight_array(tuple(out.shape)))).sum().backward()
    return out.detach().numpy().tolist(), leaf.grad.numpy().tolist()


def compute():
    import torch  # here, so that the tests can read OUT and PARITY without torch

    F = torch.nn.functional
    torch.set_default_dtype(torch.float64)
    parity = {}
    for name, (kind, x, y) in PARITY.items():
        f = (lambda t: F.binary_cross_entropy_with_logits(t, torch.tensor(y))) if kind == "bce" else (lambda t: torch.softmax(t, dim=-1))
        output, grad = _run(torch, f, x)
        parity[name] = {"kind": kind, "input": x.tolist(), "target": None if y is None else y.tolist(), "output": output, "grad": grad}
    return parity


def dumps(parity):
    return json.dumps(parity, indent=1) + "\n"
