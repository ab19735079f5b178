"""Write minigrad/torch_reference.json: PyTorch's numbers for the cases of the
`torch-reference` diagnostic (minigrad/diagnostics.py), the one the browser
and the breaks matrix run.

Run with a Python that has torch (not the uv environment, on purpose):
    pip install torch==2.13.0 numpy && python scripts/make_diagnostic_reference.py
tests/test_diagnostics.py checks the committed file against torch when torch
is importable there.
"""

import json
import sys
from pathlib import Path

import numpy as np
import torch

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from minigrad import diagnostics  # noqa: E402


class TorchLike(torch.Tensor):
    """torch with minigrad's `max(axis, keepdims)` (torch's max(dim) returns indices too)."""

    def max(self, axis=None, keepdims=False):
        return self.amax(dim=axis if axis is not None else tuple(range(self.ndim)), keepdim=keepdims)


def compute():
    torch.set_default_dtype(torch.float64)
    reference = {}
    for name, (shapes, f) in diagnostics.TENSOR_CASES.items():
        inputs = [np.random.default_rng(i).normal(size=s) for i, s in enumerate(shapes)]
        leaves = [torch.tensor(x, requires_grad=True) for x in inputs]
        out = f(*[leaf.as_subclass(TorchLike) for leaf in leaves])
        weight = torch.tensor(diagnostics._weights(tuple(out.shape)).data)
        (out * weight).sum().backward()
        reference[name] = {
            "inputs": [x.tolist() for x in inputs],
            "output": out.detach().as_subclass(torch.Tensor).numpy().tolist(),
            "grads": [leaf.grad.numpy().tolist() for leaf in leaves],
        }
    for name, f in diagnostics.SCALAR_CASES.items():
        leaves = [torch.tensor(x, requires_grad=True) for x in (2.0, 3.0, 4.0)]
        f(*leaves).backward()
        reference[name] = {"inputs": [2.0, 3.0, 4.0], "grads": [0.0 if leaf.grad is None else leaf.grad.item() for leaf in leaves]}  # torch: None when unused; minigrad: 0.0
    return reference


if __name__ == "__main__":
    diagnostics.REFERENCE.write_text(json.dumps(compute(), indent=1) + "\n")
    print(f"wrote {diagnostics.REFERENCE.relative_to(ROOT)}")
