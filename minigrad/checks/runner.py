"""Every check on one engine, and every check under every break of the catalogue.

`catalogue_evidence()` is the one loop "each check on minigrad with each break
applied"; the diagnostics matrix (which check catches which break, shown on
the site) and the doctor's signatures (which cases fail, and how) are two
views of its result, so they cannot disagree.
"""

import contextlib
import sys

from . import contracts, gradients, reference, training  # noqa: F401 (each registers its checks)
from .engine import Engine
from .registry import CHECKS

ORDER = ("shape-invariant", "finite-differences", "diamond-test", "torch-reference", "training-smoke-test",
         "repeatable-gradients", "loss-reference", "module-contracts")
DIAGNOSTICS = {name: CHECKS[name] for name in ORDER}


def run_all(engine, on_verdict=None):
    """{check name: Verdict}; `on_verdict(name, verdict)` is told as each check ends."""
    verdicts = {}
    for name, chk in DIAGNOSTICS.items():
        verdicts[name] = chk(engine)
        if on_verdict:
            on_verdict(name, verdicts[name])
    return verdicts


def catalogue_evidence():
    """{slug: [{check name: Verdict}, ...]} on minigrad's whole engine with each break applied,
    then with each of its variants (the same bug in the other engine) in turn."""
    from .. import breaks  # here: the checks must import without the catalogue (the browser's boot)

    evidence = {}
    for brk in breaks.catalogue():
        evidence[brk.slug] = []
        for variant in [None, *brk.variants()]:
            with breaks.applied(brk.slug, variant), contextlib.redirect_stdout(sys.stderr):
                evidence[brk.slug].append(run_all(Engine.minigrad()))
    return evidence


def matrix(evidence):
    """What minigrad/breaks/matrix.json holds: every break (its page's diff) against every check."""
    rows = {slug: {name: {"caught": not v.passed, "detail": v.detail} for name, v in runs[0].items()}
            for slug, runs in evidence.items()}
    return {"diagnostics": list(DIAGNOSTICS), "breaks": rows}


def failures(verdicts):
    """{"check/case": {"status", "wrong"}} for every case that failed (a case that timed out
    shows no break's symptom, only that it never finished, and one near torch's numbers but not equal
    shows another way to compute the same thing: both are reported, not matched)."""
    return {
        f"{check}/{case.name}": {"status": case.status, "wrong": list(case.wrong)}
        for check, verdict in verdicts.items()
        for case in verdict.cases
        if case.failed and case.status not in ("timed out", "near")
    }


def ran(verdicts):
    """The "check/case" keys that ran to the end (neither skipped nor stopped) on this engine."""
    return {
        f"{check}/{case.name}"
        for check, verdict in verdicts.items()
        for case in verdict.cases
        if case.status not in ("skipped", "timed out")
    }


def signatures(evidence):
    """What minigrad/doctor/signatures.json holds: each break's failed cases, its variants' added."""
    signed = {}
    for slug, runs in evidence.items():
        signed[slug] = {}
        for verdicts in reversed(runs):  # the page's own diff last: its evidence wins where they share a case
            signed[slug].update(failures(verdicts))
    return signed
