"""Rewrite break diffs whose hunks moved (minigrad gained lines above them).

A diff is strict on purpose (tests/test_breaks.py wants every hunk at its
stated line, since the page shows those line numbers). When an edit elsewhere
in a file only *moves* a hunk, this rewrites the diff from where the hunk now
applies; a hunk whose lines changed still fails, and must be redone by hand.

    uv run python scripts/refresh_breaks.py [SLUG ...]
"""

import difflib
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from minigrad import breaks  # noqa: E402
from minigrad.breaks import patch  # noqa: E402


def refreshed_diff(brk):
    parts = []
    for fp in brk.file_patches():
        before = (ROOT / fp.path).read_text(encoding="utf-8")
        after = patch.apply(fp, before)  # raises, naming the hunk, if content changed
        body = difflib.unified_diff(
            before.splitlines(keepends=True), after.splitlines(keepends=True), f"a/{fp.path}", f"b/{fp.path}", n=3
        )
        parts.append(f"diff --git a/{fp.path} b/{fp.path}\n" + "".join(body))
    return "".join(parts)


if __name__ == "__main__":
    slugs = sys.argv[1:] or [b.slug for b in breaks.catalogue()]
    for slug in slugs:
        brk = breaks.get(slug)
        new = refreshed_diff(brk)
        if new != brk.diff_text():
            brk.diff_path.write_text(new, encoding="utf-8")
            print(f"rewrote {brk.diff_path.relative_to(ROOT)}")
