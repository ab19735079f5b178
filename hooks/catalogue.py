"""MkDocs hook: render the breaks catalogue and the diagnostics matrix into pages.

Pages hold markers, never copies: `<!-- breaks -->` (every break, by phase),
`<!-- breaks phase=8 -->` (one phase), `<!-- diagnostics-matrix -->` (the
table computed by tests/test_diagnostics_matrix.py). The catalogue
(minigrad/breaks/catalogue.toml) stays the single source of titles and phases.
"""

import json
import posixpath
import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BREAKS = ROOT / "minigrad" / "breaks"
MARKER = re.compile(r"<!-- (breaks(?: phase=(\d+))?|diagnostics-matrix) -->")

WORDS = {
    "en": {"phase": "Phase", "break": "Break", "caught": "caught", "missed": "missed",
           "none": "No break in this phase yet.", "names": {7: "scalar autograd", 8: "tensors and broadcasting", 9: "modules", 10: "normalization"}},
    "es": {"phase": "Fase", "break": "Rotura", "caught": "lo detecta", "missed": "no lo detecta",
           "none": "Todavía no hay roturas en esta fase.", "names": {7: "autograd escalar", 8: "tensores y broadcasting", 9: "módulos", 10: "normalización"}},
}


def _catalogue():
    data = tomllib.loads((BREAKS / "catalogue.toml").read_text(encoding="utf-8"))
    return sorted(data["break"], key=lambda b: b["phase"]), data["diagnostic"]


def _link(page, slug):
    here = posixpath.dirname(page.file.src_uri)
    return posixpath.relpath(f"breaks/{slug}.md", here or ".")


def _break_list(page, lang, phase=None):
    breaks, _ = _catalogue()
    words = WORDS[lang]
    lines = []
    for number in sorted({b["phase"] for b in breaks}) if phase is None else [phase]:
        if phase is None:
            lines += ["", f"**{words['phase']} {number}: {words['names'][number]}**", ""]
        lines += [f"- [{b['title'][lang]}]({_link(page, b['slug'])})" for b in breaks if b["phase"] == number]
    if len(lines) == 0:
        lines = [words["none"]]
    return "\n".join(lines).strip("\n") + "\n"


def _matrix(page, lang):
    breaks, titles = _catalogue()
    data = json.loads((BREAKS / "matrix.json").read_text(encoding="utf-8"))
    words = WORDS[lang]
    names = data["diagnostics"]
    header = f"| {words['break']} | " + " | ".join(titles[n]["title"][lang] for n in names) + " |"
    rows = [header, "|---|" + "---|" * len(names)]
    for b in breaks:
        cells = []
        for n in names:
            cell = data["breaks"][b["slug"]][n]
            mark = f"**{words['caught']}**" if cell["caught"] else words["missed"]
            detail = cell["detail"].replace("|", "\\|").replace('"', "&quot;")
            cells.append(f'<span title="{detail}" markdown>{mark}</span>')
        rows.append(f"| [{b['title'][lang]}]({_link(page, b['slug'])}) | " + " | ".join(cells) + " |")
    return "\n".join(rows) + "\n"


def on_page_markdown(markdown, page, config, files):
    lang = getattr(page.file, "locale_alternate_of", None) or config.theme.get("language", "en")
    lang = lang if lang in WORDS else "en"

    def render(match):
        if match.group(1) == "diagnostics-matrix":
            return _matrix(page, lang)
        return _break_list(page, lang, int(match.group(2)) if match.group(2) else None)

    return MARKER.sub(render, markdown)
