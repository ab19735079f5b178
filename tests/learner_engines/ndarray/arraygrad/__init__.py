from . import functional, nn, optim
from .tensor import Tensor
