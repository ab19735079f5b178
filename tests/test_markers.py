"""One marker syntax for generated content: `<!-- md:name k=v -->`, parsed by
minigrad/runner/markers.py, served by the page transforms that declare the name in MARKERS (minigrad_site.extension).

A marker no transform declares would stay an HTML comment and the page would lose
its table in silence; an old-style marker would do the same. Both fail here,
naming the page."""

import re
from pathlib import Path

from minigrad.runner import markers
from minigrad_site.extension import TRANSFORMS

ROOT = Path(__file__).resolve().parents[1]
PAGES = sorted((ROOT / "docs").rglob("*.md"))
OLD_STYLE = re.compile(r"<!-- (breaks|symptoms|mystery|doctor-folder|diagnostics-matrix)\b")


def _served():
    """{marker name: transform module} over every transform the site's Markdown extension runs."""
    served = {}
    for transform in TRANSFORMS:
        for name in getattr(transform, "MARKERS", ()):
            assert name not in served, f"{name!r} is declared by both {served[name].__name__} and {transform.__name__}"
            served[name] = transform
    return served


def test_every_marker_on_every_page_is_served_by_a_transform():
    served = _served()
    assert {"breaks", "symptoms", "mystery", "doctor-folder", "diagnostics-matrix"} <= set(served)
    unserved = [
        f"{page.relative_to(ROOT)}: <!-- md:{name} --> (no transform of minigrad_site.extension declares it in MARKERS)"
        for page in PAGES
        for name, _ in markers.markers(page.read_text(encoding="utf-8"))
        if name not in served
    ]
    assert not unserved, "\n".join(unserved)


def test_no_page_keeps_an_old_style_marker():
    old = [f"{page.relative_to(ROOT)}: {m[0]}" for page in PAGES for m in OLD_STYLE.finditer(page.read_text(encoding="utf-8"))]
    assert not old, "write these as <!-- md:name -->:\n" + "\n".join(old)


def test_markers_parse_their_arguments_in_order():
    text = "a <!-- md:breaks phase=8 --> b <!-- md:symptoms --> c <!-- md:x k=1 lang=es -->"
    assert markers.markers(text) == [("breaks", {"phase": "8"}), ("symptoms", {}), ("x", {"k": "1", "lang": "es"})]


def test_replace_renders_its_names_with_their_arguments_and_leaves_the_others():
    text = "<!-- md:breaks phase=8 -->|<!-- md:mystery -->|<!-- md:breaks -->"
    out = markers.replace(text, {"breaks": lambda phase="all": f"[breaks {phase}]"})
    assert out == "[breaks 8]|<!-- md:mystery -->|[breaks all]"


def test_text_that_only_looks_like_a_marker_is_left_alone():
    for text in ("<!-- md: breaks -->", "<!--md:breaks-->", "<!-- md:Breaks -->", "<!-- md:breaks phase= -->", "`md:breaks`"):
        assert markers.markers(text) == [], text
        assert markers.replace(text, {"breaks": lambda **_: "X"}) == text
