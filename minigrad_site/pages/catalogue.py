"""Render the breaks catalogue and the diagnostics matrix into pages.

Pages hold markers, never copies: `<!-- md:breaks -->` (every break, by phase),
`<!-- md:breaks phase=8 -->` (one phase), `<!-- md:diagnostics-matrix -->` (the
table computed by tests/test_diagnostics_matrix.py). The catalogue
(minigrad/breaks/catalogue.toml) stays the single source of titles and phases.
A break the matrix has no row for yet (right after `python -m minigrad.breaks
new`) gets a row saying how to compute it, so the new page can be served at
once; tests/test_diagnostics_matrix.py fails until the row is computed.
"""

import posixpath
from html import escape

from minigrad import breaks as catalogue
from minigrad.runner import markers
from minigrad.words import by_language

MARKERS = ("breaks", "diagnostics-matrix")  # <!-- md:breaks -->, <!-- md:breaks phase=8 -->, <!-- md:diagnostics-matrix -->

WORDS = by_language("site.catalogue")

MARKS = {"caught": "✓", "missed": "○"}  # shapes that differ, always next to words that differ
COMPUTE = "uv run pytest --update-outputs tests/test_diagnostics_matrix.py"


def _link(page, slug):
    return posixpath.relpath(f"breaks/{slug}.md", page.src_dir or ".")


def _break_list(page, lang, phase=None):
    read = catalogue.load()
    words = WORDS[lang]
    lines = []
    for number in sorted({b.phase for b in read.breaks}) if phase is None else [phase]:
        if phase is None:
            lines += ["", f"**{words['phase']} {number}: {read.phases[number][lang]}**", ""]
        lines += [f"- [{b.title[lang]}]({_link(page, b.slug)})" for b in read.breaks if b.phase == number]
    if len(lines) == 0:
        lines = [words["none"]]
    return "\n".join(lines).strip("\n") + "\n"


def _matrix(page, lang):
    """The matrix as an HTML table (md_in_html renders the links): one row per
    break, one cell per diagnostic. Each cell is a <details>: its summary is a
    mark that differs in shape and in words (caught / missed), and opening it
    (touch, keyboard, mouse) shows what the diagnostic reported. The report is
    minigrad.checks' own English text, shown as evidence (code, lang=en)
    under a label in the page's language. matrix.css stacks each break's cells
    on narrow screens; the explicit ARIA roles keep it a table for screen
    readers when CSS changes the table's display."""
    read = catalogue.load()
    titles = read.diagnostics
    data = catalogue.matrix()
    words = WORDS[lang]
    names = data["diagnostics"]
    heads = "".join(f'<th scope="col" role="columnheader">{escape(titles[n][lang])}</th>' for n in names)
    # This page only, not every page's budget; the minify plugin (mkdocs.yml) writes the .min.css.
    sheet = escape(page.asset("assets/minigrad/matrix.min.css"))
    lines = [
        f'<link rel="stylesheet" href="{sheet}">',
        '<div class="mg-matrix" markdown="1">',
        '<table role="table" markdown="1">',
        f'<caption>{words["legend"]}</caption>',
        f'<thead role="rowgroup"><tr role="row"><th scope="col" role="columnheader">{words["break"]}</th>{heads}</tr></thead>',
        '<tbody role="rowgroup" markdown="1">',
    ]
    for b in read.breaks:
        lines += ['<tr role="row" markdown="1">', f'<th scope="row" role="rowheader" markdown="span">[{b.title[lang]}]({_link(page, b.slug)})</th>']
        if b.slug not in data["breaks"]:
            lines += [f'<td role="cell" class="mg-pending" colspan="{len(names)}">{words["pending"]} <code>{COMPUTE}</code></td>', "</tr>"]
            continue
        for n in names:
            cell = data["breaks"][b.slug][n]
            kind = "caught" if cell["caught"] else "missed"
            lines.append(
                f'<td role="cell" class="mg-{kind}" data-label="{escape(titles[n][lang])}"><details><summary>'
                f'<span class="mg-mark" aria-hidden="true">{MARKS[kind]}</span> {words[kind]}</summary>'
                f'<p>{words["reported"]} <code lang="en">{escape(cell["detail"])}</code></p></details></td>'
            )
        lines.append("</tr>")
    lines += ["</tbody>", "</table>", "</div>"]
    return "\n".join(lines) + "\n"


def transform(markdown, page):
    lang = page.lang

    return markers.replace(markdown, {
        "breaks": lambda phase=None: _break_list(page, lang, int(phase) if phase else None),
        "diagnostics-matrix": lambda: _matrix(page, lang),
    })
