"""Render the symptom index from the breaks catalogue.

A learner arrives with a symptom ("my loss is nan"), not a slug. Each break
declares its symptoms once, in minigrad/breaks/catalogue.toml
(`symptoms = ["nan-loss", ...]`, defined in `[symptom.<key>]` tables with a
title per language); the page docs/symptoms.md holds only the marker
`<!-- md:symptoms -->`, replaced here by a filter box, then one section per
group of symptoms (`[symptom_group.<key>]`: errors raised, wrong gradients,
training, eval), one subsection per symptom linking its candidate breaks.
`symptom_index` refuses an inconsistent catalogue, so the strict build (and
tests/test_symptoms.py) fails on a symptom no break shows, an undefined key,
a missing title, or a symptom in no group.

The filter (runner/pages/symptoms.js, loaded by this page only)
narrows the symptoms and breaks as the reader types, with no Python: the
page's own headings and links, marked here with data attributes, are what it
reads.

A break whose symptoms are not chosen yet (`symptoms = []`, as
`python -m minigrad.breaks new` writes it without `--symptom`) is listed under
its own heading at the end instead: the teacher can serve and read the new
page at once, and tests/test_symptoms.py, not the build, fails until they are
chosen.

Kept apart from minigrad_site/pages/catalogue.py (the break lists and the matrix) so the
two change independently.
"""

import html
import json
import posixpath

from minigrad.words import by_language
from minigrad_site.page import relative_url

from minigrad import breaks as catalogue
from minigrad.runner import markers

MARKERS = ("symptoms",)  # <!-- md:symptoms -->
LANGUAGES = ("en", "es")
PHASE = {lang: words["phase"] for lang, words in by_language("site.symptoms").items()}
NOT_CHOSEN = {lang: words["not_chosen"] for lang, words in by_language("site.symptoms").items()}  # anchor: #not-chosen-yet


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
        if read.symptom_group.get(key) not in read.symptom_groups:
            problems.append(f"symptom {key!r} is in no group (group = one of {', '.join(read.symptom_groups) or 'the [symptom_group.<key>] tables'})")
        if not any(key in b.symptoms for b in breaks):
            problems.append(f"symptom {key!r} is shown by no break")
    for group, titles in read.symptom_groups.items():
        problems += [f"symptom group {group!r} has no title.{lang}" for lang in LANGUAGES if not str(titles.get(lang, "")).strip()]
        if group not in read.symptom_group.values():
            problems.append(f"symptom group {group!r} has no symptom (an empty section in the index)")
    if problems:
        raise ValueError("catalogue.toml: " + "; ".join(problems))
    return [(key, titles, [b for b in breaks if key in b.symptoms]) for key, titles in symptoms.items()]


# A word a reader may type for a word the index uses (keys and words as the filter compares them:
# lower case, no accents). Spanish keeps "broadcasting" (the glossary), and a reader may say difusión.
SYNONYMS = {lang: words["synonyms"] for lang, words in by_language("site.symptoms").items()}

FILTER = {lang: words["filter"] for lang, words in by_language("site.symptoms").items()}


def filter_box(lang, page_url):
    """The filter's form (symptoms.js gives it life; without JavaScript it is hidden, the list is whole)."""
    words, esc = FILTER[lang], html.escape
    script = esc(relative_url("assets/minigrad/symptoms.js", page_url)) if page_url is not None else "symptoms.js"
    return "\n".join([
        f'<div class="mg-symptom-filter" data-mg="symptom-filter" data-synonyms="{esc(json.dumps(SYNONYMS[lang]))}" hidden>',
        f'<label for="mg-symptom-query">{esc(words["label"])}</label>',
        f'<input type="search" id="mg-symptom-query" class="md-input" autocomplete="off" spellcheck="false" '
        f'placeholder="{esc(words["placeholder"])}" aria-describedby="mg-symptom-hint mg-symptom-count">',
        f'<p id="mg-symptom-hint" class="mg-symptom-hint">{esc(words["hint"])}</p>',
        '<p id="mg-symptom-count" class="mg-symptom-count" role="status" aria-live="polite"></p>',
        "</div>",
        f'<script src="{script}"></script>',
        "",
    ])


def render(lang, page_dir="", text=None, page_url=None):
    """The markdown that replaces the marker, with links relative to the page's folder."""
    read = catalogue.load(text)
    index = symptom_index(text)
    lines = [filter_box(lang, page_url)]
    for group, titles in read.symptom_groups.items():
        members = [(key, symptom_titles, breaks) for key, symptom_titles, breaks in index if read.symptom_group[key] == group]
        lines += [f'## {titles[lang]} {{ #{group} data-mg="group" }}', ""]
        for key, symptom_titles, breaks in members:
            also = "; ".join(read.symptom_also.get(key, {}).get(lang, []))
            attribute = f' data-also="{html.escape(also)}"' if also else ""  # the filter finds the symptom by these too
            lines += _section(f'### {symptom_titles[lang]} {{ #{key} data-mg="symptom"{attribute} }}', breaks, lang, page_dir)
    if waiting := not_chosen(text):
        lines += _section(f"## {NOT_CHOSEN[lang]} {{ #not-chosen-yet }}", waiting, lang, page_dir)
    return "\n".join(lines)


def _section(heading, breaks, lang, page_dir):
    lines = [heading, ""]
    for b in breaks:
        link = posixpath.relpath(f"breaks/{b.slug}.md", page_dir or ".")
        lines.append(f"- [{b.title[lang]}]({link}) ({PHASE[lang]} {b.phase})")
    return lines + [""]


def check_catalogue():
    symptom_index()  # an inconsistent catalogue fails the build before any page is read


def transform(markdown, page):
    return markers.replace(markdown, {"symptoms": lambda: render(page.lang, page.src_dir, page_url=page.url)})
