"""A Tensor that IS a NumPy array: `class Tensor(np.ndarray)`, made with
`np.asarray(data, float).view(Tensor)` (so it shares memory with the array it
was made from). `.data` is the same memory as a plain ndarray, `.grad` a plain
ndarray; `_prev` and `_backward` make the graph, as in micrograd.

`__array_ufunc__ = None` makes NumPy hand every operator to the methods below
(`ndarray + Tensor` calls `Tensor.__radd__`), and makes `np.exp(t)` raise
instead of quietly returning an array with no graph: ops go through `.data`.

Not here: `max` (inherited from ndarray it would skip the graph, so it is
switched off below and `hasattr(t, "max")` is False)."""

import numpy as np


def unbroadcast(grad, shape):
    while grad.ndim > len(shape):
        grad = grad.sum(axis=0)
    for axis, n in enumerate(shape):
        if n == 1:
            grad = grad.sum(axis=axis, keepdims=True)
    return grad


class _NotImplemented:
    """An ndarray method this Tensor does not support: reading it raises AttributeError."""

    def __set_name__(self, owner, name):
        self.name = name

    def __get__(self, obj, objtype=None):
        raise AttributeError(f"arraygrad.Tensor has no {self.name}() (not written yet)")


class Tensor(np.ndarray):
    __array_ufunc__ = None

    def __new__(cls, data, requires_grad=False):
        obj = np.asarray(data, dtype=float).view(cls)
        obj.requires_grad = requires_grad
        return obj

    def __array_finalize__(self, obj):
        self.grad = None
        self.requires_grad = False
        self._prev = ()
        self._backward = lambda: None

    @property
    def data(self):
        return self.view(np.ndarray)

    @data.setter
    def data(self, value):
        self.view(np.ndarray)[...] = value

    def __repr__(self):
        return f"Tensor({self.data!r}, grad={self.grad!r})"

    __str__ = __repr__
    max = _NotImplemented()

    @staticmethod
    def _lift(x):
        return x if isinstance(x, Tensor) else Tensor(x)

    def _node(self, data, *parents):
        out = Tensor(data)
        out._prev = (self, *parents)
        return out

    def __add__(self, other):
        other = Tensor._lift(other)
        out = self._node(self.data + other.data, other)

        def _backward():
            self.grad += unbroadcast(out.grad, self.shape)
            other.grad += unbroadcast(out.grad, other.shape)

        out._backward = _backward
        return out

    def __mul__(self, other):
        other = Tensor._lift(other)
        out = self._node(self.data * other.data, other)

        def _backward():
            self.grad += unbroadcast(other.data * out.grad, self.shape)
            other.grad += unbroadcast(self.data * out.grad, other.shape)

        out._backward = _backward
        return out

    def __pow__(self, p):
        out = self._node(self.data**p)

        def _backward():
            self.grad += p * self.data ** (p - 1) * out.grad

        out._backward = _backward
        return out

    def __matmul__(self, other):
        other = Tensor._lift(other)
        out = self._node(self.data @ other.data, other)

        def _backward():
            self.grad += out.grad @ other.data.T
            other.grad += self.data.T @ out.grad

        out._backward = _backward
        return out

    def _unary(self, value, local_grad):
        """An elementwise op: its value, and its derivative as a function of the value."""
        out = self._node(value)

        def _backward():
            self.grad += local_grad(out.data) * out.grad

        out._backward = _backward
        return out

    def exp(self):
        return self._unary(np.exp(self.data), lambda y: y)

    def log(self):
        return self._unary(np.log(self.data), lambda y: 1 / self.data)

    def tanh(self):
        return self._unary(np.tanh(self.data), lambda y: 1 - y**2)

    def relu(self):
        return self._unary(np.maximum(self.data, 0), lambda y: self.data > 0)

    def sigmoid(self):
        return self._unary(np.exp(-np.logaddexp(0, -self.data)), lambda y: y * (1 - y))

    def sum(self, axis=None, keepdims=False):
        out = self._node(self.data.sum(axis=axis, keepdims=keepdims))

        def _backward():
            g = out.grad if keepdims or axis is None else np.expand_dims(out.grad, axis)
            self.grad += g

        out._backward = _backward
        return out

    def mean(self, axis=None, keepdims=False):
        out = self._node(self.data.mean(axis=axis, keepdims=keepdims))
        n = self.size // out.size  # how many entries each mean averaged

        def _backward():
            g = out.grad if keepdims or axis is None else np.expand_dims(out.grad, axis)
            self.grad += g / n

        out._backward = _backward
        return out

    def transpose(self):
        out = self._node(self.data.T)

        def _backward():
            self.grad += out.grad.T

        out._backward = _backward
        return out

    T = property(transpose)

    def reshape(self, *shape):
        out = self._node(self.data.reshape(*shape))

        def _backward():
            self.grad += out.grad.reshape(self.shape)

        out._backward = _backward
        return out

    def __getitem__(self, index):
        out = self._node(self.data[index])

        def _backward():
            np.add.at(self.grad, index, out.grad)

        out._backward = _backward
        return out

    def backward(self):
        """Kahn's algorithm from the output: a node runs once all its consumers have."""
        nodes, consumers, stack = {id(self): self}, {}, [self]
        while stack:
            t = stack.pop()
            for p in t._prev:
                consumers[id(p)] = consumers.get(id(p), 0) + 1
                if id(p) not in nodes:
                    nodes[id(p)] = p
                    stack.append(p)
        for t in nodes.values():
            if t._prev or t.grad is None:  # leaves keep accumulating; the rest start at 0
                t.grad = np.zeros(t.shape)
        self.grad = np.ones(self.shape)
        ready = [self]
        while ready:
            t = ready.pop()
            t._backward()
            for p in t._prev:
                consumers[id(p)] -= 1
                if consumers[id(p)] == 0:
                    ready.append(p)

    def __neg__(self):
        return self * -1.0

    def __sub__(self, other):
        return self + -Tensor._lift(other)

    def __rsub__(self, other):
        return Tensor._lift(other) - self

    def __truediv__(self, other):
        return self * Tensor._lift(other) ** -1.0

    def __rtruediv__(self, other):
        return Tensor._lift(other) * self**-1.0

    def __radd__(self, other):
        return Tensor._lift(other) + self

    def __rmul__(self, other):
        return Tensor._lift(other) * self

    def __rmatmul__(self, other):
        return Tensor._lift(other) @ self
