"""Warnings from a broken copy of minigrad are the lesson, not the suite's trouble.

bce-log-of-sigmoid's page tells the reader that NumPy's `RuntimeWarning: divide by
zero encountered in log` is the first clue. Its runs in the doc tests must keep
raising it, as a reader's run does, yet the suite's summary must show no expected
warning, and an unexpected one fails it (pyproject.toml: filterwarnings = error).

A warning filter cannot tell the broken copy from the healthy one: both modules are
named `minigrad.tensor`. Their files differ: minigrad.breaks.swapped compiles the
broken copy as `<broken by SLUG>/minigrad/...`. So the run is recorded as it would
run for a reader (NumPy's default, "default"), and what came from anywhere else is
warned again, where the suite's filters see it.
"""

import warnings
from contextlib import contextmanager

BROKEN_ORIGIN = "<broken by "


@contextmanager
def broken_copy_warnings_expected():
    with warnings.catch_warnings(record=True) as heard:
        warnings.simplefilter("default")
        yield
    for warning in heard:
        if not str(warning.filename).startswith(BROKEN_ORIGIN):
            warnings.warn_explicit(warning.message, warning.category, warning.filename, warning.lineno)
