"""Tensor reverse-mode autograd on NumPy arrays, with broadcasting.

Same shape as the scalar engine: each op builds `out` and defines its
`_backward` right below it, adding into each parent's `.grad` in place (`+=`),
an array of exactly the parent's shape. Broadcasting in a forward pass is undone
in exactly one place, `unbroadcast`.
"""

import numbers

import numpy as np

from .graph import topological_order


def unbroadcast(grad, shape):
    """Sum `grad` down to `shape`: the adjoint of broadcasting is summation.

    Broadcasting copies an operand virtually along the axes it lacked (leading
    axes) and along its length-1 axes; each copy sends its own gradient back,
    so the operand's gradient is the sum over the copies.
    """
    shape = tuple(shape)
    while grad.ndim > len(shape):
        grad = grad.sum(axis=0)
    for axis, size in enumerate(shape):
        if size == 1 and grad.shape[axis] != 1:
            grad = grad.sum(axis=axis, keepdims=True)
    return grad


def broadcast_shape(*shapes):
    """The shape NumPy broadcasts to, or an error that names every shape."""
    try:
        return np.broadcast_shapes(*shapes)
    except ValueError:
        listed = " and ".join(str(tuple(s)) for s in shapes)
        raise ValueError(f"shapes {listed} cannot be broadcast together") from None


def as_tensor(x):
    return x if isinstance(x, Tensor) else Tensor(x)


class Tensor:
    """A float64 array in a computation graph: `data`, `grad`, and how to backprop."""

    __array_priority__ = 1000  # `ndarray + Tensor` defers to Tensor.__radd__

    def __init__(self, data, requires_grad=False, _children=(), _op=""):
        # A user's array is copied (an optimizer updates `.data` in place);
        # results of ops are fresh arrays already and are kept as they are.
        self.data = np.asarray(data, dtype=np.float64) if _children else np.array(data, dtype=np.float64)
        self.grad = None
        self.requires_grad = requires_grad or any(c.requires_grad for c in _children)
        self._backward = _no_backward
        self._prev = _children  # a tuple, in operand order
        self._op = _op

    shape = property(lambda self: self.data.shape)
    ndim = property(lambda self: self.data.ndim)
    size = property(lambda self: self.data.size)
    T = property(lambda self: self.transpose())

    def __repr__(self):
        body = np.array2string(self.data, precision=4, separator=", ", prefix="Tensor(")
        return f"Tensor({body}{', requires_grad=True' if self.requires_grad else ''})"

    def __len__(self):
        return len(self.data)

    def item(self):
        return self.data.item()

    def numpy(self):
        return self.data.copy()

    def detach(self):
        return Tensor(self.data)

    # ---- elementwise primitives with broadcasting --------------------------

    def __add__(self, other):
        other = as_tensor(other)
        broadcast_shape(self.shape, other.shape)
        a, b = self, other
        out = Tensor(a.data + b.data, _children=(a, b), _op="+")

        def _backward():
            a.grad += unbroadcast(out.grad, a.shape)
            b.grad += unbroadcast(out.grad, b.shape)

        out._backward = _backward
        return out

    def __mul__(self, other):
        other = as_tensor(other)
        broadcast_shape(self.shape, other.shape)
        a, b = self, other
        out = Tensor(a.data * b.data, _children=(a, b), _op="*")

        def _backward():
            a.grad += unbroadcast(b.data * out.grad, a.shape)
            b.grad += unbroadcast(a.data * out.grad, b.shape)

        out._backward = _backward
        return out

    def __pow__(self, exponent):
        if not isinstance(exponent, numbers.Real):
            raise TypeError(f"Tensor ** only takes a number exponent, got {type(exponent).__name__}")
        a, exponent = self, float(exponent)
        out = Tensor(a.data**exponent, _children=(a,), _op=f"**{exponent:g}")

        def _backward():
            a.grad += _power_rule(exponent, a.data) * out.grad

        out._backward = _backward
        return out

    def exp(self):
        a = self
        out = Tensor(np.exp(a.data), _children=(a,), _op="exp")

        def _backward():
            a.grad += out.data * out.grad

        out._backward = _backward
        return out

    def log(self):
        a = self
        out = Tensor(np.log(a.data), _children=(a,), _op="log")

        def _backward():
            a.grad += out.grad / a.data

        out._backward = _backward
        return out

    def tanh(self):
        a = self
        out = Tensor(np.tanh(a.data), _children=(a,), _op="tanh")

        def _backward():
            a.grad += (1 - out.data**2) * out.grad

        out._backward = _backward
        return out

    def relu(self):
        a = self
        out = Tensor(np.maximum(a.data, 0.0), _children=(a,), _op="relu")

        def _backward():
            a.grad += (a.data > 0) * out.grad

        out._backward = _backward
        return out

    def sigmoid(self):
        a = self
        out = Tensor(_stable_sigmoid(a.data), _children=(a,), _op="sigmoid")

        def _backward():
            a.grad += out.data * (1 - out.data) * out.grad

        out._backward = _backward
        return out

    # ---- matrix product ----------------------------------------------------

    def __matmul__(self, other):
        other = as_tensor(other)
        a, b = self, other
        a2, b2 = _as_matrices(a.shape, b.shape)  # 1-D operands become a row / a column
        out_data = a.data.reshape(a2) @ b.data.reshape(b2)
        out = Tensor(np.squeeze(out_data, axis=_promoted_axes(a.ndim, b.ndim)), _children=(a, b), _op="@")

        def _backward():
            g = out.grad.reshape(out_data.shape)
            A, B = a.data.reshape(a2), b.data.reshape(b2)
            if a.requires_grad:  # a data batch keeps no gradient: skip its product, as torch does
                a.grad += unbroadcast(g @ B.swapaxes(-1, -2), a2).reshape(a.shape)
            if b.requires_grad:
                b.grad += unbroadcast(A.swapaxes(-1, -2) @ g, b2).reshape(b.shape)

        out._backward = _backward
        return out

    # ---- reductions --------------------------------------------------------

    def sum(self, axis=None, keepdims=False):
        a, axes = self, _normalize_axes(axis, self.ndim)
        out = Tensor(a.data.sum(axis=axes, keepdims=keepdims), _children=(a,), _op="sum")

        def _backward():
            g = out.grad if keepdims else np.expand_dims(out.grad, axes)
            a.grad += np.broadcast_to(g, a.shape)

        out._backward = _backward
        return out

    def mean(self, axis=None, keepdims=False):
        a, axes = self, _normalize_axes(axis, self.ndim)
        n = int(np.prod([a.shape[i] for i in axes]))
        out = Tensor(a.data.mean(axis=axes, keepdims=keepdims), _children=(a,), _op="mean")

        def _backward():
            g = out.grad if keepdims else np.expand_dims(out.grad, axes)
            a.grad += np.broadcast_to(g, a.shape) / n

        out._backward = _backward
        return out

    def max(self, axis=None, keepdims=False):
        a, axes = self, _normalize_axes(axis, self.ndim)
        m = a.data.max(axis=axes, keepdims=True)
        out = Tensor(m if keepdims else np.squeeze(m, axis=axes), _children=(a,), _op="max")

        def _backward():
            g = out.grad if keepdims else np.expand_dims(out.grad, axes)
            winners = a.data == m  # ties share the gradient equally, as torch.amax does
            a.grad += winners * g / winners.sum(axis=axes, keepdims=True)

        out._backward = _backward
        return out

    # ---- shape ops -----------------------------------------------------------

    def reshape(self, *shape):
        shape = shape[0] if len(shape) == 1 and isinstance(shape[0], (tuple, list)) else shape
        a = self
        out = Tensor(a.data.reshape(shape), _children=(a,), _op="reshape")

        def _backward():
            a.grad += out.grad.reshape(a.shape)

        out._backward = _backward
        return out

    def transpose(self, *axes):
        axes = axes[0] if len(axes) == 1 and isinstance(axes[0], (tuple, list)) else axes
        axes = tuple(ax % self.ndim for ax in axes) or tuple(reversed(range(self.ndim)))
        a = self
        out = Tensor(a.data.transpose(axes), _children=(a,), _op="transpose")

        def _backward():
            a.grad += out.grad.transpose(np.argsort(axes))

        out._backward = _backward
        return out

    def __getitem__(self, index):
        index = index.data.astype(np.intp) if isinstance(index, Tensor) else index
        a = self
        out = Tensor(a.data[index], _children=(a,), _op="getitem")

        def _backward():
            np.add.at(a.grad, index, out.grad)  # repeated indices each add their share

        out._backward = _backward
        return out

    # ---- the backward pass -----------------------------------------------------

    def backward(self, grad=None):
        """Seed the output gradient, then run every closure in reverse topological order."""
        if grad is None:
            if self.size != 1:
                raise RuntimeError(
                    f"backward() without a gradient needs a single-element output, "
                    f"but this tensor has shape {self.shape}: call .sum() first, or pass backward(grad)"
                )
            grad = np.ones(self.shape)
        grad = np.asarray(grad, dtype=np.float64)
        if grad.shape != self.shape:
            raise ValueError(f"backward(grad): grad has shape {grad.shape}, the output has shape {self.shape}")
        topo = topological_order(self)
        for t in topo:
            if t._prev or t.grad is None:  # intermediates start from zero; leaves accumulate
                t.grad = np.zeros(t.shape)
        self.grad = grad.copy()
        for t in reversed(topo):
            t._backward()
        for t in topo:
            if not t.requires_grad:
                t.grad = None  # as in torch, only what requires grad keeps one

    # ---- compositions of the primitives ------------------------------------------

    def __neg__(self):
        return self * -1.0

    def __sub__(self, other):
        return self + (-as_tensor(other))

    def __truediv__(self, other):
        return self * as_tensor(other) ** -1

    def __radd__(self, other):
        return as_tensor(other) + self

    def __rsub__(self, other):
        return as_tensor(other) - self

    def __rmul__(self, other):
        return as_tensor(other) * self

    def __rtruediv__(self, other):
        return as_tensor(other) / self

    def __rmatmul__(self, other):
        return as_tensor(other) @ self


def _no_backward():
    pass


def _power_rule(p, x):
    """d(x**p)/dx = p * x**(p-1), and exactly 0 for p = 0 (not 0 * inf at x = 0)."""
    return p * x ** (p - 1) if p != 0 else np.zeros_like(x)


def _stable_sigmoid(x):
    """1 / (1 + e^-x) without overflow for large negative x."""
    e = np.exp(-np.abs(x))
    return np.where(x >= 0, 1 / (1 + e), e / (1 + e))


def _normalize_axes(axis, ndim):
    """`None`, an int or a tuple of ints, as a sorted tuple of non-negative axes."""
    if axis is None:
        return tuple(range(ndim))
    axes = (axis,) if isinstance(axis, int) else tuple(axis)
    return tuple(sorted(ax % ndim if ndim else ax for ax in axes))


def _as_matrices(shape_a, shape_b):
    """The shapes matmul really multiplies, with a clear error when they don't fit."""
    if not shape_a or not shape_b:
        raise ValueError(f"matmul needs at least 1-D operands, got shapes {shape_a} and {shape_b}")
    a2 = (1,) + tuple(shape_a) if len(shape_a) == 1 else tuple(shape_a)
    b2 = tuple(shape_b) + (1,) if len(shape_b) == 1 else tuple(shape_b)
    if a2[-1] != b2[-2]:
        raise ValueError(
            f"matmul shapes {tuple(shape_a)} and {tuple(shape_b)} do not fit: "
            f"{a2[-1]} columns against {b2[-2]} rows"
        )
    broadcast_shape(a2[:-2], b2[:-2])
    return a2, b2


def _promoted_axes(ndim_a, ndim_b):
    """Axes that `_as_matrices` added and the result must drop again."""
    out_ndim = max(ndim_a, ndim_b, 2)
    axes = []
    if ndim_a == 1:
        axes.append(out_ndim - 2)
    if ndim_b == 1:
        axes.append(out_ndim - 1)
    return tuple(axes)
