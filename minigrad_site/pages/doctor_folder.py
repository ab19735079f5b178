"""The doctor page's "Load a folder" controls.

docs/doctor.md (and .es.md) hold the marker `<!-- md:doctor-folder -->`; it
becomes a drop zone that is also the button opening a folder picker (`<input
type="file" webkitdirectory>`), a note saying what is read, and an output
panel built like a block's, in the page's language, with the script that
runs them (runner/pages/doctor-folder.js) and its styles, so
that no other page loads either. The limits on what is read are stated here
once: the note says them and the script reads them from the zone's data.
"""

import html

from minigrad.words import by_language
from minigrad_site.page import relative_url
from minigrad.runner import markers

MARKERS = ("doctor-folder",)  # <!-- md:doctor-folder -->
MAX_FILES = 100  # .py files read from the folder
MAX_BYTES = 1_000_000  # their size, in all
WORDS = by_language("site.doctor_folder")


def render(lang, page_url):
    words = WORDS[lang]
    esc = html.escape
    asset = lambda name: esc(relative_url(f"assets/minigrad/{name}", page_url))  # noqa: E731
    mb = f"{MAX_BYTES / 1e6:g}"
    return "\n".join([
        f'<div class="mg-folder" data-max-files="{MAX_FILES}" data-max-bytes="{MAX_BYTES}">',
        f'<link rel="stylesheet" href="{asset("doctor-folder.css")}">',
        f'<button type="button" class="mg-folder-zone" aria-describedby="mg-folder-note">{esc(words["zone"])}</button>',
        '<input type="file" class="mg-folder-input" webkitdirectory multiple hidden>',
        f'<p class="mg-folder-note" id="mg-folder-note">{words["note"].format(files=MAX_FILES, mb=mb)}</p>',
        '<div class="mg-runner mg-folder-run" hidden>',
        f'<div class="mg-toolbar" role="toolbar" aria-label="{esc(words["toolbar"])}">',
        f'<button type="button" class="md-button mg-stop" aria-disabled="true">{esc(words["stop"])}</button>',
        '<span class="mg-status" role="status"></span> <span class="mg-checking"></span>',
        "</div>",
        '<div class="mg-live">',
        f'<div class="mg-live-label" id="mg-folder-label">{esc(words["output"])}</div>',
        '<pre class="mg-output" tabindex="0" role="region" aria-labelledby="mg-folder-label"></pre>',
        "</div>",
        "</div>",
        f'<script src="{asset("doctor-folder.js")}"></script>',
        "</div>",
        "",
    ])


def transform(markdown, page):
    return markers.replace(markdown, {"doctor-folder": lambda: render(page.lang, page.url)})
