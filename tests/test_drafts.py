"""A break the scaffold made and nobody wrote yet (issue 38): its pages' placeholders are found,
the publishing workflow refuses to publish while any is left (the local strict build still
accepts them), and the doctor's signatures leave the break out until its pages are written."""

import io
import shutil

import yaml

from minigrad import breaks
from minigrad.breaks import ROOT

from scripts import drafts  # noqa: E402

SLUG = "overwrite-grad"


def docs_copy(tmp_path):
    """The breaks' pages, copied: a root for drafts with one page to un-write."""
    shutil.copytree(ROOT / "docs" / "breaks", tmp_path / "docs" / "breaks")
    return tmp_path


def test_the_markers_are_how_the_scaffold_s_placeholders_begin():
    from scripts import new_break as scaffold

    written = [text for lang in scaffold.TO_WRITE.values() for text in lang.values() if text.startswith("*") and not text.startswith("**")]  # italics, not the bold Target
    assert written and all(text.startswith(drafts.PLACEHOLDERS) for text in written), written
    assert {text.split(":")[0] + ":" for text in written} == set(drafts.PLACEHOLDERS)


def test_today_every_page_is_written():
    assert drafts.placeholders() == []
    out = io.StringIO()
    assert drafts.main(out=out) == 0 and out.getvalue() == ""


def test_a_placeholder_left_is_named_and_refused(tmp_path):
    root = docs_copy(tmp_path)
    page = root / "docs" / "breaks" / f"{SLUG}.es.md"
    page.write_text(page.read_text(encoding="utf-8").replace("## Lección { #lesson }\n", "## Lección { #lesson }\n\n*Por escribir: la lección, en dos o tres frases.*\n"), encoding="utf-8")
    found = drafts.placeholders(root)
    assert [(p, line) for p, _, line in found] == [(f"docs/breaks/{SLUG}.es.md", "*Por escribir: la lección, en dos o tres frases.*")]
    assert drafts.unwritten(root) == {SLUG}
    out = io.StringIO()
    assert drafts.main(root, out) == 1
    assert f"docs/breaks/{SLUG}.es.md:" in out.getvalue() and "1 placeholders in 1 breaks' pages" in out.getvalue()
    everything = {b.slug: ["evidence"] for b in breaks.catalogue()}
    assert set(drafts.written_only(everything, root)) == set(everything) - {SLUG}  # not a suspect yet
    assert drafts.written_only(everything) == everything


def test_the_publishing_workflow_runs_the_refusal_before_the_build():
    steps = yaml.safe_load((ROOT / ".github/workflows/pages.yml").read_text(encoding="utf-8"))["jobs"]["build"]["steps"]
    runs = [s.get("run", "") for s in steps]
    refusal = runs.index("uv run python scripts/drafts.py")
    assert refusal < next(i for i, r in enumerate(runs) if "mkdocs build" in r)
