"""Losses and softmax, from Tensor ops."""

import numpy as np

from .tensor import Tensor


def log_softmax(x, axis=-1):
    shifted = x - x.data.max(axis=axis, keepdims=True)
    return shifted - shifted.exp().sum(axis=axis, keepdims=True).log()


def softmax(x, axis=-1):
    return log_softmax(x, axis).exp()


def cross_entropy(logits, targets):
    rows = np.arange(logits.shape[0])
    return -log_softmax(logits, axis=1)[rows, np.asarray(targets).astype(int)].mean()


def mse_loss(pred, target):
    if pred.shape != np.shape(target):
        raise ValueError(f"mse_loss: prediction {pred.shape} vs target {np.shape(target)}")
    diff = pred - target
    return (diff * diff).mean()


def binary_cross_entropy_with_logits(logits, targets):
    """max(x, 0) - x*y + log(1 + e^-|x|), the masks constants (x >= 0 on the same side, also at 0)."""
    positive = logits.data >= 0
    abs_x = logits * np.where(positive, 1.0, -1.0)
    return (logits * positive - logits * targets + ((-abs_x).exp() + 1).log()).mean()
