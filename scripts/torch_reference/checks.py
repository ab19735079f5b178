"""PyTorch's numbers for every case of the checks that compare with torch
(`torch-reference`, `loss-reference`): minigrad/reference/checks.json, read by
the matrix, the doctor and the browser alike (it ships with minigrad).
tests/test_check_reference.py compares the committed file with a fresh run
when torch is importable there.
"""

import json

import numpy as np
import torch

from minigrad.checks import cases
from minigrad.checks.engine import weight_array
from minigrad.checks.reference import REFERENCE
from scripts.torch_reference import differences

OUT = REFERENCE

F = torch.nn.functional


class TorchOps:
    """What a case asks of the engine (`m`), answered by torch."""

    @staticmethod
    def const(value, like):
        return torch.full(like.shape, value)

    @staticmethod
    def matmul(a, b):
        return a @ b

    @staticmethod
    def reduce(t, op, axis=None, keepdims=False):
        dim = axis if axis is not None else tuple(range(t.ndim))
        return {"sum": torch.sum, "mean": torch.mean, "max": torch.amax}[op](t, dim=dim, keepdim=keepdims)


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


TORCH_MODULES = {  # the twins of cases.MODULE_CASES
    "layernorm (3, 4)": _layer_norm,
    "batchnorm1d train (5, 3), a constant feature": lambda x: torch.nn.BatchNorm1d(3)(x),
    "batchnorm1d eval after two batches (5, 3)": _batch_norm_eval,
    "log_softmax of logits near 1000 (2, 3)": lambda x: torch.log_softmax(x, dim=-1),
    "cross_entropy (4, 3)": lambda x: F.cross_entropy(x, torch.tensor([0, 2, 1, 2])),
}
TORCH_LOSSES = {  # the twins of cases.LOSS_CASES
    "softmax (3, 4)": lambda x: torch.softmax(x, dim=-1),
    "mse_loss (4, 1)": lambda x: F.mse_loss(x, torch.tensor(cases.MSE_TARGET)),
    cases.BCE_CASE: lambda x: F.binary_cross_entropy_with_logits(x, torch.tensor(cases.BCE_TARGETS)),
}


def _weighted(f, inputs):
    leaves = [torch.tensor(x, requires_grad=True) for x in inputs]
    out = f(*leaves)
    (out * torch.tensor(weight_array(tuple(out.shape)))).sum().backward()
    output = out.detach().numpy().tolist()
    return {"inputs": [np.asarray(x).tolist() for x in inputs], "output": output,
            "grads": [leaf.grad.numpy().tolist() for leaf in leaves]}


def compute():
    torch.set_default_dtype(torch.float64)
    reference = {}
    for name, (shapes, f, _) in cases.TENSOR_CASES.items():
        reference[name] = _weighted(lambda *xs, f=f: f(TorchOps, *xs), cases.random_inputs(shapes))
    for name in cases.MODULE_CASES:
        reference[name] = _weighted(TORCH_MODULES[name], [cases.module_input(name)])
    for name, (x, _, _) in cases.LOSS_CASES.items():
        reference[name] = _weighted(TORCH_LOSSES[name], [x])
    for name, (f, _) in cases.SCALAR_CASES.items():
        leaves = [torch.tensor(x, requires_grad=True) for x in (2.0, 3.0, 4.0)]
        f(*leaves).backward()
        # torch leaves None on an input the graph never uses; the checks take None or 0 there
        reference[name] = {"inputs": [2.0, 3.0, 4.0], "grads": [0.0 if v.grad is None else v.grad.item() for v in leaves]}
    return reference


def dumps(reference):
    return json.dumps(reference, indent=1, ensure_ascii=False) + "\n"


def stale(committed_text, reference):
    return differences(json.loads(committed_text), json.loads(dumps(reference)))
