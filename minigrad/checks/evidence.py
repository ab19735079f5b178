"""What a check saw, case by case: the evidence the doctor matches against breaks.

A case passed, or failed with a status (wrong values, wrong shape, raised,
timed out) and the parts that were wrong ("output", "input 0", "loss rises"),
or was skipped because the engine lacks something, named in `missing`. Skip
reasons are those names, never sentences: the report words them in its
language (reasons.py).
"""

import numpy as np

from .reasons import describe


class Case:
    """One case of one check. `wrong` and `status` are what signatures are made of."""

    def __init__(self, name, status, detail="", wrong=(), numbers=(), missing=(), trace=""):
        self.name, self.status, self.detail = name, status, detail
        self.wrong = tuple(wrong)
        self.numbers = list(numbers)  # the worst element of each wrong part, against the reference
        self.missing = tuple(missing)  # dotted names the engine lacks, for a skipped case
        self.trace = trace  # the engine's own frames, for a case that raised

    @property
    def failed(self):
        return self.status not in ("passed", "skipped")

    def __repr__(self):
        return f"Case({self.name!r}, {self.status!r}, {self.detail!r})"


class Failure:
    """What a case function returns when the engine got it wrong."""

    def __init__(self, detail, wrong=(), status="wrong values", numbers=()):
        self.detail, self.wrong, self.status, self.numbers = detail, tuple(wrong), status, numbers


class Passed:
    """A passing case that has something to say (the training curve's numbers)."""

    def __init__(self, detail):
        self.detail = detail


class Verdict:
    def __init__(self, passed, detail, cases=()):
        self.passed, self.detail, self.cases = passed, detail, list(cases)

    @property
    def status(self):
        """passed, caught, or skipped (when no case could run on this engine)."""
        if not self.passed:
            return "caught"
        return "skipped" if self.cases and all(c.status == "skipped" for c in self.cases) else "passed"

    def __str__(self):
        return f"{self.status}: {self.detail}"

    def __repr__(self):
        return f"Verdict({self})"


def summary(cases, passed_detail):
    """The first failing case's detail (what pages print), or what passed and what was skipped."""
    failed = [c for c in cases if c.failed]
    if failed:
        return Verdict(False, failed[0].detail, cases)
    by_reason = {}
    for c in cases:
        if c.status == "skipped":
            by_reason.setdefault(describe(c.missing), []).append(c.name)
    skipped = "; ".join(f"{reason}: " + ("; ".join(names) if len(names) <= 2 else f"{len(names)} cases")
                        for reason, names in by_reason.items())
    if by_reason and all(c.status == "skipped" for c in cases):
        return Verdict(True, skipped, cases)  # nothing ran: say why, claim nothing
    return Verdict(True, f"{passed_detail}; skipped {skipped}" if skipped else passed_detail, cases)


def part(label, got):
    """A wrong part's name, marked when the gradient is all zeros: a gradient that
    never arrived (no seed, wrong order) looks different from one that is off."""
    return f"{label} (zero)" if got is not None and np.size(got) and not np.any(got) else label


def close(got, expected, rtol=1e-9, atol=1e-12):
    """Equal within tolerance; no gradient (None) equals an all-zero expected one, as in PyTorch."""
    expected = np.asarray(expected, dtype=float)
    if got is None:
        return not np.any(expected)
    return np.shape(got) == expected.shape and bool(np.allclose(got, expected, rtol=rtol, atol=atol))
