"""Rank the catalogue's breaks by how well each signature explains a learner's evidence.

Only the cases that ran on the learner's engine count (a case skipped for a
missing op says nothing). Two failed cases agree by half for failing at all,
a quarter for the same status, a quarter for the same wrong parts: minigrad's
`+=` raises where a learner's rebinding `g = g + ...` gives a wrong shape, and
that is still the same bug. What matters most is how much of the learner's
evidence a break explains (recall); how much of the break's signature the
learner shows (precision) only breaks ties, so a partial break (one op of the
several a break touches) still ranks its break first. An all-zero gradient
(one that never arrived: no seed, the wrong order) and a wrong non-zero one
are different failures and do not agree at all.
"""


def _zero(parts):
    return {p.endswith("(zero)") for p in parts if p.startswith("input")}


def agreement(a, b):
    """How far two failed cases agree: 0.5 for failing at all, plus status and wrong parts."""
    parts_a, parts_b = set(a["wrong"]), set(b["wrong"])
    if _zero(parts_a) and _zero(parts_b) and not _zero(parts_a) & _zero(parts_b):
        return 0.0  # a gradient that never arrived against one that arrived wrong: not the same failure
    union = parts_a | parts_b
    same_parts = len(parts_a & parts_b) / len(union) if union else 1.0
    return 0.5 + 0.25 * (_kind(a["status"]) == _kind(b["status"])) + 0.25 * same_parts


def _kind(status):
    """A wrong shape is what an in-place `+=` refuses: minigrad raises where a rebinding engine's gradient
    silently takes the broadcast shape, so the two statuses count as one."""
    return "wrong shape" if status == "raised" else status


def rank(evidence, ran, signatures):
    """[(slug, score)] with score in (0, 1], most likely first; [] when the evidence is empty."""
    scored = []
    for order, (slug, signature) in enumerate(signatures.items()):
        seen = {key: sig for key, sig in signature.items() if key in ran}
        agreed = sum(agreement(evidence[key], seen[key]) for key in sorted(evidence.keys() & seen.keys()))
        if evidence and agreed:
            recall, precision = agreed / len(evidence), agreed / len(seen)
            scored.append((-(recall * (0.8 + 0.2 * precision)), order, slug))
    return [(slug, round(-score, 3)) for score, _, slug in sorted(scored)]
