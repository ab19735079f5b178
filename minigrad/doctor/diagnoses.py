"""The verdict: a set of breaks that together explain what the checks caught.

Real engines carry several bugs at once, so one ranking is not a verdict: the
break that explains the most failed cases would bury a second, smaller one.
Here the breaks are chosen greedily, as a set cover: the break whose
signature agrees with the most failed cases not yet explained comes first,
then the one that explains most of the rest, and so on until no break
explains anything more. Each diagnosis keeps every failed case it agrees with
(`explains`, which may overlap another's) and its `match`: how much of the
break's own signature (on the cases that ran) this engine shows, so a break
whose other symptoms are all absent is named with a low match, not a high one.
What no break explains is listed as such. Ties fall to the catalogue's order,
never to a set's or a dict's, so the same evidence gives the same verdict.
"""

from typing import NamedTuple

from .ranking import agreement


class Candidate(NamedTuple):
    order: int  # the catalogue's: ties fall to it
    slug: str
    agrees: dict  # failed case -> agreement with the signature, closest first
    match: float  # how much of the signature (on the cases that ran) this evidence shows
    signature: dict
    statuses: dict  # failed case -> the learner's status there

# Two failures agree by at least 0.5 for failing at all (ranking.py), more for the same status and the
# same wrong parts. A break explains every failed case it agrees with (minigrad's `+=` raises where a
# learner's rebinding engine computes on with a wrong gradient: both fail, downstream of the same bug),
# but it is named only for a case it agrees with more closely than that (STRONG).
EXPLAINS = 0.5
# A break named after the first must show at least this much of its own signature: one training case
# that a bug upstream also fails is no reason to name a second break.
SECOND = 0.5
CLOSER = 0.75
# A training run fails downstream of any bug: its cases count half in choosing a break, and how it
# fails is no reason to name a second one.
DOWNSTREAM = ("training-smoke-test/",)


def diagnoses(evidence, ran, signatures):
    """[(slug, [explained keys], match)], the best explanation first, and the keys nothing explains.
    A diagnosis's keys come closest agreement first, then in the checks' order (the signature's):
    the first is the line that shows it best."""
    candidates = []
    for order, (slug, signature) in enumerate(signatures.items()):
        seen = {key: sig for key, sig in signature.items() if key in ran}
        agrees = {key: agreement(evidence[key], seen[key]) for key in seen if key in evidence}
        agrees = {key: a for key, a in sorted(agrees.items(), key=lambda item: -item[1]) if a >= EXPLAINS}
        if any(a > EXPLAINS for a in agrees.values()):
            statuses = {key: evidence[key]["status"] for key in agrees}
            candidates.append(Candidate(order, slug, agrees, sum(agrees.values()) / len(seen), seen, statuses))
    remaining, chosen = set(evidence), []
    while remaining:
        def score(candidate):
            """As ranking.py ranks, on what is left to explain: recall first, the match breaks ties."""
            explained = sum(a * (0.5 if key.startswith(DOWNSTREAM) else 1.0) for key, a in candidate.agrees.items() if key in remaining)
            return explained / len(remaining) * (0.8 + 0.2 * candidate.match)

        eligible = [c for c in candidates if (not chosen or c.match >= SECOND) and any(
            a > EXPLAINS and key in remaining and not (chosen and key.startswith(DOWNSTREAM)) for key, a in c.agrees.items())]
        if not eligible:
            break
        best = max(eligible, key=lambda c: (score(c), c.match, -c.order))
        candidates.remove(best)
        chosen.append(best)
        remaining -= best.agrees.keys()
    chosen += _closer(candidates, chosen)
    chosen = _specific(chosen, candidates)
    return [(c.slug, list(c.agrees), round(c.match, 3)) for c in chosen], sorted(remaining)


def _specific(chosen, candidates):
    """Each diagnosis replaced by a break that explains what only it explains, as closely case by case,
    with more of its own signature shown: a big signature that happened to cover the most at first
    gives way to the small one that fits (recursive-backward's two cases, not overwrite-grad's fifty)."""
    chosen = list(chosen)
    for i, diagnosis in enumerate(chosen):
        others = {key for j, c in enumerate(chosen) if j != i for key in c.agrees}
        own = {key: a for key, a in diagnosis.agrees.items() if key not in others}
        fits = [c for c in candidates if c.match > diagnosis.match and own and all(c.agrees.get(key, 0.0) >= a for key, a in own.items())]
        if fits:
            better = max(fits, key=lambda c: (c.match, -c.order))
            candidates.remove(better)
            chosen[i] = better
    return chosen


def _leniently(candidate, key):
    """How closely a named break explains `key`, counting minigrad's `+=` that raised where the learner's
    rebinding engine gave that input a wrong shape as the same failure (ranking.py counts it a quarter
    apart): a break named for the wrong shapes needs no second one for the same cases."""
    if key not in candidate.agrees:
        return 0.0
    said = candidate.signature[key]
    if said["status"] == "raised" and said["wrong"] == ["run"] and candidate.statuses[key] == "wrong shape":
        return 1.0
    return candidate.agrees[key]


def _closer(candidates, chosen):
    """(Taken out of `candidates`.) Breaks the cover left out that explain some of its cases better than any chosen one, and whose
    own signature is mostly there (match >= CLOSER): a second bug whose symptoms a first one also
    makes, less exactly (a layer's wrong gradient inside an engine whose every op overwrites)."""
    found = []
    for candidate in sorted(candidates, key=lambda c: (-c.match, c.order)):
        if candidate.match < CLOSER:
            continue
        named = chosen + found
        if any(all(a > _leniently(other, key) for other in named) for key, a in candidate.agrees.items()
               if not key.startswith(DOWNSTREAM)):
            found.append(candidate)
    for candidate in found:
        candidates.remove(candidate)
    return found
