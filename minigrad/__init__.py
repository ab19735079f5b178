"""minigrad: a small, correct autograd library, made to be broken on purpose."""

import importlib.util

from .scalar import Value

__all__ = ["Value", "Tensor", "unbroadcast"]


def __getattr__(name):
    """Tensor and submodules on first use (PEP 562): `import minigrad` for Value alone must
    not load NumPy, which the browser fetches (12 MB) only for a run that needs it."""
    if name in ("Tensor", "unbroadcast"):
        return getattr(importlib.import_module(".tensor", __name__), name)
    if importlib.util.find_spec(f"{__name__}.{name}") is not None:  # minigrad.tensor, minigrad.nn, ...
        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module 'minigrad' has no attribute {name!r}")
