"""Layers as classes with forward(), torch's way; no Sequential, no functional module."""

import numpy as np

from .core import Tensor


class Module:
    def __call__(self, *args):
        return self.forward(*args)

    def parameters(self):
        found = []
        for value in vars(self).values():
            for item in value if isinstance(value, (list, tuple)) else [value]:
                if isinstance(item, Tensor) and item.require_grad:
                    found.append(item)
                elif isinstance(item, Module):
                    found.extend(item.parameters())
        return found


class Linear(Module):
    def __init__(self, n_in, n_out):
        bound = 1 / np.sqrt(n_in)
        self.weight = Tensor(np.random.uniform(-bound, bound, (n_in, n_out)), require_grad=True)
        self.bias = Tensor(np.random.uniform(-bound, bound, (n_out,)), require_grad=True)

    def forward(self, x):
        return x @ self.weight + self.bias


class ReLU(Module):
    def forward(self, x):
        return x.relu()


class CrossEntropyLoss(Module):
    """Mean negative log-likelihood of integer targets; stable: the row's max is subtracted first."""

    def forward(self, logits, targets):
        targets = np.asarray(targets)
        shift = Tensor(logits.data().max(axis=1, keepdims=True))
        z = logits - shift
        log_sum = z.exp().sum(dim=1, keepdim=True).log()
        log_p = z - log_sum
        pick = np.zeros(logits.shape)
        pick[np.arange(len(targets)), targets] = -1.0 / len(targets)
        return (log_p * Tensor(pick)).sum().sum()
