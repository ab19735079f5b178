"""The parts of scripts/make_torch_reference.py, one module per file it writes.

Each part has `OUT` (its file in minigrad/reference/, the one home of
PyTorch's numbers), `compute()` (runs torch), `dumps(data)` (the file's text)
and may have `stale(committed_text, data)` (what differs beyond rounding;
without it, any difference of the text is stale).
"""

from pathlib import Path

HOME = Path(__file__).resolve().parents[2] / "minigrad" / "reference"
PARTS = ("engine", "losses", "optimizers", "checks", "facts", "learner_engines")


def differences(committed, fresh, rtol=1e-12, atol=1e-14, where=""):
    """Where two JSON values differ beyond torch's few ulps between builds and thread counts."""
    import numpy as np

    if isinstance(committed, dict) and isinstance(fresh, dict):
        return [f"{where}/{key}: {'gone' if key in committed else 'new'}" for key in sorted(committed.keys() ^ fresh.keys())] + [
            d for key in committed.keys() & fresh.keys() for d in differences(committed[key], fresh[key], rtol, atol, f"{where}/{key}")]
    if isinstance(committed, str) or committed is None or isinstance(fresh, str) or fresh is None:
        return [] if committed == fresh else [where]
    try:
        a, b = np.asarray(committed, dtype=float), np.asarray(fresh, dtype=float)
    except (TypeError, ValueError):  # lists of dicts or strings: element by element
        if len(committed) != len(fresh):
            return [where]
        return [d for i, (x, y) in enumerate(zip(committed, fresh)) for d in differences(x, y, rtol, atol, f"{where}[{i}]")]
    return [] if a.shape == b.shape and np.allclose(a, b, rtol, atol, equal_nan=True) else [where]
