"""minigrad: a small, correct autograd library, made to be broken on purpose."""

from .scalar import Value
from .tensor import Tensor, unbroadcast

__all__ = ["Value", "Tensor", "unbroadcast"]
