"""Finite differences: the oracle every analytic gradient is checked against.

`gradcheck(f, *inputs)` compares the gradient backward() leaves in each input
with central differences (f(x+h) - f(x-h)) / 2h, element by element, and
reports the worst element, so a failing check says where to look.
"""

import numbers
from dataclasses import dataclass

import numpy as np

from .scalar import Value
from .tensor import Tensor


@dataclass
class GradcheckResult:
    ok: bool
    input: int  # which argument of f holds the worst element
    index: tuple  # where in it (() for a Value or a 0-d tensor)
    analytic: float
    numeric: float
    error: float  # |analytic - numeric| - rtol * |numeric|, > atol when not ok
    message: str = ""

    def __bool__(self):
        return self.ok

    def __str__(self):
        if self.message:
            return f"gradcheck failed: {self.message}"
        verdict = "ok" if self.ok else "MISMATCH"
        return (
            f"gradcheck {verdict}: worst at input {self.input} index {self.index}: "
            f"analytic {self.analytic:.6g}, numeric {self.numeric:.6g}"
        )


def gradcheck(f, *inputs, eps=1e-6, atol=1e-5, rtol=1e-3):
    """Check f's backward against central differences for every input element.

    `inputs` are all Values or all Tensors; `f(*inputs)` must return a scalar
    (a Value, or a Tensor with one element). Told apart by their `.data` (a
    number or an array), not by class, so a learner's own engine checks too.
    """
    if all(isinstance(x, Value) or _is_number(getattr(x, "data", None)) for x in inputs):
        return compare(f, inputs, _ValueAccess(), eps, atol, rtol)
    if all(isinstance(x, Tensor) or isinstance(getattr(x, "data", None), np.ndarray) for x in inputs):
        return compare(f, inputs, _TensorAccess(), eps, atol, rtol)
    raise TypeError("gradcheck inputs must be all Value or all Tensor")


def compare(f, inputs, access, eps=1e-6, atol=1e-5, rtol=1e-3):
    """gradcheck through `access` (zero_grad, grad, shape, get, set, number of an input or output):
    the doctor's is the engine's own protocol, names a learner mapped and ndarray subclasses included."""
    for x in inputs:
        access.zero_grad(x)
    out = f(*inputs)
    out.backward()
    analytic = [access.grad(x) for x in inputs]
    for i, (x, g) in enumerate(zip(inputs, analytic)):
        if g.shape != access.shape(x):
            return GradcheckResult(False, i, (), np.nan, np.nan, np.inf,
                                   f"input {i} has shape {access.shape(x)} but its gradient has shape {g.shape}")

    worst = GradcheckResult(True, 0, (), 0.0, 0.0, -np.inf)
    for i, x in enumerate(inputs):
        for index in np.ndindex(access.shape(x)):
            original = access.get(x, index)
            access.set(x, index, original + eps)
            plus = access.number(f(*inputs))
            access.set(x, index, original - eps)
            minus = access.number(f(*inputs))
            access.set(x, index, original)
            numeric = (plus - minus) / (2 * eps)
            a = float(analytic[i][index])
            error = abs(a - numeric) - rtol * abs(numeric)
            if not error <= worst.error:  # also catches nan
                worst = GradcheckResult(error <= atol, i, index, a, numeric, error)
    return worst


def _is_number(x):
    return isinstance(x, numbers.Real) and not isinstance(x, bool)


def _scalar(out):
    return float(np.asarray(out.data).reshape(()))


class _ValueAccess:
    number = staticmethod(_scalar)

    def zero_grad(self, x):
        x.grad = 0.0

    def grad(self, x):
        return np.asarray(x.grad)

    def shape(self, x):
        return ()

    def get(self, x, index):
        return x.data

    def set(self, x, index, v):
        x.data = v


class _TensorAccess:
    number = staticmethod(_scalar)

    def zero_grad(self, x):
        # Cleared as the engine keeps it: an array's zeros (an engine may `+=` into it), else None
        # (an engine that starts from None, as PyTorch does, would add its Tensor to our array).
        x.grad = np.zeros(self.shape(x)) if isinstance(getattr(x, "grad", None), np.ndarray) else None
        if isinstance(x, Tensor):
            x.requires_grad = True  # gradcheck asks for every input's gradient

    def grad(self, x):
        """As an array, whether the engine keeps its gradients as arrays or as Tensors (PyTorch's way)."""
        return np.zeros(self.shape(x)) if x.grad is None else np.asarray(getattr(x.grad, "data", x.grad))

    def shape(self, x):
        return np.shape(x.data)

    def get(self, x, index):
        return x.data[index]

    def set(self, x, index, v):
        x.data[index] = v
