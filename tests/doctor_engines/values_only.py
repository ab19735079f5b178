"""A learner's Value in another style: it keeps its number in `.value` and takes only Values as operands
(numbers must be wrapped). Correct: the doctor must call nothing here a break."""

import math
class Value:
    """Values only: numbers must be wrapped; the number is kept in .value."""
    def __init__(self, value, children=()):
        self.value, self.grad, self.children = value, 0.0, children
        self._backward = lambda: None
    def __add__(self, other):
        out = Value(self.value + other.value, (self, other))
        def _backward():
            self.grad += out.grad; other.grad += out.grad
        out._backward = _backward
        return out
    def __mul__(self, other):
        out = Value(self.value * other.value, (self, other))
        def _backward():
            self.grad += other.value * out.grad; other.grad += self.value * out.grad
        out._backward = _backward
        return out
    def __pow__(self, k):
        out = Value(self.value ** k, (self,))
        def _backward():
            self.grad += k * self.value ** (k - 1) * out.grad
        out._backward = _backward
        return out
    def __neg__(self): return self * Value(-1.0)
    def __sub__(self, other): return self + (-other)
    def __truediv__(self, other): return self * other ** -1
    def tanh(self):
        t = math.tanh(self.value); out = Value(t, (self,))
        def _backward(): self.grad += (1 - t * t) * out.grad
        out._backward = _backward
        return out
    def backward(self):
        order, seen = [], set()
        def visit(v):
            if id(v) not in seen:
                seen.add(id(v))
                for c in v.children: visit(c)
                order.append(v)
        visit(self); self.grad = 1.0
        for v in reversed(order): v._backward()
