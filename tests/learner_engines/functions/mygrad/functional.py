"""Losses. log_softmax is a Function of its own, with a hand-written backward;
the rest are compositions of Tensor ops."""

import numpy as np

from .tensor import Function, Tensor


class LogSoftmax(Function):
    @staticmethod
    def forward(ctx, x, axis=-1):
        shifted = x - x.max(axis=axis, keepdims=True)
        out = shifted - np.log(np.exp(shifted).sum(axis=axis, keepdims=True))
        ctx.save_for_backward(out)
        ctx.axis = axis
        return out

    @staticmethod
    def backward(ctx, g):
        (out,) = ctx.saved_tensors
        return (g - np.exp(out) * g.sum(axis=ctx.axis, keepdims=True),)


def log_softmax(x, axis=-1):
    return LogSoftmax.apply(x, axis=axis)


def softmax(x, axis=-1):
    return log_softmax(x, axis=axis).exp()


def cross_entropy(logits, targets):
    """Mean negative log-likelihood of integer targets, with a one-hot mask."""
    targets = np.asarray(targets.data if isinstance(targets, Tensor) else targets).astype(int)
    one_hot = np.eye(logits.shape[1])[targets]
    return -(log_softmax(logits, axis=1) * one_hot).sum() / len(targets)


def mse_loss(input, target):
    target = target if isinstance(target, Tensor) else Tensor(target)
    if input.shape != target.shape:
        raise ValueError(f"mse_loss: input {input.shape} and target {target.shape} must have the same shape")
    return ((input - target) ** 2).mean()


def binary_cross_entropy_with_logits(input, target):
    """mean((1 - y) x + softplus(-x)), softplus shifted by the constant m = max(-x, 0)."""
    target = target if isinstance(target, Tensor) else Tensor(target)
    m = np.maximum(-input.data, 0.0)
    softplus = m + (np.exp(-m) + (-input - m).exp()).log()
    return ((1 - target) * input + softplus).mean()
