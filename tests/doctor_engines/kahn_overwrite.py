"""An engine with Kahn's algorithm for its order whose add overwrites its inputs' gradients
(`self.grad = out.grad`), the default that learners copy from a one-use graph: it passes the diamond
(add runs first there), and the doctor must still catch it."""

class Value:
    def __init__(self, data, _children=()):
        self.data, self.grad, self._prev = data, 0.0, list(_children)
        self._backward = lambda: None
    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data + other.data, (self, other))
        def _backward():
            self.grad = out.grad   # the default: overwrite
            other.grad = out.grad
        out._backward = _backward
        return out
    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data * other.data, (self, other))
        def _backward():
            self.grad += other.data * out.grad
            other.grad += self.data * out.grad
        out._backward = _backward
        return out
    def __neg__(self): return self * -1
    def __sub__(self, other): return self + (-other)
    def __radd__(self, other): return self + other
    def __rmul__(self, other): return self * other
    def __pow__(self, k):
        out = Value(self.data ** k, (self,))
        def _backward():
            self.grad += k * self.data ** (k - 1) * out.grad
        out._backward = _backward
        return out
    def __truediv__(self, o): return self * o ** -1
    def backward(self):
        # Kahn's algorithm: indegree = number of parents
        nodes, stack = [], [self]
        seen = set()
        while stack:
            v = stack.pop()
            if id(v) in seen: continue
            seen.add(id(v)); nodes.append(v); stack.extend(v._prev)
        indeg = {id(v): 0 for v in nodes}
        for v in nodes:
            for c in v._prev: indeg[id(c)] += 1
        queue = [v for v in nodes if indeg[id(v)] == 0]
        self.grad = 1.0
        while queue:
            v = queue.pop(0)
            v._backward()
            for c in v._prev:
                indeg[id(c)] -= 1
                if indeg[id(c)] == 0: queue.append(c)
