"""Layers, micrograd-style: every module is called directly (`__call__`, no
forward), weights are stored as W of shape (in, out) so that a layer is
`x @ W + b`, and initial values come from NumPy's global random functions."""

import numpy as np

from .tensor import Tensor


class Module:
    training = True

    def _children(self):
        """The modules stored on this one, also inside lists and tuples."""
        for value in self.__dict__.values():
            if isinstance(value, Module):
                yield value
            elif isinstance(value, (list, tuple)):
                yield from (v for v in value if isinstance(v, Module))

    def parameters(self):
        params = [v for v in self.__dict__.values() if isinstance(v, Tensor)]
        for child in self._children():
            params += child.parameters()
        return params

    def zero_grad(self):
        for p in self.parameters():
            p.grad = np.zeros_like(p.data)

    def train(self):
        self.training = True
        for child in self._children():
            child.train()

    def eval(self):
        self.training = False
        for child in self._children():
            child.eval()


class Linear(Module):
    def __init__(self, in_features, out_features):
        self.W = Tensor(np.random.randn(in_features, out_features) / np.sqrt(in_features))
        self.b = Tensor(np.zeros(out_features))

    def __call__(self, x):
        return x @ self.W + self.b


class ReLU(Module):
    def __call__(self, x):
        return x.relu()


class Tanh(Module):
    def __call__(self, x):
        return x.tanh()


class Dropout(Module):
    def __init__(self, p=0.5):
        self.p = p

    def __call__(self, x):
        if not self.training or self.p == 0:
            return x
        mask = (np.random.rand(*x.shape) >= self.p) / (1 - self.p)
        return x * mask


class Sequential(Module):
    def __init__(self, *layers):
        self.layers = list(layers)

    def __call__(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


class LayerNorm(Module):
    def __init__(self, dim, eps=1e-5):
        self.eps = eps
        self.gamma = Tensor(np.ones(dim))
        self.beta = Tensor(np.zeros(dim))

    def __call__(self, x):
        mean = x.mean(axis=-1, keepdims=True)
        var = ((x - mean) ** 2).mean(axis=-1, keepdims=True)
        x_hat = (x - mean) * (var + self.eps) ** -0.5
        return self.gamma * x_hat + self.beta


class BatchNorm1d(Module):
    def __init__(self, dim, eps=1e-5, momentum=0.1):
        self.eps = eps
        self.momentum = momentum
        self.gamma = Tensor(np.ones(dim))
        self.beta = Tensor(np.zeros(dim))
        self.running_mean = np.zeros(dim)  # plain arrays: not parameters
        self.running_var = np.ones(dim)

    def __call__(self, x):
        if self.training:
            n = x.shape[0]
            mean = x.mean(axis=0, keepdims=True)
            var = ((x - mean) ** 2).mean(axis=0, keepdims=True)
            m = self.momentum
            self.running_mean = (1 - m) * self.running_mean + m * mean.data[0]
            self.running_var = (1 - m) * self.running_var + m * var.data[0] * n / (n - 1)
        else:
            mean, var = self.running_mean, self.running_var
        x_hat = (x - mean) / (var + self.eps) ** 0.5
        return self.gamma * x_hat + self.beta


def clip_grad_norm_(params, max_norm):
    """Scale all gradients together so that their global 2-norm is at most max_norm."""
    params = list(params)
    total = np.sqrt(sum(np.sum(p.grad**2) for p in params))
    scale = min(1.0, max_norm / (total + 1e-6))
    for p in params:
        p.grad = p.grad * scale
    return float(total)
