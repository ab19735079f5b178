from . import functional, nn, optim
from .engine import Value
from .tensor import Tensor

__all__ = ["Value", "Tensor", "nn", "optim", "functional"]
