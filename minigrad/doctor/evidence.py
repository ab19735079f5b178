"""Run every diagnostic on an engine and keep its evidence, case by case.

The evidence of a failed case is its status (wrong values, wrong shape,
raised) and which parts were wrong (output, input 0, ...), keyed by
"check/case". It is what a break's signature is made of (signatures.py) and
what a learner's engine is matched with (ranking.py).
"""

import contextlib
import sys

from .. import diagnostics
from .guard import TimeLimit


def examine(Value=None, Tensor=None, time_limit=3.0):
    """{check name: Verdict} for a learner's classes; what they print goes to stderr, not the report."""
    limit = TimeLimit(time_limit)
    engine = diagnostics.Engine(Value=Value, Tensor=Tensor, guard=limit)
    verdicts = {}
    with contextlib.redirect_stdout(sys.stderr):
        for name, check in diagnostics.DIAGNOSTICS.items():
            limit.start_check()
            verdicts[name] = check(engine)
    return verdicts


def failures(verdicts):
    """{"check/case": {"status", "wrong"}} for every case that failed (a case that timed out
    shows no break's symptom, only that it never finished: it is reported, not matched)."""
    return {
        f"{check}/{case.name}": {"status": case.status, "wrong": list(case.wrong)}
        for check, verdict in verdicts.items()
        for case in verdict.cases
        if case.failed and case.status != "timed out"
    }


def ran(verdicts):
    """The "check/case" keys that ran to the end (were neither skipped nor stopped) on this engine."""
    return {
        f"{check}/{case.name}"
        for check, verdict in verdicts.items()
        for case in verdict.cases
        if case.status not in ("skipped", "timed out")
    }
