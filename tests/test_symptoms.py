"""The symptom index: every break declares symptoms in the catalogue, every symptom
has a break and both titles, and the page generated from them lists them all.

A break without symptoms yet (right after `python -m minigrad.breaks new`)
does not stop the build, which lists it as not chosen yet: this test does."""

import re
from pathlib import Path
from minigrad_site.page import Page

import pytest

from minigrad import breaks as catalogue

ROOT = Path(__file__).resolve().parents[1]
CATALOGUE = ROOT / "minigrad" / "breaks" / "catalogue.toml"


from minigrad_site.pages import symptoms as hook  # noqa: E402


def test_every_break_has_chosen_its_symptoms():
    missing = [b.slug for b in hook.not_chosen()]
    assert not missing, "; ".join(
        f"break {slug!r} declares no symptoms: choose them in its entry of minigrad/breaks/catalogue.toml, "
        f'symptoms = ["key", ...] (`uv run python -m minigrad.breaks new --help` lists the keys)' for slug in missing
    )


def test_every_break_with_symptoms_is_indexed_and_every_symptom_has_a_break_and_both_titles():
    index = hook.symptom_index()  # raises, naming every problem, if the catalogue is inconsistent
    from minigrad import breaks

    shown = {b.slug for _, _, bs in index for b in bs}
    assert shown == {b.slug for b in breaks.catalogue()} - {b.slug for b in hook.not_chosen()}
    for key, titles, bs in index:
        assert bs and titles["en"].strip() and titles["es"].strip(), key


def _planted(edit):
    return edit(CATALOGUE.read_text(encoding="utf-8"))


@pytest.mark.parametrize("symptoms", ["symptoms = []\n", ""])
def test_a_planted_break_without_symptoms_is_listed_as_not_chosen_yet(symptoms):
    text = _planted(lambda t: t + f'\n[[break]]\nslug = "planted"\nphase = 9\ntarget = "minigrad/nn.py"\ntitle.en = "Planted"\ntitle.es = "Plantada"\n{symptoms}')
    hook.symptom_index(text)  # the build goes on
    assert "planted" in [b.slug for b in hook.not_chosen(text)]
    for lang, heading, link in [("en", "## symptoms not chosen yet { #not-chosen-yet }", "- [Planted](breaks/planted.md) (phase 9)"),
                                ("es", "## síntomas aún sin elegir { #not-chosen-yet }", "- [Plantada](breaks/planted.md) (fase 9)")]:
        page = hook.render(lang, text=text)
        assert link in page.split(heading, 1)[1].strip().splitlines()  # in the last section
    assert ("not-chosen-yet" in hook.render("en")) == bool(hook.not_chosen())  # only while some break waits


def test_a_planted_symptom_without_a_break_or_a_title_fails():
    text = _planted(lambda t: t + '\n[symptom.planted]\ntitle.en = "something odd"\n')
    with pytest.raises(ValueError) as error:
        hook.symptom_index(text)
    assert "symptom 'planted' has no title.es" in str(error.value)
    assert "symptom 'planted' is shown by no break" in str(error.value)
    assert "symptom 'planted' is in no group (group = one of errors, gradients, training, eval)" in str(error.value)


def test_a_symptom_no_break_shows_fails_wherever_it_stands_in_the_file_and_so_does_an_empty_group():
    # planted before the first symptom, not last: each symptom is checked, not only the file's last one
    text = _planted(lambda t: t.replace("[symptom.non-broadcastable-output-operand]",
                                        '[symptom_group.unused]\ntitle.en = "Unused"\ntitle.es = "Sin uso"\n\n'
                                        '[symptom.planted-early]\ngroup = "errors"\ntitle.en = "odd"\ntitle.es = "raro"\n\n'
                                        "[symptom.non-broadcastable-output-operand]", 1))
    with pytest.raises(ValueError) as error:
        hook.symptom_index(text)
    assert "symptom 'planted-early' is shown by no break" in str(error.value)
    assert "symptom group 'unused' has no symptom" in str(error.value)
    assert "non-broadcastable-output-operand" not in str(error.value)


def test_the_index_is_grouped_in_the_catalogue_s_order_and_every_group_has_symptoms():
    from minigrad import breaks

    read = breaks.load()
    for lang in ("en", "es"):
        page = hook.render(lang)
        groups = re.findall(r'^## (.+) \{ #([\w-]+) data-mg="group" \}$', page, re.M)
        assert [key for _, key in groups] == list(read.symptom_groups) == ["errors", "gradients", "training", "eval"]
        assert [title for title, _ in groups] == [t[lang] for t in read.symptom_groups.values()]
        for chunk in re.split(r'^## .+ data-mg="group" \}$', page, flags=re.M)[1:]:
            assert re.search(r'^### .+ data-mg="symptom" \}$', chunk, re.M), chunk[:200]  # no empty group
        assert page.index('data-mg="symptom-filter"') < page.index('data-mg="group"')  # the filter box first


def test_a_planted_undefined_symptom_key_fails():
    text = _planted(lambda t: t.replace('symptoms = ["non-broadcastable-output-operand"]', 'symptoms = ["no-such-symptom"]'))
    with pytest.raises(ValueError, match="undefined symptom 'no-such-symptom'"):
        hook.symptom_index(text)


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_page_lists_every_symptom_with_links_to_its_breaks_in_its_language(lang):
    page = Page(lang=lang, src_uri="symptoms.md" if lang == "en" else "symptoms.es.md", url="symptoms/")
    source = (ROOT / "docs" / ("symptoms.md" if lang == "en" else "symptoms.es.md")).read_text(encoding="utf-8")
    markdown = hook.transform(source, page)
    assert "<!-- md:symptoms -->" not in markdown and "<!-- md:symptoms -->" in source
    for key, titles, bs in hook.symptom_index():
        also = "; ".join(catalogue.load().symptom_also.get(key, {}).get(lang, []))  # the filter's other phrases for it
        attribute = f' data-also="{also}"' if also else ""
        section = markdown.split(f'### {titles[lang]} {{ #{key} data-mg="symptom"{attribute} }}', 1)
        assert len(section) == 2, f"{key} has no section"
        body = re.split(r"\n##+ ", section[1], maxsplit=1)[0]
        links = re.findall(r"^- \[(.*)\]\((.*)\) ", body, re.M)
        assert links == [(b.title[lang], f"breaks/{b.slug}.md") for b in bs]
