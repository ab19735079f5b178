"""A dataclass Value, children in a frozenset, a generator-based sort, grads start at 0.0.
Planted bug: backward never seeds the output's gradient with 1."""
from dataclasses import dataclass, field


@dataclass(eq=False)
class Value:
    data: float
    children: frozenset = frozenset()
    grad: float = 0.0
    step: object = field(default=None, repr=False)

    def _node(self, data, children, step_factory):
        out = Value(data, frozenset(children))
        out.step = step_factory(out)
        return out

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)

        def step(out):
            def run():
                self.grad += out.grad
                other.grad += out.grad
            return run
        return self._node(self.data + other.data, (self, other), step)

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)

        def step(out):
            def run():
                self.grad += other.data * out.grad
                other.grad += self.data * out.grad
            return run
        return self._node(self.data * other.data, (self, other), step)

    def __pow__(self, n):
        def step(out):
            def run():
                self.grad += n * self.data ** (n - 1) * out.grad
            return run
        return self._node(self.data ** n, (self,), step)

    def _post_order(self, seen):
        if self in seen:
            return
        seen.add(self)
        for child in self.children:
            yield from child._post_order(seen)
        yield self

    def backward(self):
        order = list(self._post_order(set()))
        # planted bug: the seed `self.grad = 1.0` is missing
        for node in reversed(order):
            if node.step:
                node.step()

    def __neg__(self):
        return self * -1

    def __sub__(self, other):
        return self + (-other)

    def __rsub__(self, other):
        return -self + other

    def __truediv__(self, other):
        return self * other ** -1

    def __rtruediv__(self, other):
        return self ** -1 * other

    def __radd__(self, other):
        return self + other

    def __rmul__(self, other):
        return self * other
