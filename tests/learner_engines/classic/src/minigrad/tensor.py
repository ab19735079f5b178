"""Tensors, micrograd-style: each op makes `out` and a `_backward` closure
right below it. Every tensor has a gradient from birth (zeros, no
requires_grad), and gradients accumulate by rebinding: `self.grad = self.grad + g`."""

import numpy as np


def unbroadcast(grad, shape):
    """Sum a broadcast gradient back down to `shape`."""
    while grad.ndim > len(shape):
        grad = grad.sum(axis=0)
    for i, n in enumerate(shape):
        if n == 1 and grad.shape[i] != 1:
            grad = grad.sum(axis=i, keepdims=True)
    return grad


def _axes(axis, ndim):
    if axis is None:
        return tuple(range(ndim))
    axes = axis if isinstance(axis, tuple) else (axis,)
    return tuple(sorted(a % ndim for a in axes))


class Tensor:
    __array_priority__ = 100  # ndarray * Tensor calls Tensor.__rmul__

    def __init__(self, data, _children=(), _op=""):
        self.data = np.array(data, dtype=float)
        self.grad = np.zeros_like(self.data)
        self._backward = lambda: None
        self._prev = set(_children)
        self._op = _op

    @property
    def shape(self):
        return self.data.shape

    def __repr__(self):
        return f"Tensor({self.data}, grad={self.grad})"

    def __add__(self, other):
        other = other if isinstance(other, Tensor) else Tensor(other)
        out = Tensor(self.data + other.data, (self, other), "+")

        def _backward():
            self.grad = self.grad + unbroadcast(out.grad, self.shape)
            other.grad = other.grad + unbroadcast(out.grad, other.shape)

        out._backward = _backward
        return out

    def __mul__(self, other):
        other = other if isinstance(other, Tensor) else Tensor(other)
        out = Tensor(self.data * other.data, (self, other), "*")

        def _backward():
            self.grad = self.grad + unbroadcast(other.data * out.grad, self.shape)
            other.grad = other.grad + unbroadcast(self.data * out.grad, other.shape)

        out._backward = _backward
        return out

    def __pow__(self, other):
        assert isinstance(other, (int, float)), "only int/float powers for now"
        out = Tensor(self.data**other, (self,), f"**{other}")

        def _backward():
            self.grad = self.grad + other * self.data ** (other - 1) * out.grad

        out._backward = _backward
        return out

    def __matmul__(self, other):
        other = other if isinstance(other, Tensor) else Tensor(other)
        assert self.data.ndim == 2 and other.data.ndim == 2, "matmul of matrices only"
        out = Tensor(self.data @ other.data, (self, other), "@")

        def _backward():
            self.grad = self.grad + out.grad @ other.data.T
            other.grad = other.grad + self.data.T @ out.grad

        out._backward = _backward
        return out

    def exp(self):
        out = Tensor(np.exp(self.data), (self,), "exp")

        def _backward():
            self.grad = self.grad + out.data * out.grad

        out._backward = _backward
        return out

    def log(self):
        out = Tensor(np.log(self.data), (self,), "log")

        def _backward():
            self.grad = self.grad + out.grad / self.data

        out._backward = _backward
        return out

    def tanh(self):
        out = Tensor(np.tanh(self.data), (self,), "tanh")

        def _backward():
            self.grad = self.grad + (1 - out.data**2) * out.grad

        out._backward = _backward
        return out

    def relu(self):
        out = Tensor(np.maximum(self.data, 0), (self,), "relu")

        def _backward():
            self.grad = self.grad + (self.data > 0) * out.grad

        out._backward = _backward
        return out

    def sigmoid(self):
        e = np.exp(-np.abs(self.data))  # never overflows
        s = np.where(self.data >= 0, 1 / (1 + e), e / (1 + e))
        out = Tensor(s, (self,), "sigmoid")

        def _backward():
            self.grad = self.grad + s * (1 - s) * out.grad

        out._backward = _backward
        return out

    def sum(self, axis=None, keepdims=False):
        axes = _axes(axis, self.data.ndim)
        out = Tensor(self.data.sum(axis=axes, keepdims=keepdims), (self,), "sum")

        def _backward():
            g = out.grad if keepdims else np.expand_dims(out.grad, axes)
            self.grad = self.grad + np.broadcast_to(g, self.shape)

        out._backward = _backward
        return out

    def mean(self, axis=None, keepdims=False):
        axes = _axes(axis, self.data.ndim)
        n = 1
        for a in axes:
            n *= self.shape[a]
        out = Tensor(self.data.mean(axis=axes, keepdims=keepdims), (self,), "mean")

        def _backward():
            g = out.grad if keepdims else np.expand_dims(out.grad, axes)
            self.grad = self.grad + np.broadcast_to(g, self.shape) / n

        out._backward = _backward
        return out

    def max(self, axis=None, keepdims=False):
        axes = _axes(axis, self.data.ndim)
        m = self.data.max(axis=axes, keepdims=True)
        out = Tensor(m if keepdims else m.squeeze(axis=axes), (self,), "max")

        def _backward():
            g = out.grad if keepdims else np.expand_dims(out.grad, axes)
            hit = self.data == m  # ties share the gradient
            self.grad = self.grad + hit * g / hit.sum(axis=axes, keepdims=True)

        out._backward = _backward
        return out

    @property
    def T(self):
        out = Tensor(self.data.T, (self,), "T")

        def _backward():
            self.grad = self.grad + out.grad.T

        out._backward = _backward
        return out

    def reshape(self, *shape):
        out = Tensor(self.data.reshape(*shape), (self,), "reshape")

        def _backward():
            self.grad = self.grad + out.grad.reshape(self.shape)

        out._backward = _backward
        return out

    def __getitem__(self, idx):
        out = Tensor(self.data[idx], (self,), "[]")

        def _backward():
            g = np.zeros_like(self.data)
            np.add.at(g, idx, out.grad)  # a repeated index gets every share
            self.grad = self.grad + g

        out._backward = _backward
        return out

    def backward(self):
        topo = []
        visited = set()

        def build_topo(v):
            if v not in visited:
                visited.add(v)
                for child in v._prev:
                    build_topo(child)
                topo.append(v)

        build_topo(self)
        for v in topo:  # a second backward on this graph starts from zero (micrograd's issue 53)
            if v._prev:
                v.grad = np.zeros_like(v.data)
        self.grad = np.ones_like(self.data)
        for v in reversed(topo):
            v._backward()

    def __neg__(self):
        return self * -1

    def __radd__(self, other):
        return self + other

    def __sub__(self, other):
        return self + (-other)

    def __rsub__(self, other):
        return other + (-self)

    def __rmul__(self, other):
        return self * other

    def __truediv__(self, other):
        other = other if isinstance(other, Tensor) else Tensor(other)
        return self * other**-1

    def __rtruediv__(self, other):
        return other * self**-1
