"""Layers with a `forward`; a Module's parameters are the Tensors that require
grad found in its attributes, its submodules' and in lists of them. Linear
keeps `weight` as (in_features, out_features), so a layer is `x @ weight + bias`;
LayerNorm calls its parameters `scale` and `shift`. No BatchNorm1d yet."""

import numpy as np

from .tensor import Tensor

rng = np.random.default_rng(42)


class Module:
    training = True

    def __call__(self, x):
        return self.forward(x)

    def submodules(self):
        for value in vars(self).values():
            if isinstance(value, Module):
                yield value
            elif isinstance(value, list):
                yield from (v for v in value if isinstance(v, Module))

    def parameters(self):
        for value in vars(self).values():
            if isinstance(value, Tensor) and value.requires_grad:
                yield value
        for module in self.submodules():
            yield from module.parameters()

    def zero_grad(self):
        for p in self.parameters():
            p.grad = None

    def train(self, mode=True):
        self.training = mode
        for module in self.submodules():
            module.train(mode)
        return self

    def eval(self):
        return self.train(False)


class Linear(Module):
    def __init__(self, in_features, out_features):
        std = np.sqrt(2.0 / in_features)  # He initialisation
        self.weight = Tensor(rng.normal(0.0, std, (in_features, out_features)), requires_grad=True)
        self.bias = Tensor(np.zeros(out_features), requires_grad=True)

    def forward(self, x):
        return x @ self.weight + self.bias


class ReLU(Module):
    def forward(self, x):
        return x.relu()


class Tanh(Module):
    def forward(self, x):
        return x.tanh()


class Dropout(Module):
    def __init__(self, p=0.5):
        self.p = p

    def forward(self, x):
        if not self.training or self.p == 0:
            return x
        mask = (rng.random(x.shape) >= self.p) / (1 - self.p)
        return x * mask


class Sequential(Module):
    def __init__(self, *layers):
        self.layers = list(layers)

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


class LayerNorm(Module):
    def __init__(self, dim, eps=1e-5):
        self.eps = eps
        self.scale = Tensor(np.ones(dim), requires_grad=True)
        self.shift = Tensor(np.zeros(dim), requires_grad=True)

    def forward(self, x):
        mean = x.mean(axis=-1, keepdims=True)
        centered = x - mean
        var = (centered * centered).mean(axis=-1, keepdims=True)
        return centered / (var + self.eps) ** 0.5 * self.scale + self.shift


def clip_grad_norm_(params, max_norm):
    grads = [p.grad for p in params if p.grad is not None]
    norm = float(np.sqrt(sum((g * g).sum() for g in grads)))
    if norm > max_norm:
        for g in grads:
            g *= max_norm / (norm + 1e-6)
    return norm
