"""Every break page tells a learner how to run the doctor on their own engine:
the one snippet of its language, as the last line of its Diagnosis section."""

import re
from pathlib import Path

import pytest

from minigrad import breaks

ROOT = Path(__file__).resolve().parents[1]
PAGES = [(b.slug, lang) for b in breaks.catalogue() for lang in ("en", "es")]


@pytest.mark.parametrize(("slug", "lang"), PAGES, ids=lambda x: x)
def test_diagnosis_ends_with_the_doctor_snippet(slug, lang):
    suffix = "" if lang == "en" else ".es"
    text = (ROOT / "docs" / "breaks" / f"{slug}{suffix}.md").read_text(encoding="utf-8")
    diagnosis = re.search(r"^## .*\{ #diagnosis \}\n(.*?)^## ", text, re.M | re.S).group(1)
    assert diagnosis.rstrip().splitlines()[-1] == f'--8<-- "docs/snippets/doctor{suffix}.md"'


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_snippet_links_the_doctor_page_and_its_blind_spots(lang):
    suffix = "" if lang == "en" else ".es"
    snippet = (ROOT / "docs" / "snippets" / f"doctor{suffix}.md").read_text(encoding="utf-8")
    assert "](../doctor.md)" in snippet and "](../doctor.md#blind-spots)" in snippet
    assert "python -m minigrad.doctor --scalar" in snippet and "python -m minigrad.doctor --engine" in snippet
    assert "{ #blind-spots }" in (ROOT / "docs" / f"doctor{suffix}.md").read_text(encoding="utf-8")
