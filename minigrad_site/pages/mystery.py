"""The mystery break's controls, rendered from the breaks catalogue.

docs/mystery.md holds the marker `<!-- md:mystery -->`; it becomes a small form:
a phase choice, a "draw" button, the list of every break to guess from (each
option carries its phase and the URL of its page) and the place for the
verdict. runner/pages/mystery.js draws the hidden break among
those options and keeps it in a variable, never in the page; the runner asks
it which break to apply. The catalogue stays the only list of breaks.
"""

import html
import re

import markdown as python_markdown
from minigrad.words import by_language
from minigrad_site.page import relative_url

from minigrad import breaks as catalogue
from minigrad.runner import markers

MARKERS = ("mystery",)  # <!-- md:mystery -->
WORDS = by_language("site.mystery")


def breaks():
    """The catalogue's breaks, by phase then as listed: what can be drawn and guessed."""
    return catalogue.catalogue()


def href(slug, use_directory_urls=True):
    """A break page's URL relative to the mystery page (docs/mystery.md, at the docs root)."""
    return f"../breaks/{slug}/" if use_directory_urls else f"breaks/{slug}.html"


def plain(title):
    """A title's Markdown as the text it reads: an <option> holds text only, so its code spans
    and emphasis lose their marks (`__radd__` reads __radd__) instead of showing them raw."""
    return html.unescape(re.sub(r"<[^>]+>", "", python_markdown.markdown(title))).strip()


def render(lang, use_directory_urls=True, page_url=None):
    words, entries = WORDS[lang], breaks()
    esc = html.escape
    # Its styles and its script, on this page only (not in every page's budget); the minify plugin writes the .min.css.
    sheet = [f'<link rel="stylesheet" href="{esc(relative_url("assets/minigrad/mystery.min.css", page_url))}">',
             f'<script src="{esc(relative_url("assets/minigrad/mystery.js", page_url))}"></script>'] if page_url else []
    phases = sorted({b.phase for b in entries})
    names = catalogue.load().phases
    phase_options = [f'<option value="">{esc(words["any"])}</option>'] + [
        f'<option value="{p}">{esc(words["phase"])} {p}: {esc(names[p][lang])}</option>' for p in phases
    ]
    guesses = [
        f'<option value="{esc(b.slug)}" data-phase="{b.phase}" data-href="{esc(href(b.slug, use_directory_urls))}">'
        f'{esc(plain(b.title[lang]))}</option>'
        for b in entries
    ]
    return "\n".join(sheet + [
        f'<form class="mg-mystery" aria-label="{esc(words["form"])}" onsubmit="return false">',
        '<p class="mg-mystery-row">',
        f'<label>{esc(words["phase"])} <select class="mg-mystery-phase">{"".join(phase_options)}</select></label>',
        f'<button type="button" class="md-button mg-mystery-draw">{esc(words["draw"])}</button>',
        "</p>",
        f'<p class="mg-mystery-row"><label><input type="checkbox" class="mg-mystery-review"> {esc(words["review"])}</label></p>',
        '<p class="mg-mystery-status" role="status"></p>',
        '<p class="mg-mystery-row">',
        f'<label>{esc(words["guess"])} <select class="mg-mystery-guess">{"".join(guesses)}</select></label>',
        f'<button type="button" class="md-button md-button--primary mg-mystery-check">{esc(words["check"])}</button>',
        f'<button type="button" class="md-button mg-mystery-reveal">{esc(words["reveal"])}</button>',
        "</p>",
        '<p class="mg-mystery-verdict" role="status" aria-live="polite"></p>',
        "</form>",
        "",
    ])


def transform(markdown, page):
    return markers.replace(markdown, {"mystery": lambda: render(page.lang, page.use_directory_urls, page.url)})
