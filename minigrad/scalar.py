"""Scalar reverse-mode autograd, micrograd-shaped.

Each op builds `out`, then defines its `_backward` right below it, which adds
(`+=`) the op's local derivative times `out.grad` into each operand. The `+=`
is the chain rule's sum over paths: a value used twice gets two terms.
"""

import math
import numbers

from .graph import topological_order


class Value:
    """A scalar in a computation graph: `data`, `grad`, and how to backprop."""

    __slots__ = ("data", "grad", "label", "_backward", "_prev", "_op")

    def __init__(self, data, _children=(), _op="", label=""):
        self.data = float(data)
        self.grad = 0.0
        self.label = label
        self._backward = _no_backward
        self._prev = _children  # a tuple, in operand order: backward is deterministic
        self._op = _op

    def __repr__(self):
        name = f"{self.label}=" if self.label else ""
        return f"Value({name}{self.data:g}, grad={self.grad:g})"

    # ---- primitives: forward and backward side by side -------------------

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data + other.data, (self, other), "+")

        def _backward():
            self.grad += out.grad
            other.grad += out.grad

        out._backward = _backward
        return out

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, (self, other), "*")

        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad

        out._backward = _backward
        return out

    def __pow__(self, exponent):
        if isinstance(exponent, Value):
            return self._pow_value(exponent)
        if not isinstance(exponent, numbers.Real):
            raise TypeError(f"Value ** takes a number or a Value exponent, got {type(exponent).__name__}")
        out = Value(self.data**exponent, (self,), f"**{exponent}")

        def _backward():
            self.grad += (exponent * self.data ** (exponent - 1) if exponent else 0.0) * out.grad

        out._backward = _backward
        return out

    def _pow_value(self, other):
        """a ** b with b a Value: b's share is log(a) * a**b, real only for a positive base
        (PyTorch gives the exponent nan there; minigrad refuses, as `log` does)."""
        if self.data <= 0:
            raise ValueError(f"Value ** Value needs a positive base, got {self.data}")
        out = Value(self.data**other.data, (self, other), "**")

        def _backward():
            self.grad += other.data * self.data ** (other.data - 1) * out.grad
            other.grad += math.log(self.data) * out.data * out.grad

        out._backward = _backward
        return out

    def tanh(self):
        t = math.tanh(self.data)
        out = Value(t, (self,), "tanh")

        def _backward():
            self.grad += (1 - t**2) * out.grad

        out._backward = _backward
        return out

    def exp(self):
        e = math.exp(self.data)
        out = Value(e, (self,), "exp")

        def _backward():
            self.grad += e * out.grad

        out._backward = _backward
        return out

    def log(self):
        if self.data <= 0:
            raise ValueError(f"log of a non-positive number: {self.data}")
        out = Value(math.log(self.data), (self,), "log")

        def _backward():
            self.grad += (1 / self.data) * out.grad

        out._backward = _backward
        return out

    def relu(self):
        out = Value(self.data if self.data > 0 else 0.0, (self,), "relu")

        def _backward():
            self.grad += (self.data > 0) * out.grad

        out._backward = _backward
        return out

    def sigmoid(self):
        s = 1 / (1 + math.exp(-self.data)) if self.data >= 0 else math.exp(self.data) / (1 + math.exp(self.data))
        out = Value(s, (self,), "sigmoid")

        def _backward():
            self.grad += s * (1 - s) * out.grad

        out._backward = _backward
        return out

    # ---- the backward pass -----------------------------------------------

    def backward(self):
        """Seed d(self)/d(self) = 1, then run every closure in reverse topological order."""
        topo = topological_order(self)
        for v in topo:
            if v._prev:  # intermediate gradients belong to this pass; leaves accumulate
                v.grad = 0.0
        self.grad = 1.0
        for v in reversed(topo):
            v._backward()

    # ---- compositions of the primitives ------------------------------------

    def __neg__(self):
        return self * -1

    def __sub__(self, other):
        return self + (-other)

    def __truediv__(self, other):
        return self * other**-1

    def __radd__(self, other):
        return self + other

    def __rmul__(self, other):
        return self * other

    def __rsub__(self, other):
        return other + (-self)

    def __rtruediv__(self, other):
        return other * self**-1

    def __rpow__(self, other):
        return Value(other) ** self


def _no_backward():
    pass
