"""A Tensor whose grads stay None until something flows into them, parents in a
list, accumulation by rebinding (`t.grad = g if t.grad is None else t.grad + g`),
an iterative post-order sort, and a `reduce_to` helper instead of unbroadcast.
Planted bug: matmul's backward multiplies by the other operand as it is, not transposed."""
import numpy as np


def reduce_to(g, shape):
    while g.ndim > len(shape):
        g = g.sum(axis=0)
    return g.sum(axis=tuple(i for i, n in enumerate(shape) if n == 1), keepdims=True)


def accumulate(t, g):
    t.grad = g if t.grad is None else t.grad + g


class Tensor:
    def __init__(self, data, requires_grad=False, parents=None):
        self.data = np.array(data, dtype=float)
        self.requires_grad = requires_grad
        self.grad = None
        self.parents = parents or []
        self.backprop = None

    @staticmethod
    def of(x):
        return x if isinstance(x, Tensor) else Tensor(x)

    def __add__(self, other):
        a, b = self, Tensor.of(other)
        out = Tensor(a.data + b.data, parents=[a, b])

        def backprop(g):
            accumulate(a, reduce_to(g, a.data.shape))
            accumulate(b, reduce_to(g, b.data.shape))
        out.backprop = backprop
        return out

    def __mul__(self, other):
        a, b = self, Tensor.of(other)
        out = Tensor(a.data * b.data, parents=[a, b])

        def backprop(g):
            accumulate(a, reduce_to(g * b.data, a.data.shape))
            accumulate(b, reduce_to(g * a.data, b.data.shape))
        out.backprop = backprop
        return out

    def __pow__(self, p):
        a = self
        out = Tensor(a.data ** p, parents=[a])
        out.backprop = lambda g: accumulate(a, g * p * a.data ** (p - 1))
        return out

    def __matmul__(self, other):
        a, b = self, Tensor.of(other)
        out = Tensor(a.data @ b.data, parents=[a, b])

        def backprop(g):
            accumulate(a, g @ b.data)  # planted bug: g @ b.data.T
            accumulate(b, a.data.T @ g)
        out.backprop = backprop
        return out

    def sum(self, axis=None, keepdims=False):
        a = self
        out = Tensor(a.data.sum(axis=axis, keepdims=keepdims), parents=[a])

        def backprop(g):
            if axis is not None and not keepdims:
                g = np.expand_dims(g, axis)
            accumulate(a, np.broadcast_to(g, a.data.shape).copy())
        out.backprop = backprop
        return out

    def mean(self, axis=None, keepdims=False):
        n = self.data.size if axis is None else self.data.shape[axis]
        return self.sum(axis=axis, keepdims=keepdims) * (1.0 / n)

    def backward(self):
        order, seen, stack = [], set(), [(self, 0)]
        while stack:
            node, i = stack.pop()
            if i < len(node.parents):
                stack.append((node, i + 1))
                parent = node.parents[i]
                if id(parent) not in seen:
                    seen.add(id(parent))
                    stack.append((parent, 0))
            else:
                order.append(node)
        self.grad = np.ones_like(self.data)
        for node in reversed(order):
            if node.backprop is not None and node.grad is not None:
                node.backprop(node.grad)

    def __neg__(self):
        return self * -1.0

    def __sub__(self, other):
        return self + -Tensor.of(other)

    def __rsub__(self, other):
        return Tensor.of(other) - self

    def __truediv__(self, other):
        return self * Tensor.of(other) ** -1

    def __rtruediv__(self, other):
        return Tensor.of(other) / self

    def __radd__(self, other):
        return Tensor.of(other) + self

    def __rmul__(self, other):
        return Tensor.of(other) * self
