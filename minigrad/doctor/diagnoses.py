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

# Two failures agree by at least 0.5 for failing at all (ranking.py); a case is explained by a
# break only when the two also share their status or their wrong parts.
EXPLAINS = 0.5


def diagnoses(evidence, ran, signatures):
    """[(slug, [explained keys], match)], the best explanation first, and the keys nothing explains.
    A diagnosis's keys come closest agreement first, then in the checks' order (`evidence`'s own):
    the first is the line that shows it best."""
    candidates = []
    for order, (slug, signature) in enumerate(signatures.items()):
        seen = {key: sig for key, sig in signature.items() if key in ran}
        agrees = {key: agreement(evidence[key], seen[key]) for key in evidence if key in seen}
        agrees = {key: a for key, a in sorted(agrees.items(), key=lambda item: -item[1]) if a > EXPLAINS}
        if agrees:
            candidates.append((order, slug, agrees, sum(agrees.values()) / len(seen)))
    remaining, chosen = set(evidence), []
    while remaining and candidates:
        def gain(candidate):
            _, _, agrees, match = candidate
            covered = sum(a for key, a in agrees.items() if key in remaining)
            return covered * (0.5 + 0.5 * match)

        best = max(candidates, key=lambda c: (gain(c), c[3], -c[0]))
        if gain(best) == 0:
            break
        candidates.remove(best)
        _, slug, agrees, match = best
        chosen.append((slug, list(agrees), round(match, 3)))
        remaining -= agrees.keys()
    return chosen, sorted(remaining)
