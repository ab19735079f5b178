"""The symptom index: every break declares symptoms in the catalogue, every symptom
has a break and both titles, and the page generated from them lists them all."""

import re
from pathlib import Path
from types import SimpleNamespace

import pytest
from module_at import module_at

ROOT = Path(__file__).resolve().parents[1]
CATALOGUE = ROOT / "minigrad" / "breaks" / "catalogue.toml"


hook = module_at(ROOT / "hooks" / "symptoms.py", "symptoms_hook")


def test_every_break_declares_a_symptom_and_every_symptom_has_a_break_and_both_titles():
    index = hook.symptom_index()  # raises, naming every problem, if the catalogue is incomplete
    from minigrad import breaks

    shown = {b["slug"] for _, _, bs in index for b in bs}
    assert shown == {b.slug for b in breaks.catalogue()}
    for key, titles, bs in index:
        assert bs and titles["en"].strip() and titles["es"].strip(), key


def _planted(edit):
    return edit(CATALOGUE.read_text(encoding="utf-8"))


def test_a_planted_break_without_symptoms_fails():
    text = _planted(lambda t: t + '\n[[break]]\nslug = "planted"\nphase = 9\ntarget = "minigrad/nn.py"\ntitle.en = "x"\ntitle.es = "x"\n')
    with pytest.raises(ValueError, match="break 'planted' declares no symptoms"):
        hook.symptom_index(text)


def test_a_planted_symptom_without_a_break_or_a_title_fails():
    text = _planted(lambda t: t + '\n[symptom.planted]\ntitle.en = "something odd"\n')
    with pytest.raises(ValueError) as error:
        hook.symptom_index(text)
    assert "symptom 'planted' has no title.es" in str(error.value)
    assert "symptom 'planted' is shown by no break" in str(error.value)


def test_a_planted_undefined_symptom_key_fails():
    text = _planted(lambda t: t.replace('symptoms = ["non-broadcastable-output-operand"]', 'symptoms = ["no-such-symptom"]'))
    with pytest.raises(ValueError, match="undefined symptom 'no-such-symptom'"):
        hook.symptom_index(text)


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_page_lists_every_symptom_with_links_to_its_breaks_in_its_language(lang):
    page = SimpleNamespace(file=SimpleNamespace(src_uri="symptoms.md" if lang == "en" else "symptoms.es.md", locale_alternate_of=lang))
    config = SimpleNamespace(theme={"language": "en"})
    source = (ROOT / "docs" / ("symptoms.md" if lang == "en" else "symptoms.es.md")).read_text(encoding="utf-8")
    markdown = hook.on_page_markdown(source, page, config, None)
    assert hook.MARKER not in markdown
    for key, titles, bs in hook.symptom_index():
        section = markdown.split(f"## {titles[lang]} {{ #{key} }}", 1)
        assert len(section) == 2, f"{key} has no section"
        body = section[1].split("\n## ", 1)[0]
        links = re.findall(r"^- \[(.*)\]\((.*)\) ", body, re.M)
        assert links == [(b["title"][lang], f"breaks/{b['slug']}.md") for b in bs]
