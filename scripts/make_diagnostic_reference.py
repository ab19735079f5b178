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


def _layer_norm(x):
    ln = torch.nn.LayerNorm(4, eps=1e-5)
    with torch.no_grad():
        ln.weight[:] = torch.tensor(1 + 0.1 * np.arange(4))
        ln.bias[:] = torch.tensor(0.1 * np.arange(4))
    return ln(x)


def _batch_norm_eval(x):
    bn = torch.nn.BatchNorm1d(3)
    bn(x.detach()[:3] * 2 + 1)
    bn(x.detach()[2:] - 1)
    return bn.eval()(x)


TORCH_MODULES = {  # the twins of diagnostics.MODULE_CASES
    "layernorm (3, 4)": _layer_norm,
    "batchnorm1d train (5, 3), a constant feature": lambda x: torch.nn.BatchNorm1d(3)(x),
    "batchnorm1d eval after two batches (5, 3)": _batch_norm_eval,
    "log_softmax of logits near 1000 (2, 3)": lambda x: torch.log_softmax(x, dim=-1),
    "cross_entropy (4, 3)": lambda x: torch.nn.functional.cross_entropy(x, torch.tensor([0, 2, 1, 2])),
}


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
    for name in diagnostics.MODULE_CASES:
        x = diagnostics._module_input(name)
        leaf = torch.tensor(x, requires_grad=True)
        out = TORCH_MODULES[name](leaf)
        weight = torch.tensor(diagnostics._weights(tuple(out.shape)).data)
        (out * weight).sum().backward()
        reference[name] = {"inputs": [x.tolist()], "output": out.detach().numpy().tolist(), "grads": [leaf.grad.numpy().tolist()]}
    for name, f in diagnostics.SCALAR_CASES.items():
        leaves = [torch.tensor(x, requires_grad=True) for x in (2.0, 3.0, 4.0)]
        f(*leaves).backward()
        reference[name] = {"inputs": [2.0, 3.0, 4.0], "grads": [0.0 if leaf.grad is None else leaf.grad.item() for leaf in leaves]}  # torch: None when unused; minigrad: 0.0
    return reference


if __name__ == "__main__":
    diagnostics.REFERENCE.write_text(json.dumps(compute(), indent=1) + "\n")
    print(f"wrote {diagnostics.REFERENCE.relative_to(ROOT)}")
