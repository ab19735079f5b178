"""MkDocs hook: render the symptom index from the breaks catalogue.

A learner arrives with a symptom ("my loss is nan"), not a slug. Each break
declares its symptoms once, in minigrad/breaks/catalogue.toml
(`symptoms = ["nan-loss", ...]`, defined in `[symptom.<key>]` tables with a
title per language); the page docs/symptoms.md holds only the marker
`<!-- md:symptoms -->`, replaced here by one section per symptom linking its
candidate breaks. `symptom_index` refuses an inconsistent catalogue, so the
strict build (and tests/test_symptoms.py) fails on a symptom no break shows,
an undefined key, or a missing title.

A break whose symptoms are not chosen yet (`symptoms = []`, as
`python -m minigrad.breaks new` writes it without `--symptom`) is listed under
its own heading at the end instead: the teacher can serve and read the new
page at once, and tests/test_symptoms.py, not the build, fails until they are
chosen.

Kept apart from hooks/catalogue.py (the break lists and the matrix) so the
two change independently.
"""

import posixpath

from minigrad import breaks as catalogue
from minigrad.runner import markers
from minigrad.runner.languages import build_language

MARKERS = ("symptoms",)  # <!-- md:symptoms -->
LANGUAGES = ("en", "es")
PHASE = {"en": "phase", "es": "fase"}
NOT_CHOSEN = {"en": "symptoms not chosen yet", "es": "síntomas aún sin elegir"}  # anchor: #not-chosen-yet


def not_chosen(text=None):
    """The breaks (by phase) that declare no symptoms yet."""
    return [b for b in catalogue.load(text).breaks if not b.symptoms]


def symptom_index(text=None):
    """[(key, {lang: title}, [breaks])] in catalogue order; ValueError if inconsistent."""
    read = catalogue.load(text)
    symptoms, breaks = read.symptoms, read.breaks
    problems = []
    for b in breaks:
        problems += [f"break {b.slug!r} names an undefined symptom {k!r}" for k in b.symptoms if k not in symptoms]
    for key, titles in symptoms.items():
        problems += [f"symptom {key!r} has no title.{lang}" for lang in LANGUAGES if not str(titles.get(lang, "")).strip()]
        if not any(key in b.symptoms for b in breaks):
            problems.append(f"symptom {key!r} is shown by no break")
    if problems:
        raise ValueError("catalogue.toml: " + "; ".join(problems))
    return [(key, titles, [b for b in breaks if key in b.symptoms]) for key, titles in symptoms.items()]


def render(lang, page_dir="", text=None):
    """The markdown that replaces the marker, with links relative to the page's folder."""
    sections = [(titles[lang], key, breaks) for key, titles, breaks in symptom_index(text)]
    if waiting := not_chosen(text):
        sections.append((NOT_CHOSEN[lang], "not-chosen-yet", waiting))
    lines = []
    for title, anchor, breaks in sections:
        lines += [f"## {title} {{ #{anchor} }}", ""]
        for b in breaks:
            link = posixpath.relpath(f"breaks/{b.slug}.md", page_dir or ".")
            lines.append(f"- [{b.title[lang]}]({link}) ({PHASE[lang]} {b.phase})")
        lines.append("")
    return "\n".join(lines)


def on_config(config):
    symptom_index()  # an inconsistent catalogue fails the build before any page is read
    return config


def on_page_markdown(markdown, page, config, files):
    lang = build_language(page, config)
    return markers.replace(markdown, {"symptoms": lambda: render(lang, posixpath.dirname(page.file.src_uri))})
