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

from .ranking import agreement

# Two failures agree by at least 0.5 for failing at all (ranking.py), more for the same status and the
# same wrong parts. A break explains every failed case it agrees with (minigrad's `+=` raises where a
# learner's rebinding engine computes on with a wrong gradient: both fail, downstream of the same bug),
# but it is named only for a case it agrees with more closely than that (STRONG).
EXPLAINS = 0.5
# A break named after the first must show at least this much of its own signature: one training case
# that a bug upstream also fails is no reason to name a second break.
SECOND = 0.5
CLOSER = 0.75


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
            candidates.append((order, slug, agrees, sum(agrees.values()) / len(seen)))
    remaining, chosen = set(evidence), []
    while remaining:
        def score(candidate):
            """As ranking.py ranks, on what is left to explain: recall first, the match breaks ties."""
            _, _, agrees, match = candidate
            return sum(a for key, a in agrees.items() if key in remaining) / len(remaining) * (0.8 + 0.2 * match)

        eligible = [c for c in candidates if any(a > EXPLAINS and key in remaining for key, a in c[2].items())
                    and (not chosen or c[3] >= SECOND)]
        if not eligible:
            break
        best = max(eligible, key=lambda c: (score(c), c[3], -c[0]))
        candidates.remove(best)
        chosen.append(best)
        remaining -= best[2].keys()
    chosen += _closer(candidates, chosen)
    chosen = _specific(chosen, candidates)
    return [(slug, list(agrees), round(match, 3)) for _, slug, agrees, match in chosen], sorted(remaining)


def _specific(chosen, candidates):
    """Each diagnosis replaced by a break that explains what only it explains, as closely case by case,
    with more of its own signature shown: a big signature that happened to cover the most at first
    gives way to the small one that fits (recursive-backward's two cases, not overwrite-grad's fifty)."""
    chosen = list(chosen)
    for i, (_, _, agrees, match) in enumerate(chosen):
        others = {key for j, c in enumerate(chosen) if j != i for key in c[2]}
        own = {key: a for key, a in agrees.items() if key not in others}
        fits = [c for c in candidates if c[3] > match and own and all(c[2].get(key, 0.0) >= a for key, a in own.items())]
        if fits:
            better = max(fits, key=lambda c: (c[3], -c[0]))
            candidates.remove(better)
            chosen[i] = better
    return chosen


def _closer(candidates, chosen):
    """(Taken out of `candidates`.) Breaks the cover left out that explain some of its cases better than any chosen one, and whose
    own signature is mostly there (match >= CLOSER): a second bug whose symptoms a first one also
    makes, less exactly (a layer's wrong gradient inside an engine whose every op overwrites)."""
    found = []
    for candidate in sorted(candidates, key=lambda c: (-c[3], c[0])):
        _, _, agrees, match = candidate
        if match < CLOSER:
            continue
        named = chosen + found
        if any(all(a > other[2].get(key, 0.0) for other in named) for key, a in agrees.items()):
            found.append(candidate)
    for candidate in found:
        candidates.remove(candidate)
    return found
