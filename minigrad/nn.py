"""Modules: parameters plus a forward pass, called as `m(x)` like PyTorch's."""

import math

import numpy as np

from .tensor import Tensor

DEFAULT_SEED = 0  # what a fresh interpreter starts with; doc blocks start from it too
_rng = np.random.default_rng(DEFAULT_SEED)


def manual_seed(seed):
    """Make every later initialisation reproducible (PyTorch: torch.manual_seed)."""
    global _rng
    _rng = np.random.default_rng(seed)


class Module:
    """Finds its parameters by walking its attributes, in the order they were set."""

    training = True

    def __call__(self, *args):
        return self.forward(*args)

    def forward(self, *args):
        raise NotImplementedError(f"{type(self).__name__} must define forward()")

    def children(self):
        for value in vars(self).values():
            if isinstance(value, Module):
                yield value
            elif isinstance(value, (list, tuple)):
                yield from (v for v in value if isinstance(v, Module))

    def parameters(self):
        for value in vars(self).values():
            if isinstance(value, Tensor) and value.requires_grad:
                yield value
        for child in self.children():
            yield from child.parameters()

    def zero_grad(self):
        for p in self.parameters():
            p.grad = None

    def train(self, mode=True):
        self.training = mode
        for child in self.children():
            child.train(mode)
        return self

    def eval(self):
        return self.train(False)


class Linear(Module):
    """y = x @ W.T + b, with W of shape (out, in) and PyTorch's uniform init."""

    def __init__(self, in_features, out_features, bias=True):
        bound = 1 / math.sqrt(in_features)
        self.weight = Tensor(_rng.uniform(-bound, bound, (out_features, in_features)), requires_grad=True)
        self.bias = Tensor(_rng.uniform(-bound, bound, out_features), requires_grad=True) if bias else None

    def forward(self, x):
        y = x @ self.weight.T
        return y + self.bias if self.bias is not None else y


class ReLU(Module):
    def forward(self, x):
        return x.relu()


class Tanh(Module):
    def forward(self, x):
        return x.tanh()


class Dropout(Module):
    """Inverted dropout, as torch.nn.Dropout: in training zero each element with
    probability p and scale the rest by 1/(1-p), so the expected output is the
    input; in eval, the identity. The mask comes from this module's rng."""

    def __init__(self, p=0.5):
        if not 0 <= p <= 1:
            raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
        self.p = p

    def forward(self, x):
        if not self.training or self.p == 0:
            return x
        keep = _rng.random(x.shape) >= self.p
        return x * Tensor(keep / (1 - self.p) if self.p < 1 else keep * 0.0)


def clip_grad_norm_(parameters, max_norm):
    """Scale every gradient by one factor so that their joint 2-norm is at most
    max_norm; return the norm before clipping (torch.nn.utils.clip_grad_norm_).
    One factor for all keeps the update's direction."""
    grads = [p.grad for p in parameters if p.grad is not None]
    total = float(np.sqrt(sum(np.sum(g**2) for g in grads)))
    scale = min(1.0, max_norm / (total + 1e-6))
    for g in grads:
        g *= scale
    return total


class Sequential(Module):
    def __init__(self, *layers):
        self.layers = list(layers)

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x

    def __getitem__(self, i):
        return self.layers[i]


class MLP(Sequential):
    """Linear layers of the given sizes with ReLU between them: MLP([2, 16, 2])."""

    def __init__(self, sizes, activation=ReLU):
        layers = []
        for i, (n_in, n_out) in enumerate(zip(sizes, sizes[1:])):
            layers.append(Linear(n_in, n_out))
            if i < len(sizes) - 2:
                layers.append(activation())
        super().__init__(*layers)


class LayerNorm(Module):
    """Normalise each sample over its last axes (biased variance), then scale and shift."""

    def __init__(self, normalized_shape, eps=1e-5):
        self.eps = eps
        shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
        self.axes = tuple(range(-len(shape), 0))  # the trailing axes that normalized_shape names
        self.weight = Tensor(np.ones(shape), requires_grad=True)
        self.bias = Tensor(np.zeros(shape), requires_grad=True)

    def forward(self, x):
        mean = x.mean(axis=self.axes, keepdims=True)
        var = ((x - mean) ** 2).mean(axis=self.axes, keepdims=True)
        x_hat = (x - mean) / (var + self.eps) ** 0.5
        return x_hat * self.weight + self.bias


class BatchNorm1d(Module):
    """Normalise each feature over the batch; keep running statistics for eval.

    Training uses the batch's biased variance; the running variance is updated
    with the unbiased one (momentum 0.1), both as in torch.nn.BatchNorm1d.
    """

    def __init__(self, num_features, eps=1e-5, momentum=0.1):
        self.eps, self.momentum = eps, momentum
        self.weight = Tensor(np.ones(num_features), requires_grad=True)
        self.bias = Tensor(np.zeros(num_features), requires_grad=True)
        self.running_mean = np.zeros(num_features)
        self.running_var = np.ones(num_features)

    def forward(self, x):
        if x.ndim != 2 or x.shape[1] != len(self.running_mean):
            raise ValueError(f"BatchNorm1d({len(self.running_mean)}) wants input (N, {len(self.running_mean)}), got {x.shape}")
        if self.training:
            n = x.shape[0]
            if n < 2:
                raise ValueError("BatchNorm1d in training mode needs more than one sample per batch")
            mean = x.mean(axis=0, keepdims=True)
            var = ((x - mean) ** 2).mean(axis=0, keepdims=True)
            m = self.momentum
            self.running_mean = (1 - m) * self.running_mean + m * mean.data[0]
            self.running_var = (1 - m) * self.running_var + m * var.data[0] * n / (n - 1)
        else:
            mean, var = Tensor(self.running_mean), Tensor(self.running_var)
        x_hat = (x - mean) / (var + self.eps) ** 0.5
        return x_hat * self.weight + self.bias


def get_rng_state():
    """The generator behind every initialisation, to put back later (PyTorch: torch.get_rng_state)."""
    return _rng.bit_generator.state


def set_rng_state(state):
    """Put back what get_rng_state returned (PyTorch: torch.set_rng_state)."""
    _rng.bit_generator.state = state
