"""How many false numbers planted in the pages' prose the prose-number check catches.

    uv run python benchmarks/bench_prose_plants.py     # -> benchmarks/PROSE_PLANTS.md

For every page (both languages), up to PER_PAGE of the numbers its prose
states and its blocks cover (tests/prose_numbers.py) are drawn (a fixed
seed), and each in turn gets its last digit raised by one (`0.2618` ->
`0.2619`, `3` -> `4`); a plant is caught when the check then reports its
line. Not a test: a plant the check cannot catch is a number that the page
prints elsewhere too (a small integer, a learning rate), and this measures
how often that is, by kind of number.
"""

import collections
import random
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

import prose_numbers as pn  # noqa: E402

PER_PAGE = 8
SEED = 0
LAST_DIGIT = re.compile(r"\d(?=\D*$)")


def kind(text):
    if re.fullmatch(r"-?\d", text):
        return "one-digit integers"
    return "integers of two digits or more" if re.fullmatch(r"-?[\d  ]+", text) else "decimals, exponents, ratios, percentages"


def plants(rng):
    """(page, line, number text, planted text, page text with the plant) for the drawn numbers."""
    for path in pn.pages():
        lines = path.read_text(encoding="utf-8").splitlines()
        covered = [f for f in pn.scan(path) if f.why and f.exempt is None and f.number.kind != "word" and f.vector is None]
        for f in rng.sample(covered, min(PER_PAGE, len(covered))):
            line, text = lines[f.line - 1], f.number.text
            digit = LAST_DIGIT.search(text)
            if text not in line or not digit:
                continue
            planted = text[: digit.start()] + str((int(digit.group(0)) + 1) % 10) + text[digit.end():]
            at = line.index(text)
            changed = lines[: f.line - 1] + [line[:at] + planted + line[at + len(text):]] + lines[f.line:]
            yield path, f.line, text, planted, "\n".join(changed)


def main():
    totals, caught, missed = collections.Counter(), collections.Counter(), []
    for path, line, text, planted, changed in plants(random.Random(SEED)):
        found = any(f":{line}: " in p for p in pn.problems(path, changed))
        totals[kind(text)] += 1
        caught[kind(text)] += found
        if not found:
            missed.append(f"| `{pn.relative(path)}:{line}` | `{text}` -> `{planted}` |")
    rows = [f"| {k} | {caught[k]} | {totals[k]} | {caught[k] / totals[k]:.0%} |" for k in sorted(totals)]
    report = "\n".join([
        "# False numbers planted in the prose",
        "",
        "Written by `uv run python benchmarks/bench_prose_plants.py` (its docstring says how); do not edit by hand.",
        "",
        f"{sum(totals.values())} plants, up to {PER_PAGE} per page (seed {SEED}), each a covered prose number with its last digit raised by one.",
        "",
        "| kind of number | caught | planted | share |",
        "|---|---|---|---|",
        *rows,
        f"| all | {sum(caught.values())} | {sum(totals.values())} | {sum(caught.values()) / sum(totals.values()):.0%} |",
        "",
        "A plant goes uncaught when the page prints or writes the planted number too. The uncaught ones that are not",
        "one-digit integers:",
        "",
        "| page and line | plant |",
        "|---|---|",
        *[m for m in missed if not re.search(r"`-?\d` ->", m)],
        "",
    ])
    (ROOT / "benchmarks" / "PROSE_PLANTS.md").write_text(report, encoding="utf-8")
    print(report)


if __name__ == "__main__":
    main()
