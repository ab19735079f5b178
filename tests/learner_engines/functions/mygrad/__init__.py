from . import functional, nn, optim
from .tensor import Tensor

__all__ = ["Tensor", "nn", "optim", "functional"]
