"""Break pages the scaffold left unwritten: what is not published, and not suspected, yet.

`python -m minigrad.breaks new` (scripts/new_break.py) writes both pages of a new break with
placeholders in italics ("*To write: ...*", "*Por escribir: ...*") so that the site builds at
once and a teacher sees the skeleton. The local strict build accepts them while the teacher
works. Two places do not: the publishing workflow runs `python scripts/drafts.py`,
which fails naming every placeholder left (a half-written page is not published), and the
doctor's signatures (minigrad/doctor/signatures.py) leave such a break out, so the doctor does
not name a break whose page says nothing yet.
"""

import sys
from pathlib import Path

from minigrad.breaks import catalogue

ROOT = Path(__file__).resolve().parents[1]  # the repository: docs/breaks/ under it

PLACEHOLDERS = ("*To write:", "*Por escribir:")  # how scripts/new_break.py's TO_WRITE texts begin
SUFFIXES = ("", ".es")  # docs/breaks/<slug>.md and <slug>.es.md


def placeholders(root=ROOT, slugs=None):
    """[(page, line number, line)] of every placeholder left in the breaks' pages."""
    found = []
    for slug in slugs if slugs is not None else [b.slug for b in catalogue()]:
        for suffix in SUFFIXES:
            page = Path(root) / "docs" / "breaks" / f"{slug}{suffix}.md"
            if not page.exists():
                continue
            for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
                if line.lstrip().startswith(PLACEHOLDERS):
                    found.append((page.relative_to(root).as_posix(), number, line.strip()))
    return found


def unwritten(root=ROOT, slugs=None):
    """The slugs whose English or Spanish page still holds a placeholder."""
    return {Path(page).name.split(".")[0] for page, _, _ in placeholders(root, slugs)}


def written_only(signatures, root=ROOT):
    """`signatures` without the breaks whose pages are unwritten."""
    left_out = unwritten(root, list(signatures))
    return {slug: signature for slug, signature in signatures.items() if slug not in left_out}


def main(root=ROOT, out=sys.stdout):
    found = placeholders(root)
    for page, number, line in found:
        print(f"{page}:{number}: still the scaffold's placeholder: {line[:100]}", file=out)
    if found:
        print(f"{len(found)} placeholders in {len(unwritten(root))} breaks' pages: write them before publishing.", file=out)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
