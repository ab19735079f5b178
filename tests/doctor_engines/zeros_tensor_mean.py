"""A Tensor whose grad is an array of zeros from birth, `_ctx` holding the
parents and a backward function per op (a tinygrad-like shape), `+=` into
`.grad`, a recursive sort over ids.
Planted bug: mean's backward forgets to divide by the number of elements averaged."""
import numpy as np


def unbroadcast(g, shape):
    g = g.sum(axis=tuple(range(g.ndim - len(shape)))) if g.ndim > len(shape) else g
    for i, n in enumerate(shape):
        if n == 1:
            g = g.sum(axis=i, keepdims=True)
    return g


class Tensor:
    def __init__(self, data, requires_grad=False, _ctx=None):
        self.data = np.asarray(data, dtype=np.float64)
        self.grad = np.zeros_like(self.data)
        self.requires_grad = requires_grad
        self._ctx = _ctx  # (backward function, parents)

    def _make(self, data, fn, *parents):
        return Tensor(data, _ctx=(fn, parents))

    def __add__(self, other):
        other = other if isinstance(other, Tensor) else Tensor(other)

        def fn(out):
            self.grad += unbroadcast(out.grad, self.data.shape)
            other.grad += unbroadcast(out.grad, other.data.shape)
        return self._make(self.data + other.data, fn, self, other)

    def __mul__(self, other):
        other = other if isinstance(other, Tensor) else Tensor(other)

        def fn(out):
            self.grad += unbroadcast(out.grad * other.data, self.data.shape)
            other.grad += unbroadcast(out.grad * self.data, other.data.shape)
        return self._make(self.data * other.data, fn, self, other)

    def __pow__(self, p):
        def fn(out):
            self.grad += p * self.data ** (p - 1) * out.grad
        return self._make(self.data ** p, fn, self)

    def __matmul__(self, other):
        def fn(out):
            self.grad += out.grad @ other.data.T
            other.grad += self.data.T @ out.grad
        return self._make(self.data @ other.data, fn, self, other)

    def sum(self, axis=None, keepdims=False):
        def fn(out):
            g = out.grad if keepdims or axis is None else np.expand_dims(out.grad, axis)
            self.grad += np.broadcast_to(g, self.data.shape)
        return self._make(self.data.sum(axis=axis, keepdims=keepdims), fn, self)

    def mean(self, axis=None, keepdims=False):
        n = self.data.size if axis is None else self.data.shape[axis]

        def fn(out):
            g = out.grad if keepdims or axis is None else np.expand_dims(out.grad, axis)
            self.grad += np.broadcast_to(g, self.data.shape)  # planted bug: / n
        return self._make(self.data.mean(axis=axis, keepdims=keepdims), fn, self)

    def backward(self):
        order, seen = [], set()

        def visit(t):
            if id(t) in seen:
                return
            seen.add(id(t))
            for parent in (t._ctx[1] if t._ctx else ()):
                visit(parent)
            order.append(t)
        visit(self)
        self.grad = np.ones_like(self.data)
        for t in reversed(order):
            if t._ctx:
                t._ctx[0](t)

    def __neg__(self):
        return self * -1

    def __sub__(self, other):
        return self + (-other if isinstance(other, Tensor) else Tensor(-np.asarray(other)))

    def __truediv__(self, other):
        return self * (other if isinstance(other, Tensor) else Tensor(other)) ** -1

    def __radd__(self, other):
        return self + other

    def __rmul__(self, other):
        return self * other

    def __rsub__(self, other):
        return Tensor(other) - self

    def __rtruediv__(self, other):
        return Tensor(other) / self
