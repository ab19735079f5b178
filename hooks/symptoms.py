"""MkDocs hook: render the symptom index from the breaks catalogue.

A learner arrives with a symptom ("my loss is nan"), not a slug. Each break
declares its symptoms once, in minigrad/breaks/catalogue.toml
(`symptoms = ["nan-loss", ...]`, defined in `[symptom.<key>]` tables with a
title per language); the page docs/symptoms.md holds only the marker
`<!-- symptoms -->`, replaced here by one section per symptom linking its
candidate breaks. `symptom_index` refuses an incomplete catalogue, so the
strict build (and tests/test_symptoms.py) fails on a break without symptoms,
a symptom no break shows, an undefined key, or a missing title.

Kept apart from hooks/catalogue.py (the break lists and the matrix) so the
two change independently.
"""

import posixpath
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CATALOGUE = ROOT / "minigrad" / "breaks" / "catalogue.toml"
MARKER = "<!-- symptoms -->"
LANGUAGES = ("en", "es")
PHASE = {"en": "phase", "es": "fase"}


def symptom_index(text=None):
    """[(key, {lang: title}, [break entries])] in catalogue order; ValueError if incomplete."""
    data = tomllib.loads(CATALOGUE.read_text(encoding="utf-8") if text is None else text)
    symptoms, breaks = data.get("symptom", {}), sorted(data["break"], key=lambda b: b["phase"])
    problems = []
    for b in breaks:
        declared = b.get("symptoms", [])
        if not declared:
            problems.append(f"break {b['slug']!r} declares no symptoms")
        problems += [f"break {b['slug']!r} names an undefined symptom {k!r}" for k in declared if k not in symptoms]
    for key, table in symptoms.items():
        titles = table.get("title", {})
        problems += [f"symptom {key!r} has no title.{lang}" for lang in LANGUAGES if not str(titles.get(lang, "")).strip()]
        if not any(key in b.get("symptoms", []) for b in breaks):
            problems.append(f"symptom {key!r} is shown by no break")
    if problems:
        raise ValueError("catalogue.toml: " + "; ".join(problems))
    return [(key, table["title"], [b for b in breaks if key in b["symptoms"]]) for key, table in symptoms.items()]


def render(lang, page_dir=""):
    """The markdown that replaces the marker, with links relative to the page's folder."""
    lines = []
    for key, titles, breaks in symptom_index():
        lines += [f"## {titles[lang]} {{ #{key} }}", ""]
        for b in breaks:
            link = posixpath.relpath(f"breaks/{b['slug']}.md", page_dir or ".")
            lines.append(f"- [{b['title'][lang]}]({link}) ({PHASE[lang]} {b['phase']})")
        lines.append("")
    return "\n".join(lines)


def on_config(config):
    symptom_index()  # an incomplete catalogue fails the build before any page is read
    return config


def on_page_markdown(markdown, page, config, files):
    if MARKER not in markdown:
        return markdown
    lang = getattr(page.file, "locale_alternate_of", None) or config.theme.get("language", "en")
    lang = lang if lang in LANGUAGES else "en"
    return markdown.replace(MARKER, render(lang, posixpath.dirname(page.file.src_uri)))
