"""Tuple parents, an explicit-stack topological sort, accumulation by rebinding
(`x.grad = x.grad + ...`), grads start as 0.0.
Planted bug (partial): `__mul__` assigns its gradient instead of adding to it;
every other op accumulates correctly."""


class Value:
    def __init__(self, data, parents=()):
        self.data = float(data)
        self.grad = 0.0
        self.parents = tuple(parents)
        self.grad_fn = None

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data + other.data, (self, other))

        def grad_fn():
            self.grad = self.grad + out.grad
            other.grad = other.grad + out.grad
        out.grad_fn = grad_fn
        return out

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, (self, other))

        def grad_fn():
            self.grad = other.data * out.grad  # planted bug: forgets self.grad +
            other.grad = other.grad + self.data * out.grad
        out.grad_fn = grad_fn
        return out

    def __pow__(self, k):
        out = Value(self.data ** k, (self,))

        def grad_fn():
            self.grad = self.grad + k * self.data ** (k - 1) * out.grad
        out.grad_fn = grad_fn
        return out

    def relu(self):
        out = Value(max(self.data, 0.0), (self,))

        def grad_fn():
            self.grad = self.grad + (1.0 if self.data > 0 else 0.0) * out.grad
        out.grad_fn = grad_fn
        return out

    def backward(self):
        order, visited, stack = [], set(), [(self, False)]
        while stack:
            node, expanded = stack.pop()
            if expanded:
                order.append(node)
            elif node not in visited:
                visited.add(node)
                stack.append((node, True))
                stack.extend((p, False) for p in node.parents)
        self.grad = 1.0
        for node in reversed(order):
            if node.grad_fn:
                node.grad_fn()

    def __neg__(self):
        return self * -1.0

    def __sub__(self, other):
        return self + (-other if isinstance(other, Value) else Value(-other))

    def __rsub__(self, other):
        return Value(other) - self

    def __radd__(self, other):
        return Value(other) + self

    def __rmul__(self, other):
        return Value(other) * self

    def __truediv__(self, other):
        return self * (other if isinstance(other, Value) else Value(other)) ** -1

    def __rtruediv__(self, other):
        return Value(other) * self ** -1
