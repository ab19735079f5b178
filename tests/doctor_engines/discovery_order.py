"""micrograd-like closures, but `_prev` is a list, the sort is recursive with a
visited list of ids, and grads start as int 0.
Planted bug: the closures run in the order the sort found the nodes (leaves
first) instead of reversed."""
import math


class Value:
    def __init__(self, data, prev=()):
        self.data = data
        self.grad = 0
        self._prev = list(prev)
        self._backward = lambda: None

    def _lift(self, x):
        return x if isinstance(x, Value) else Value(x)

    def __add__(self, other):
        other = self._lift(other)
        out = Value(self.data + other.data, [self, other])

        def _backward():
            self.grad += out.grad
            other.grad += out.grad
        out._backward = _backward
        return out

    def __mul__(self, other):
        other = self._lift(other)
        out = Value(self.data * other.data, [self, other])

        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad
        out._backward = _backward
        return out

    def __pow__(self, n):
        out = Value(self.data ** n, [self])

        def _backward():
            self.grad += n * self.data ** (n - 1) * out.grad
        out._backward = _backward
        return out

    def exp(self):
        out = Value(math.exp(self.data), [self])

        def _backward():
            self.grad += out.data * out.grad
        out._backward = _backward
        return out

    def backward(self):
        topo, visited = [], []

        def build(v):
            if id(v) in visited:
                return
            visited.append(id(v))
            for child in v._prev:
                build(child)
            topo.append(v)
        build(self)
        self.grad = 1
        for v in topo:  # planted bug: should be reversed(topo)
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
        return self * other ** -1

    def __rtruediv__(self, other):
        return other * self ** -1
