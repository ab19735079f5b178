"""Operands held as `a`/`b` attributes (no children container), one `_backward`
method dispatching on the op name, recursive sort, grads start as int 0.
Planted bug: the power rule multiplies by x**n instead of x**(n-1)."""


class Value:
    def __init__(self, data, op=None, a=None, b=None):
        self.data, self.op, self.a, self.b = data, op, a, b
        self.grad = 0

    def _wrap(self, x):
        return x if isinstance(x, Value) else Value(x)

    def __add__(self, other):
        return Value(self.data + self._wrap(other).data, "+", self, self._wrap(other))

    def __mul__(self, other):
        other = self._wrap(other)
        return Value(self.data * other.data, "*", self, other)

    def __pow__(self, n):
        out = Value(self.data ** n, "**", self)
        out.n = n
        return out

    def _backward(self):
        if self.op == "+":
            self.a.grad += self.grad
            self.b.grad += self.grad
        elif self.op == "*":
            self.a.grad += self.b.data * self.grad
            self.b.grad += self.a.data * self.grad
        elif self.op == "**":
            self.a.grad += self.n * self.a.data ** self.n * self.grad  # planted bug: n - 1

    def backward(self):
        order, seen = [], set()

        def walk(v):
            if v is None or v in seen:
                return
            seen.add(v)
            walk(v.a)
            walk(v.b)
            order.append(v)
        walk(self)
        self.grad = 1
        for v in reversed(order):
            v._backward()

    def __neg__(self):
        return self * -1

    def __sub__(self, other):
        return self + -self._wrap(other)

    def __rsub__(self, other):
        return self._wrap(other) - self

    def __truediv__(self, other):
        return self * self._wrap(other) ** -1

    def __rtruediv__(self, other):
        return self._wrap(other) * self ** -1

    def __radd__(self, other):
        return self + other

    def __rmul__(self, other):
        return self * other
