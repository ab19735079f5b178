"""minigrad: a small, correct autograd library, made to be broken on purpose."""

from .scalar import Value

__all__ = ["Value", "Tensor", "unbroadcast"]


def __getattr__(name):
    """Tensor on first use (PEP 562): `import minigrad` for Value alone must not load NumPy,
    which the browser fetches (12 MB) only for a run that needs it."""
    if name in ("Tensor", "unbroadcast"):
        from . import tensor

        return getattr(tensor, name)
    raise AttributeError(f"module 'minigrad' has no attribute {name!r}")
