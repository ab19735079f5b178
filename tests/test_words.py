"""Every word minigrad and its site say to a reader lives in one table per language
(minigrad/words/en.toml and es.toml): the two say the same things, with the same placeholders,
and no module keeps a table of its own beside them."""

import re
import string
from pathlib import Path

import pytest

from minigrad import words

ROOT = Path(__file__).resolve().parents[1]
# Each language's own: the names a Spanish reader sees translated (in English a name reads as itself), and
# the words a reader may type for the symptom filter's (a vocabulary, not a translation).
OWN = {"checks.name", "site.symptoms.synonyms"}
# A table of words in code: a dict keyed by both languages, in Python ("es": {...}) or JavaScript (es: {...}).
INLINE_TABLE = re.compile(r"""(^|[{(,]|(?<![?]) )["']?es["']?\s*:\s*[{"'`(]""", re.M)  # not `x ? "es" : "en"`
NOT_WORDS = {"runner/languages.js"}  # LANGUAGE_ROOTS: each language's URL prefix, not words


def leaves(table, path=""):
    """{dotted key: value} of every word in a table."""
    out = {}
    for key, value in table.items():
        here = f"{path}.{key}" if path else key
        if isinstance(value, dict):
            out.update(leaves(value, here))
        else:
            out[here] = value
    return out


def placeholders(text):
    if isinstance(text, list):
        return set()
    return {field for _, field, _, _ in string.Formatter().parse(text) if field is not None}


def test_both_languages_say_the_same_things_with_the_same_placeholders():
    en, es = ({k: v for k, v in leaves(words.table(lang)).items() if not k.startswith(tuple(OWN))} for lang in words.LANGUAGES)
    assert set(en) == set(es), f"only in en: {sorted(set(en) - set(es))}; only in es: {sorted(set(es) - set(en))}"
    differ = [k for k in en if placeholders(en[k]) != placeholders(es[k])]
    assert not differ, f"different {{placeholders}}: {differ}"


def test_a_planted_missing_key_and_a_planted_placeholder_are_seen(monkeypatch):
    table = {lang: words.table(lang) for lang in words.LANGUAGES}
    planted = {**table["es"], "site": {**table["es"]["site"], "repair": {**table["es"]["site"]["repair"], "intro": "sin {lugar}"}}}
    monkeypatch.setattr(words, "table", lambda lang: planted if lang == "es" else table["en"])
    with pytest.raises(AssertionError, match="intro"):
        test_both_languages_say_the_same_things_with_the_same_placeholders()
    del planted["site"]["repair"]["intro"]
    with pytest.raises(AssertionError, match="only in en"):
        test_both_languages_say_the_same_things_with_the_same_placeholders()


def test_no_module_keeps_a_table_of_its_own():
    """Python and JavaScript alike: the page's scripts read theirs from the page (runner/words.js)."""
    sources = [p for folder, pattern in (("minigrad", "*.py"), ("minigrad_site", "*.py"), ("runner", "*.js"), ("scripts", "*.py"))
               for p in sorted((ROOT / folder).rglob(pattern)) if p.relative_to(ROOT).as_posix() not in NOT_WORDS]
    found = [f"{p.relative_to(ROOT)}:{text[:m.start()].count(chr(10)) + 1}" for p in sources
             for text in [p.read_text(encoding="utf-8")] for m in INLINE_TABLE.finditer(text)]
    assert not found, f"words belong in minigrad/words/{{en,es}}.toml: {found}"


def test_a_section_reads_in_each_language_and_an_unknown_language_is_refused():
    assert words.section("site.repair", "es")["title"] == "Repáralo"
    assert words.by_language("pictures") == {"en": {"healthy": "healthy", "broken": "broken"}, "es": {"healthy": "sano", "broken": "roto"}}
    with pytest.raises(ValueError, match="no words in 'fr'"):
        words.table("fr")


@pytest.mark.parametrize(("text", "table"), [
    ('WORDS = {\n    "es": {"title": "Repáralo"},\n}', True), ("const TEXT = {\n  es: {\n    run: 'Ejecutar' } };", True),
    ('const FAILED = { en: "x", es: "y" };', True), ('const lang = x === "es" ? "es" : "en";', False),
    ("raise TargetError(f'{where} has no {name!r} (its classes: {names})')", False)])
def test_the_guard_sees_a_table_in_either_language_and_nothing_else(text, table):
    assert bool(INLINE_TABLE.search(text)) == table


def _spanish_words_against_the_glossary(tmp_path, extra=()):
    """The glossary's rejected variants (docs/contributing/translation.es.md) in the Spanish table's words, as on a
    page. Italics and code rules are a page's: an interface word is plain text."""
    from test_terminology import GLOSSARY, SPANISH_RULES, read_terms, violations

    texts = [v for v in leaves(words.table("es")).values() if isinstance(v, str)] + list(extra)
    page = tmp_path / "es_words.md"
    page.write_text("\n\n".join(t.replace("\n", " ") for t in texts), encoding="utf-8")
    return [v for v in violations(page, read_terms(GLOSSARY), SPANISH_RULES) if "must be" not in v]


def test_the_spanish_words_use_the_glossary_s_terms(tmp_path):
    assert not _spanish_words_against_the_glossary(tmp_path)
    planted = _spanish_words_against_the_glossary(tmp_path, ["Ejecuta el test de humo otra vez."])
    assert planted and "test de humo" in planted[0]
