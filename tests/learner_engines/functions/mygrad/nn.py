"""Modules the way torch.nn has them: a Module registers the Parameters and
submodules assigned to it in `__setattr__` (so a subclass must call
`super().__init__()` first), `parameters()` is a generator, a list of layers
is a ModuleList, and Linear keeps `weight` as (out_features, in_features)."""

import math

import numpy as np

from .tensor import Tensor

_rng = np.random.default_rng(0)


def manual_seed(seed):
    global _rng
    _rng = np.random.default_rng(seed)


class Parameter(Tensor):
    def __init__(self, data):
        super().__init__(data, requires_grad=True)


class Module:
    def __init__(self):
        object.__setattr__(self, "_parameters", {})
        object.__setattr__(self, "_modules", {})
        object.__setattr__(self, "training", True)

    def __setattr__(self, name, value):
        if isinstance(value, (Parameter, Module)) and "_modules" not in self.__dict__:
            raise AttributeError(f"cannot assign {name!r} before Module.__init__() call")
        if isinstance(value, Parameter):
            self._parameters[name] = value
        elif isinstance(value, Module):
            self._modules[name] = value
        object.__setattr__(self, name, value)

    def __call__(self, *args, **kwargs):
        return self.forward(*args, **kwargs)

    def children(self):
        yield from self._modules.values()

    def parameters(self):
        seen = set()
        for module in self.modules():
            for p in module._parameters.values():
                if id(p) not in seen:
                    seen.add(id(p))
                    yield p

    def modules(self):
        yield self
        for child in self.children():
            yield from child.modules()

    def zero_grad(self):
        for p in self.parameters():
            p.grad = None

    def train(self, mode=True):
        for module in self.modules():
            object.__setattr__(module, "training", mode)
        return self

    def eval(self):
        return self.train(False)


class ModuleList(Module):
    def __init__(self, modules=()):
        super().__init__()
        self._items = []
        for module in modules:
            self.append(module)

    def append(self, module):
        self._items.append(module)
        self._modules[str(len(self._items) - 1)] = module  # registered, as torch does
        return self

    def __iter__(self):
        return iter(self._items)

    def __len__(self):
        return len(self._items)

    def __getitem__(self, i):
        return self._items[i]


class Sequential(Module):
    def __init__(self, *layers):
        super().__init__()
        self.layers = ModuleList(layers)

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


class Linear(Module):
    def __init__(self, in_features, out_features, bias=True):
        super().__init__()
        k = 1 / math.sqrt(in_features)
        self.weight = Parameter(_rng.uniform(-k, k, (out_features, in_features)))
        self.bias = Parameter(_rng.uniform(-k, k, out_features)) if bias else None

    def forward(self, x):
        out = x @ self.weight.T
        return out + self.bias if self.bias is not None else out


class ReLU(Module):
    def forward(self, x):
        return x.relu()


class Tanh(Module):
    def forward(self, x):
        return x.tanh()


class Dropout(Module):
    def __init__(self, p=0.5, seed=None):
        super().__init__()
        self.p = p
        self.rng = np.random.default_rng(seed)  # each layer its own generator

    def forward(self, x):
        if not self.training or self.p == 0:
            return x
        keep = self.rng.random(x.shape) >= self.p
        return x * (keep / (1 - self.p) if self.p < 1 else np.zeros(x.shape))


class LayerNorm(Module):
    def __init__(self, normalized_shape, eps=1e-5):
        super().__init__()
        self.eps = eps
        self.weight = Parameter(np.ones(normalized_shape))
        self.bias = Parameter(np.zeros(normalized_shape))

    def forward(self, x):
        mu = x.mean(axis=-1, keepdims=True)
        var = ((x - mu) ** 2).mean(axis=-1, keepdims=True)
        return (x - mu) / (var + self.eps) ** 0.5 * self.weight + self.bias


class BatchNorm1d(Module):
    def __init__(self, num_features, eps=1e-5, momentum=0.1):
        super().__init__()
        self.eps, self.momentum = eps, momentum
        self.weight = Parameter(np.ones(num_features))
        self.bias = Parameter(np.zeros(num_features))
        self.running_mean = np.zeros(num_features)  # buffers: arrays, not parameters
        self.running_var = np.ones(num_features)

    def forward(self, x):
        if self.training:
            mu = x.mean(axis=0)
            var = ((x - mu) ** 2).mean(axis=0)
            n = x.shape[0]
            self.running_mean = (1 - self.momentum) * self.running_mean + self.momentum * mu.data
            self.running_var = (1 - self.momentum) * self.running_var + self.momentum * var.data * n / (n - 1)
        else:
            mu, var = Tensor(self.running_mean), Tensor(self.running_var)
        x_hat = (x - mu) / (var + self.eps) ** 0.5
        return x_hat * self.weight + self.bias


def clip_grad_norm_(parameters, max_norm):
    """torch.nn.utils.clip_grad_norm_: one factor for all gradients; returns the norm before."""
    grads = [p.grad for p in parameters if p.grad is not None]
    total_norm = float(np.sqrt(sum((g**2).sum() for g in grads)))
    clip_coef = max_norm / (total_norm + 1e-6)
    if clip_coef < 1:
        for g in grads:
            g *= clip_coef
    return total_norm
