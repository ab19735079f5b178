"""A torch-like tensor, written here in the ways real learners' engines differ from minigrad
(tests/test_doctor_torchlike.py says which): `require_grad`, the array behind a `data()` method,
the gradient a Tensor in float32, children in a set, Kahn's algorithm, sum() over the last axis."""

import numpy as np


def unbroadcast(grad, shape):
    while grad.ndim > len(shape):
        grad = grad.sum(axis=0)
    for axis, size in enumerate(shape):
        if size == 1 and grad.shape[axis] != 1:
            grad = grad.sum(axis=axis, keepdims=True)
    return grad


class Tensor:
    def __init__(self, data, require_grad=False, parents=(), backward_fn=None):
        self._data = np.asarray(data, dtype=np.float64)
        self.require_grad = require_grad
        self.grad = None
        self.parents = set(parents)
        self.backward_fn = backward_fn

    def data(self):
        return self._data

    @property
    def shape(self):
        return self._data.shape

    def _accumulate(self, g):
        g = np.asarray(g, dtype=np.float32)
        if self.grad is None:
            self.grad = Tensor(np.zeros(self.shape))
            self.grad._data = self.grad._data.astype(np.float32)
        self.grad._data = self.grad._data + g

    def __add__(self, other):
        out = Tensor(self._data + other._data, parents=(self, other))

        def backward_fn(g):
            self._accumulate(unbroadcast(g, self.shape))
            other._accumulate(unbroadcast(g, other.shape))
        out.backward_fn = backward_fn
        return out

    def __mul__(self, other):
        out = Tensor(self._data * other._data, parents=(self, other))

        def backward_fn(g):
            self._accumulate(unbroadcast(g * other._data, self.shape))
            other._accumulate(unbroadcast(g * self._data, other.shape))
        out.backward_fn = backward_fn
        return out

    def __neg__(self):
        out = Tensor(-self._data, parents=(self,))

        def backward_fn(g):
            self._accumulate(-g)
        out.backward_fn = backward_fn
        return out

    def __sub__(self, other):
        return self + (-other)

    def __matmul__(self, other):
        out = Tensor(self._data @ other._data, parents=(self, other))

        def backward_fn(g):
            self._accumulate(g @ other._data.T)
            other._accumulate(self._data.T @ g)
        out.backward_fn = backward_fn
        return out

    def sum(self, dim=-1, keepdim=False):
        out = Tensor(self._data.sum(axis=dim, keepdims=keepdim), parents=(self,))

        def backward_fn(g):
            self._accumulate(np.broadcast_to(g if keepdim else np.expand_dims(g, dim), self.shape))
        out.backward_fn = backward_fn
        return out

    def exp(self):
        e = np.exp(self._data)
        out = Tensor(e, parents=(self,))

        def backward_fn(g):
            self._accumulate(g * e)
        out.backward_fn = backward_fn
        return out

    def log(self):
        out = Tensor(np.log(self._data), parents=(self,))

        def backward_fn(g):
            self._accumulate(g / self._data)
        out.backward_fn = backward_fn
        return out

    def relu(self):
        out = Tensor(np.maximum(self._data, 0), parents=(self,))

        def backward_fn(g):
            self._accumulate(g * (self._data > 0))
        out.backward_fn = backward_fn
        return out

    def backward(self):
        nodes, stack = [], [self]
        while stack:
            node = stack.pop()
            if node not in nodes:
                nodes.append(node)
                stack.extend(node.parents)
        waiting = {id(n): 0 for n in nodes}
        for n in nodes:
            for p in n.parents:
                waiting[id(p)] += 1
        self.grad = Tensor(np.ones(self.shape))
        ready = [self]
        while ready:
            node = ready.pop()
            if node.backward_fn is not None:
                node.backward_fn(node.grad._data)
            for p in node.parents:
                waiting[id(p)] -= 1
                if waiting[id(p)] == 0:
                    ready.append(p)
