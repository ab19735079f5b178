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


def binary_cross_entropy_with_logits(logits, targets):
    """Mean of -[y log σ(x) + (1 - y) log(1 - σ(x))], computed as (1 - y)·x + log(1 + e^-x).

    log(1 + e^-x) is shifted by m = max(-x, 0), a constant like log_softmax's max,
    so no exp overflows and no sigmoid rounds to 0 or 1 before its log; the
    gradient is σ(x) - y (over N) for every x, as torch's.
    """
    targets = as_tensor(targets)
    if logits.shape != targets.shape:
        raise ValueError(f"binary_cross_entropy_with_logits: target {targets.shape} and logits {logits.shape} differ in shape")
    shift = Tensor(np.maximum(-logits.data, 0.0))
    softplus_of_minus_x = shift + ((-shift).exp() + (-logits - shift).exp()).log()
    return ((1 - targets) * logits + softplus_of_minus_x).mean()
