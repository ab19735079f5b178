"""Children in a set, recursive topological sort, grads start as int 0.
Planted bug: tanh's local gradient computed from the input instead of the output."""
import math


class Value:
    def __init__(self, data, children=()):
        self.data = data
        self.grad = 0
        self.children = set(children)
        self.back = lambda: None

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data + other.data, {self, other})

        def back():
            self.grad += out.grad
            other.grad += out.grad
        out.back = back
        return out

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, {self, other})

        def back():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad
        out.back = back
        return out

    def __pow__(self, n):
        out = Value(self.data ** n, {self})

        def back():
            self.grad += n * self.data ** (n - 1) * out.grad
        out.back = back
        return out

    def tanh(self):
        out = Value(math.tanh(self.data), {self})

        def back():
            self.grad += (1 - self.data ** 2) * out.grad  # planted bug: should use out.data
        out.back = back
        return out

    def backward(self):
        order, seen = [], set()

        def visit(v):
            if v not in seen:
                seen.add(v)
                for c in v.children:
                    visit(c)
                order.append(v)
        visit(self)
        self.grad = 1
        for v in reversed(order):
            v.back()

    __radd__ = __add__
    __rmul__ = __mul__

    def __neg__(self):
        return self * -1

    def __sub__(self, other):
        return self + (-other)

    def __rsub__(self, other):
        return (-self) + other

    def __truediv__(self, other):
        return self * other ** -1

    def __rtruediv__(self, other):
        return self ** -1 * other
