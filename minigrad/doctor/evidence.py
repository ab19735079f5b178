"""Run every check on a learner's engine, bounded in time, and keep its evidence.

The evidence of a failed case is its status (wrong values, wrong shape,
raised) and which parts were wrong (output, input 0, loss rises, ...), keyed
by "check/case" (minigrad.checks.failures). It is what a break's signature is
made of and what a learner's engine is matched with (ranking.py).
"""

import contextlib
import sys

from .. import checks
from ..checks.words import Said
from .guard import TimeLimit


def examine(engine, time_limit=3.0, on_case=None, on_verdict=None):
    """{check name: Verdict} for a learner's engine; what it prints goes to stderr, not the report.
    `on_case(check, case)` is told before each case, `on_verdict(check, verdict)` after each check."""
    engine.guard = TimeLimit(time_limit)
    engine.on_case = on_case
    with contextlib.redirect_stdout(sys.stderr):
        return checks.run_all(engine, on_verdict=on_verdict)


def crashed_only(verdicts):
    """The first case that raised, when every case that ran raised: an engine to fix before any diagnosis."""
    ran = [c for v in verdicts.values() for c in v.cases if c.status not in ("skipped",)]
    if ran and all(c.status == "raised" for c in ran):
        return ran[0]
    return None


def hostile(verdicts):
    """(how, case) for the first case where the engine recursed without end, looped past its time, or
    tried to end the process: a bug that comes before any diagnosis (what it breaks, it breaks for every
    op that reaches it, and no break's signature is made of that), or None."""
    for verdict in verdicts.values():
        for case in verdict.cases:
            text = str(case.detail)
            if case.status == "timed out":
                return "loop", case
            if case.status == "raised" and "RecursionError" in text:
                return "recursion", case
            if case.status == "raised" and ("the engine called sys.exit" in text or "the engine called os._exit" in text):
                return "exit", case
    return None


def _said(text):
    return text.as_data() if isinstance(text, Said) else text


def as_data(verdict):
    """A Verdict as JSON data (what the isolated process sends back), its sentences able to change language."""
    return {"passed": verdict.passed, "detail": _said(verdict.detail), "cases": [
        {"name": c.name, "status": c.status, "detail": _said(c.detail), "wrong": list(c.wrong),
         "numbers": [_said(n) for n in c.numbers], "missing": list(c.missing), "trace": c.trace} for c in verdict.cases]}


def from_data(data):
    cases = [checks.Case(c["name"], c["status"], Said.from_data(c["detail"]), c["wrong"],
                         [Said.from_data(n) for n in c["numbers"]], c["missing"], c["trace"]) for c in data["cases"]]
    return checks.Verdict(data["passed"], Said.from_data(data["detail"]), cases)
