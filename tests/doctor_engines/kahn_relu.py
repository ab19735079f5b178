"""Parents in a list, Kahn's algorithm (counting consumers) for the backward order,
local derivatives stored per edge instead of closures.
Planted bug: relu lets the gradient through when the *upstream gradient* is
positive, instead of when its input was."""


class Value:
    def __init__(self, data, edges=()):
        self.data = float(data)
        self.grad = 0.0
        self.edges = list(edges)  # [(parent, local derivative as a function of out.grad)]

    @staticmethod
    def lift(x):
        return x if isinstance(x, Value) else Value(x)

    def __add__(self, other):
        other = Value.lift(other)
        return Value(self.data + other.data, [(self, lambda g: g), (other, lambda g: g)])

    def __mul__(self, other):
        other = Value.lift(other)
        return Value(self.data * other.data, [(self, lambda g: g * other.data), (other, lambda g: g * self.data)])

    def __pow__(self, p):
        return Value(self.data ** p, [(self, lambda g: g * p * self.data ** (p - 1))])

    def relu(self):
        return Value(self.data if self.data > 0 else 0.0, [(self, lambda g: g if g > 0 else 0.0)])  # planted bug

    def backward(self):
        consumers, stack, seen = {}, [self], {self}
        while stack:
            node = stack.pop()
            for parent, _ in node.edges:
                consumers[parent] = consumers.get(parent, 0) + 1
                if parent not in seen:
                    seen.add(parent)
                    stack.append(parent)
        self.grad = 1.0
        ready = [self]
        while ready:
            node = ready.pop()
            for parent, local in node.edges:
                parent.grad += local(node.grad)
                consumers[parent] -= 1
                if consumers[parent] == 0:
                    ready.append(parent)

    def __neg__(self):
        return self * -1

    def __sub__(self, other):
        return self + -Value.lift(other)

    def __rsub__(self, other):
        return Value.lift(other) - self

    def __truediv__(self, other):
        return self * Value.lift(other) ** -1

    def __rtruediv__(self, other):
        return Value.lift(other) * self ** -1

    __radd__ = __add__
    __rmul__ = __mul__
