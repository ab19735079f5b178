"""Tensors whose ops are Function classes, as in PyTorch's autograd.Function:
`forward(ctx, *arrays)` computes on NumPy arrays and saves what `backward(ctx, g)`
needs, which returns one gradient per input. `Function.apply` records the graph
only when an input requires grad, and `.grad` stays None until a gradient
reaches a tensor that requires it."""

import numpy as np


class Context:
    def save_for_backward(self, *arrays):
        self.saved_tensors = arrays


class Function:
    @classmethod
    def apply(cls, *inputs, **options):
        parents = [x if isinstance(x, Tensor) else Tensor(x) for x in inputs]
        ctx = Context()
        out = Tensor(cls.forward(ctx, *(p.data for p in parents), **options))
        if any(p.requires_grad for p in parents):
            out.requires_grad = True
            out._ctx = (cls, ctx, parents)
        return out


def unbroadcast(grad, shape):
    """The gradient of a broadcast operand: sum over the axes broadcasting added or stretched."""
    grad = grad.sum(axis=tuple(range(grad.ndim - len(shape))))
    stretched = tuple(i for i, n in enumerate(shape) if n == 1 and grad.shape[i] != 1)
    return grad.sum(axis=stretched, keepdims=True)


def _axes(axis, ndim):
    if axis is None:
        return tuple(range(ndim))
    return tuple(sorted(a % ndim for a in (axis if isinstance(axis, (tuple, list)) else (axis,))))


class Add(Function):
    @staticmethod
    def forward(ctx, a, b):
        ctx.shapes = a.shape, b.shape
        return a + b

    @staticmethod
    def backward(ctx, g):
        a_shape, b_shape = ctx.shapes
        return unbroadcast(g, a_shape), unbroadcast(g, b_shape)


class Mul(Function):
    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return a * b

    @staticmethod
    def backward(ctx, g):
        a, b = ctx.saved_tensors
        return unbroadcast(g * b, a.shape), unbroadcast(g * a, b.shape)


class Div(Function):
    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return a / b

    @staticmethod
    def backward(ctx, g):
        a, b = ctx.saved_tensors
        return unbroadcast(g / b, a.shape), unbroadcast(-g * a / b**2, b.shape)


class Neg(Function):
    @staticmethod
    def forward(ctx, a):
        return -a

    @staticmethod
    def backward(ctx, g):
        return (-g,)


class Pow(Function):
    @staticmethod
    def forward(ctx, a, exponent):
        ctx.save_for_backward(a)
        ctx.exponent = exponent
        return a**exponent

    @staticmethod
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        p = ctx.exponent
        return (g * p * a ** (p - 1) if p != 0 else np.zeros_like(a),)


class Exp(Function):
    @staticmethod
    def forward(ctx, a):
        out = np.exp(a)
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, g):
        (out,) = ctx.saved_tensors
        return (g * out,)


class Log(Function):
    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return np.log(a)

    @staticmethod
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        return (g / a,)


class Tanh(Function):
    @staticmethod
    def forward(ctx, a):
        out = np.tanh(a)
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, g):
        (out,) = ctx.saved_tensors
        return (g * (1 - out**2),)


class ReLU(Function):
    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return np.maximum(a, 0.0)

    @staticmethod
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        return (g * (a > 0),)


class Sigmoid(Function):
    @staticmethod
    def forward(ctx, a):
        out = 0.5 * (1 + np.tanh(0.5 * a))  # sigmoid without overflow
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, g):
        (out,) = ctx.saved_tensors
        return (g * out * (1 - out),)


class MatMul(Function):
    """Matrix product, batched and with 1-D operands as numpy's matmul."""

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return a @ b

    @staticmethod
    def backward(ctx, g):
        a, b = ctx.saved_tensors
        A = a[None, :] if a.ndim == 1 else a  # a row
        B = b[:, None] if b.ndim == 1 else b  # a column
        G = g.reshape(np.broadcast_shapes(A.shape[:-2], B.shape[:-2]) + (A.shape[-2], B.shape[-1]))
        grad_a = unbroadcast(G @ np.swapaxes(B, -1, -2), A.shape)
        grad_b = unbroadcast(np.swapaxes(A, -1, -2) @ G, B.shape)
        return grad_a.reshape(a.shape), grad_b.reshape(b.shape)


class Sum(Function):
    @staticmethod
    def forward(ctx, a, axis=None, keepdims=False):
        ctx.shape, ctx.axes, ctx.keepdims = a.shape, _axes(axis, a.ndim), keepdims
        return a.sum(axis=ctx.axes, keepdims=keepdims)

    @staticmethod
    def backward(ctx, g):
        g = g if ctx.keepdims else np.expand_dims(g, ctx.axes)
        return (np.broadcast_to(g, ctx.shape).copy(),)


class Mean(Function):
    @staticmethod
    def forward(ctx, a, axis=None, keepdims=False):
        ctx.shape, ctx.axes, ctx.keepdims = a.shape, _axes(axis, a.ndim), keepdims
        ctx.n = int(np.prod([a.shape[i] for i in ctx.axes]))
        return a.mean(axis=ctx.axes, keepdims=keepdims)

    @staticmethod
    def backward(ctx, g):
        g = g if ctx.keepdims else np.expand_dims(g, ctx.axes)
        return (np.broadcast_to(g, ctx.shape) / ctx.n,)


class Max(Function):
    @staticmethod
    def forward(ctx, a, axis=None, keepdims=False):
        ctx.axes, ctx.keepdims = _axes(axis, a.ndim), keepdims
        m = a.max(axis=ctx.axes, keepdims=True)
        ctx.winners = (a == m) / (a == m).sum(axis=ctx.axes, keepdims=True)  # ties share
        return m if keepdims else np.squeeze(m, axis=ctx.axes)

    @staticmethod
    def backward(ctx, g):
        g = g if ctx.keepdims else np.expand_dims(g, ctx.axes)
        return (ctx.winners * g,)


class Transpose(Function):
    @staticmethod
    def forward(ctx, a):
        return a.T

    @staticmethod
    def backward(ctx, g):
        return (g.T,)


class Reshape(Function):
    @staticmethod
    def forward(ctx, a, shape):
        ctx.shape = a.shape
        return a.reshape(shape)

    @staticmethod
    def backward(ctx, g):
        return (g.reshape(ctx.shape),)


class Index(Function):
    @staticmethod
    def forward(ctx, a, index):
        ctx.shape, ctx.index = a.shape, index
        return a[index]

    @staticmethod
    def backward(ctx, g):
        grad = np.zeros(ctx.shape)
        np.add.at(grad, ctx.index, g)  # a repeated index adds every share
        return (grad,)


def _topological_order(root):
    """Every node after its inputs, by an iterative depth-first search with a stack."""
    order, seen, stack = [], set(), [(root, False)]
    while stack:
        node, inputs_done = stack.pop()
        if inputs_done:
            order.append(node)
        elif id(node) not in seen:
            seen.add(id(node))
            stack.append((node, True))
            parents = node._ctx[2] if node._ctx else ()
            stack.extend((p, False) for p in parents if id(p) not in seen)
    return order


class Tensor:
    __array_priority__ = 1000  # ndarray + Tensor calls Tensor.__radd__

    def __init__(self, data, requires_grad=False):
        self.data = np.array(data, dtype=np.float64)
        self.requires_grad = requires_grad
        self.grad = None
        self._ctx = None  # (Function class, ctx, parents) of the op that made this tensor

    shape = property(lambda self: self.data.shape)
    ndim = property(lambda self: self.data.ndim)
    T = property(lambda self: Transpose.apply(self))

    def __repr__(self):
        return f"tensor({self.data}{', requires_grad=True' if self.requires_grad else ''})"

    def item(self):
        return self.data.item()

    def detach(self):
        return Tensor(self.data)

    def backward(self, grad=None):
        if not self.requires_grad:
            raise RuntimeError("element 0 of tensors does not require grad and does not have a grad_fn")
        if grad is None:
            if self.data.size != 1:
                raise RuntimeError("grad can be implicitly created only for scalar outputs")
            grad = np.ones_like(self.data)
        grads = {id(self): np.asarray(grad, dtype=np.float64)}  # pending gradients, by node
        for node in reversed(_topological_order(self)):
            g = grads.pop(id(node), None)
            if g is None:
                continue
            if node._ctx is None:  # a leaf: keep its gradient, accumulating over passes
                node.grad = g.copy() if node.grad is None else node.grad + g
                continue
            fn, ctx, parents = node._ctx
            for parent, pg in zip(parents, fn.backward(ctx, g)):
                if parent.requires_grad:
                    grads[id(parent)] = grads[id(parent)] + pg if id(parent) in grads else pg

    def __add__(self, other): return Add.apply(self, other)
    def __radd__(self, other): return Add.apply(other, self)
    def __sub__(self, other): return Add.apply(self, Neg.apply(other))
    def __rsub__(self, other): return Add.apply(other, Neg.apply(self))
    def __mul__(self, other): return Mul.apply(self, other)
    def __rmul__(self, other): return Mul.apply(other, self)
    def __truediv__(self, other): return Div.apply(self, other)
    def __rtruediv__(self, other): return Div.apply(other, self)
    def __neg__(self): return Neg.apply(self)
    def __pow__(self, exponent): return Pow.apply(self, exponent=exponent)
    def __matmul__(self, other): return MatMul.apply(self, other)
    def __rmatmul__(self, other): return MatMul.apply(other, self)
    def __getitem__(self, index): return Index.apply(self, index=index)
    def exp(self): return Exp.apply(self)
    def log(self): return Log.apply(self)
    def tanh(self): return Tanh.apply(self)
    def relu(self): return ReLU.apply(self)
    def sigmoid(self): return Sigmoid.apply(self)
    def sum(self, axis=None, keepdims=False): return Sum.apply(self, axis=axis, keepdims=keepdims)
    def mean(self, axis=None, keepdims=False): return Mean.apply(self, axis=axis, keepdims=keepdims)
    def max(self, axis=None, keepdims=False): return Max.apply(self, axis=axis, keepdims=keepdims)
    def reshape(self, *shape): return Reshape.apply(self, shape=shape[0] if len(shape) == 1 else shape)
