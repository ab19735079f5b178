"""Losses and normalised exponentials, composed from Tensor ops.

Nothing here has a hand-written backward: each function is a composition of
primitives whose gradients are already tested, so the chain rule does the rest.
"""

import numpy as np

from .tensor import Tensor, as_tensor


def log_softmax(x, axis=-1):
    """log(softmax(x)) without overflow: shift by the max first.

    The shift is a constant (no gradient flows through it): softmax does not
    change when a constant is subtracted, and exp() of the largest entry is 1.
    """
    shifted = x - Tensor(x.data.max(axis=axis, keepdims=True))
    return shifted - shifted.exp().sum(axis=axis, keepdims=True).log()


def softmax(x, axis=-1):
    return log_softmax(x, axis=axis).exp()


def cross_entropy(logits, targets):
    """Mean negative log-likelihood of integer class `targets` under `logits` (N, C)."""
    targets = np.asarray(targets.data if isinstance(targets, Tensor) else targets)
    if logits.ndim != 2 or targets.shape != (logits.shape[0],):
        raise ValueError(
            f"cross_entropy wants logits (N, C) and integer targets (N,), "
            f"got {logits.shape} and {targets.shape}"
        )
    if not np.issubdtype(targets.dtype, np.integer) and not np.all(targets == np.round(targets)):
        raise ValueError("cross_entropy targets must be integer class indices")
    picked = log_softmax(logits, axis=-1)[np.arange(len(targets)), targets.astype(np.intp)]
    return -picked.mean()


def mse_loss(prediction, target):
    """Mean of squared differences; shapes must match (no silent broadcasting)."""
    target = as_tensor(target)
    if prediction.shape != target.shape:
        raise ValueError(f"mse_loss: prediction {prediction.shape} and target {target.shape} differ in shape")
    return ((prediction - target) ** 2).mean()
