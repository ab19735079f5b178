"""One registry of checks, and the one runner that skips, guards and collects.

A check is a generator of cases: it yields `CaseSpec(name, needs, run)` and
receives back the Case the runner made of it (training runs its second case
only when the first failed). `run(engine)` is the only place that calls into
the engine, always through `engine.guard`, so whatever the engine does (raise,
loop, call sys.exit, recurse without end) becomes evidence on that case, and a
missing name becomes a skip. Checks are called as functions: `shape_invariant()`
checks minigrad as imported now, `shape_invariant(engine)` any engine.
"""

import functools
import os
import re
import traceback
from typing import Callable, NamedTuple

import numpy as np

from .engine import Engine, Missing
from .evidence import Case, Passed, summary
from .words import Said, error_of

CHECKS = {}  # name -> Check, as registered (runner.DIAGNOSTICS gives the site's order)
_OURS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # .../minigrad


class CaseSpec(NamedTuple):
    name: str
    needs: tuple
    run: Callable  # run(engine) -> None (passed), Passed or Failure
    raised_as: str = ""  # how an exception is worded, when not "<name>: raised"


class Check:
    def __init__(self, name, label, needs, cases, passed):
        self.name, self.label, self.needs = name, label, tuple(needs)
        self.cases, self.passed = cases, passed
        functools.update_wrapper(self, cases)

    def __call__(self, engine=None):
        return run_check(self, engine or Engine.minigrad())


def check(name, label, needs=(), passed=lambda cases: ""):
    """Register a check: `label` names its one case when the whole check is skipped."""

    def register(cases):
        CHECKS[name] = Check(name, label, needs, cases, passed)
        return CHECKS[name]

    return register


def run_check(chk, engine):
    start = getattr(engine.guard, "start_check", None)
    if start:
        start()
    missing = engine.missing(chk.needs)
    if missing:
        return summary([Case(chk.label, "skipped", missing=missing)], "")
    cases, specs = [], chk.cases(engine)
    try:
        spec = next(specs)
        while True:
            if engine.on_case:
                engine.on_case(chk.name, spec.name)
            case = run_case(engine, spec)
            cases.append(case)
            spec = specs.send(case)
    except StopIteration:
        pass
    return summary(cases, chk.passed(cases))


def run_case(engine, spec):
    missing = engine.missing(spec.needs)
    if missing:
        return Case(spec.name, "skipped", missing=missing)
    try:
        with np.errstate(all="ignore"):  # a broken layer may divide by zero: that is the finding
            outcome = engine.guard(lambda: spec.run(engine))
    except Missing as e:
        return Case(spec.name, "skipped", missing=e.names)
    except SystemExit as e:  # a learner's sys.exit() must not end the checks
        return _raised(spec, RuntimeError(Said("sys-exit", code=repr(e.code))))
    except Exception as e:
        misfit = _misfit(e)
        return Case(spec.name, "skipped", missing=(misfit,)) if misfit else _raised(spec, e)
    if outcome is None or isinstance(outcome, Passed):
        return Case(spec.name, "passed", getattr(outcome, "detail", ""))
    return Case(spec.name, outcome.status, outcome.detail, outcome.wrong, outcome.numbers)


def _misfit(e):
    """A name the engine lacks, or a call that does not fit it, when the error arose in the checks' own
    code (`dropout.eval()` on a Dropout with no eval, `t.mean(axis=0)` on a mean without axis): the
    protocol is not met there, which is a skip, not evidence. In the engine's own code, it is evidence.
    One error in the checks' code is evidence too: `0 + value` refused, the start of every `sum()`, means
    the engine lacks `__radd__` (the no-reflected-add break), not that the checks misread its protocol."""
    frames = traceback.extract_tb(e.__traceback__)
    if not frames or _theirs(frames[-1].filename) or type(e) not in (AttributeError, TypeError):
        return None
    if _NO_REFLECTED_OP.match(str(e)):  # `0 + value` inside sum(): the engine lacks __radd__, which is evidence
        return None
    if isinstance(e, AttributeError) and e.name and getattr(e, "obj", None) is not None:
        return f"{type(e.obj).__name__}.{e.name}"
    return f"call: {e}"


_NO_REFLECTED_OP = re.compile(r"unsupported operand type\(s\) for .+: '(int|float)' and '")


def _raised(spec, e):
    return raised(spec.name, e, spec.raised_as or "raised", named=not spec.raised_as)


def raised(name, e, prefix="raised", named=True):
    """An exception is evidence; a TimeoutError (the doctor's time limit) says only that it did not finish."""
    error = error_of(e)
    detail = Said("raised", name=name, error=error) if named and prefix == "raised" else Said("raised-unnamed", prefix=prefix, error=error)
    status = "timed out" if isinstance(e, TimeoutError) else "raised"
    return Case(name, status, detail, ("run",), trace=engine_frames(e))


def engine_frames(e):
    """The traceback of `e` with only the engine's frames: not the checks', the doctor's, NumPy's or importlib's."""
    frames = [f for f in traceback.extract_tb(e.__traceback__) if _theirs(f.filename)]
    return "".join(["Traceback (most recent call last):\n"] * bool(frames) + traceback.format_list(frames)
                   + traceback.format_exception_only(type(e), e))


def _theirs(filename):
    path = os.path.abspath(filename)
    ours = any(path.startswith(os.path.join(_OURS, d) + os.sep) for d in ("checks", "doctor")) or path == os.path.join(_OURS, "gradcheck.py")
    machinery = filename.startswith("<frozen") or any(f"{os.sep}{lib}{os.sep}" in path for lib in ("numpy", "importlib"))
    return not (ours or machinery)
