"""Losses and softmax, written with Tensor ops only."""

import numpy as np

from .tensor import Tensor


def softmax(x, axis=-1):
    e = (x - x.data.max(axis=axis, keepdims=True)).exp()
    return e / e.sum(axis=axis, keepdims=True)


def log_softmax(x, axis=-1):
    shifted = x - x.data.max(axis=axis, keepdims=True)  # a constant: exp never overflows
    return shifted - shifted.exp().sum(axis=axis, keepdims=True).log()


def cross_entropy(logits, targets):
    targets = np.asarray(targets.data if isinstance(targets, Tensor) else targets).astype(int)
    logp = log_softmax(logits, axis=1)
    return -logp[np.arange(len(targets)), targets].mean()


def mse_loss(pred, target):
    target = target if isinstance(target, Tensor) else Tensor(target)
    if pred.shape != target.shape:
        raise ValueError(f"mse_loss: shapes {pred.shape} and {target.shape} differ")
    return ((pred - target) ** 2).mean()


def _log_sigmoid(z):
    """log(sigmoid(z)) = -log(1 + e^-z), shifted by the constant m = max(-z, 0)."""
    m = np.maximum(-z.data, 0)
    return -(np.exp(-m) + (-z - m).exp()).log() - m


def binary_cross_entropy_with_logits(logits, targets):
    targets = targets if isinstance(targets, Tensor) else Tensor(targets)
    return -(targets * _log_sigmoid(logits) + (1 - targets) * _log_sigmoid(-logits)).mean()
