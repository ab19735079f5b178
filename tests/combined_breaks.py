"""Several breaks of the catalogue applied to minigrad at once, as a learner's engine carries several bugs."""

from minigrad import breaks
from minigrad.breaks import ROOT, patch


def together(*slugs):
    """Inside the block, `import minigrad...` gives a copy with every one of `slugs` applied, in order.
    Raises patch.PatchError when one diff no longer applies over the others (they touch the same lines)."""
    changed = {}
    for slug in slugs:
        for fp in breaks.get(slug).file_patches():
            changed[fp.path] = patch.apply(fp, changed.get(fp.path) or (ROOT / fp.path).read_text(encoding="utf-8"))
    return breaks.swapped(" + ".join(slugs), changed)
