"""The progress page's list and its tools, rendered from the breaks catalogue.

docs/progress.md (and .es.md) hold the marker `<!-- md:progress -->`; it becomes the list of
every break (`data-mg="progress"`, one item per break with its page's link and phase), the
Export, Import and Reset buttons, and the script that fills the list from this browser's
localStorage (runner/progress-page.js, bundled by minigrad_site/build/minify_js.py), loaded by this page
only. Nothing is sent anywhere: the record never leaves the browser but as a file the
reader saves. The catalogue stays the only list of breaks.
"""

import html

from minigrad.words import by_language
from minigrad_site import ROOT
from minigrad_site.page import relative_url

from minigrad import breaks as catalogue
from minigrad.runner import markers
from minigrad.runner.predictions import parse, section

DOCS = ROOT / "docs"
MARKERS = ("progress",)  # <!-- md:progress -->
WORDS = by_language("site.progress")


def questions(slug):
    """How many prediction questions the break's page asks (the same in both languages)."""
    page = DOCS / "breaks" / f"{slug}.md"
    if not page.exists():
        return 0
    text = page.read_text(encoding="utf-8")
    span = section(text)
    return len(parse(text[span[0]:span[1]].split("\n"))[0]) if span else 0


def render(lang, page_url):
    words, esc = WORDS[lang], html.escape
    asset = lambda name: esc(relative_url(f"assets/minigrad/{name}", page_url))  # noqa: E731
    items = []
    for b in catalogue.catalogue():
        target = f"breaks/{b.slug}.md"  # a link to the page's source: MkDocs checks it and writes the URL (strict)
        items.append(
            f'<li data-break="{esc(b.slug)}" data-phase="{b.phase}" data-questions="{questions(b.slug)}" markdown="span">'
            f'[{b.title[lang]}]({target}) '
            f'<span class="mg-progress-phase">{esc(words["phase"])} {b.phase}</span> '
            f'<span class="mg-progress-state">{esc(words["not-started"])}</span></li>')
    return "\n".join([
        '<div class="mg-record" markdown="1">',
        f'<p class="mg-progress-needs-script">{esc(words["needs-script"])}</p>',
        '<p class="mg-progress-summary" role="status"></p>',
        f'<p class="mg-progress-tools" role="group" aria-label="{esc(words["tools"])}">',
        f'<button type="button" class="md-button mg-progress-export">{esc(words["export"])}</button>',
        f'<button type="button" class="md-button mg-progress-import">{esc(words["import"])}</button>',
        f'<button type="button" class="md-button mg-progress-reset">{esc(words["reset"])}</button>',
        f'<input type="file" class="mg-progress-file" accept=".json,application/json" hidden aria-label="{esc(words["import"])}">',
        "</p>",
        '<p class="mg-progress-confirm" hidden>',
        f'<span id="mg-progress-confirm-text">{esc(words["confirm"])}</span> ',
        f'<button type="button" class="md-button md-button--primary mg-progress-erase" aria-describedby="mg-progress-confirm-text">{esc(words["erase"])}</button>',
        f'<button type="button" class="md-button mg-progress-keep">{esc(words["keep"])}</button>',
        "</p>",
        '<p class="mg-progress-message" role="status" aria-live="polite"></p>',
        f'<ul class="mg-progress-list" data-mg="progress" aria-label="{esc(words["list"])}" markdown="1">',
        *items,
        "</ul>",
        f'<script src="{asset("progress-page.js")}"></script>',
        "</div>",
        "",
    ])


def transform(markdown, page):
    return markers.replace(markdown, {"progress": lambda: render(page.lang, page.url)})
