"""Calls into a learner's engine, bounded in time where the platform allows.

CPython, main thread: `signal.setitimer` raises inside the learner's loop when
the check's time is up (a thread could not be stopped: CPython cannot kill one).
The interrupt is a BaseException, so a learner's `except Exception:` cannot
swallow it; it comes out as TimeoutError, which the diagnostics record as
evidence like any other exception. Elsewhere (Pyodide in the browser, a thread
that is not the main one) there is no timer: in the browser the page's Stop
button interrupts the run instead, and an engine that recurses without end gets a
RecursionError under a lower limit instead of overflowing the browser's stack.
"""

import os
import signal
import sys
import threading
import time

from ..checks.words import Said


# Python frames in all, the doctor's own (about 25 deep where it calls the learner) included. Measured
# with Pyodide 0.28.3 (2026-12), a fresh worker in Debian's Chromium and Node 20: at 400, Node's stack
# overflows on `def __neg__(self): return -self`, and both on a Tensor whose `__array__` returns
# `np.asarray(self)` (through NumPy's C frames); at 300 that Tensor still overflows both; at 250 and
# 200 every engine tried gets its RecursionError (Pyodide 0.29.5 in Node 20, 2026-12: the same at 200,
# 250 and 300). 200 keeps a margin, and a healthy recursive topological sort still handles a 190-node
# chain under it (some 25 nodes fewer inside the doctor).
BROWSER_RECURSION_LIMIT = 200


def _refuse_exit(code=0):
    raise RuntimeError(Said("os-exit", code=repr(code)))


class _Stop(BaseException):
    pass


def _stop(signum, frame):
    raise _Stop


class TimeLimit:
    """One budget of `seconds` per check: `start_check()`, then every call of this object spends it."""

    def __init__(self, seconds=3.0):
        self.seconds = seconds
        self.deadline = None
        self.available = (
            seconds is not None
            and hasattr(signal, "setitimer")
            and sys.platform != "emscripten"
            and threading.current_thread() is threading.main_thread()
        )

    def start_check(self):
        self.deadline = time.monotonic() + self.seconds if self.available else None

    def __call__(self, fn):
        if sys.platform == "emscripten":  # Pyodide: no process of its own to end, a stack that overflows early
            limit, exit_ = sys.getrecursionlimit(), os._exit
            sys.setrecursionlimit(min(limit, BROWSER_RECURSION_LIMIT))  # a RecursionError before the browser's stack overflows
            os._exit = _refuse_exit  # in the browser os._exit kills Python itself: here it is the case's evidence
            try:
                return fn()
            finally:
                sys.setrecursionlimit(limit)
                os._exit = exit_
        return self._bounded(fn)

    def _bounded(self, fn):
        if not self.available or self.deadline is None:
            return fn()
        remaining = self.deadline - time.monotonic()
        if remaining <= 0:
            raise TimeoutError(Said("used-up", seconds=f"{self.seconds:g}"))
        previous = signal.signal(signal.SIGALRM, _stop)
        try:
            try:
                signal.setitimer(signal.ITIMER_REAL, remaining)
                return fn()
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
        except _Stop:
            raise TimeoutError(Said("stopped", seconds=f"{self.seconds:g}")) from None
        finally:
            signal.signal(signal.SIGALRM, previous)
