"""Every break page's "Repair it" section, after its Lesson.

Written from the break itself, never by hand, so a teacher's new break gets one: the broken
functions its diff touches (minigrad.repair.units) in a Python block that the runner turns
into an editor with Check (`data-repair`), and three hints, each folded: where to look (the
functions and the checks that catch the break, from the matrix), what is wrong (the break's
title and the lines it wrote) and the fix (the diff from the broken functions to the healthy
ones, which is the break's diff reversed). Check runs minigrad.repair in the browser.
Runs before minigrad_site/pages/fences.py, which gives the block its index like any other.
"""

import difflib
import html
import re

from minigrad import breaks as catalogue
from minigrad.repair.units import editor_text, units

WORDS = {
    "en": {
        "title": "Repair it",
        "intro": "Below is the code the break leaves in {where}. Fix it in the editor and press **Check**: "
                 "your browser runs, on minigrad with your code in place of the broken one, the checks that "
                 "catch this break and then every other one. When all of them pass, it is repaired. "
                 "Try it before you open the hints.",
        "headers": " Keep each `# ===` line: it says where the code under it goes.",
        "where": "Hint 1: where to look",
        "wrong": "Hint 2: what is wrong",
        "fix": "Hint 3: the fix",
        "look": "Look at {where}. The checks that catch it: {checks}. Press **Check** and read what they say.",
        "look-unmeasured": "Look at {where}. No check is known to catch it yet (the diagnostics matrix has no row "
                           "for it: `uv run pytest --update-outputs tests/test_diagnostics_matrix.py` makes one). Press **Check** and read what the checks say.",
        "wrote": "{title}. The break wrote {lines}:",
        "line": "this line", "lines": "these lines",
        "missing": "Something is missing after {line}.",
        "fixed": "The healthy code, as a diff from the broken one (the break's diff reversed):",
        "and": "and",
    },
    "es": {
        "title": "Repáralo",
        "intro": "Abajo está el código que la rotura deja en {where}. Arréglalo en el editor y pulsa **Comprobar**: "
                 "tu navegador ejecuta, en minigrad con tu código en lugar del roto, las comprobaciones que "
                 "detectan esta rotura y después todas las demás. Cuando todas pasan, está reparado. "
                 "Inténtalo antes de abrir las pistas.",
        "headers": " Conserva cada línea `# ===`: dice adónde va el código que tiene debajo.",
        "where": "Pista 1: dónde mirar",
        "wrong": "Pista 2: qué está mal",
        "fix": "Pista 3: el arreglo",
        "look": "Mira {where}. Las comprobaciones que la detectan: {checks}. Pulsa **Comprobar** y lee lo que dicen.",
        "look-unmeasured": "Mira {where}. Aún no se sabe qué comprobación la detecta (la matriz de diagnósticos no tiene "
                           "fila para ella: `uv run pytest --update-outputs tests/test_diagnostics_matrix.py` la crea). Pulsa **Comprobar** y lee lo que dicen las comprobaciones.",
        "wrote": "{title}. La rotura escribió {lines}:",
        "line": "esta línea", "lines": "estas líneas",
        "missing": "Falta algo después de {line}.",
        "fixed": "El código sano, como un diff desde el roto (el diff de la rotura, invertido):",
        "and": "y",
    },
}


def section(slug, lang):
    """The section's Markdown, in `lang`."""
    words, found = WORDS[lang], units(slug)
    brk = catalogue.get(slug)
    paths = {u.path: [] for u in found}
    for u in found:
        paths[u.path] += [f"`{name}`" for name in u.names]
    where = _listed([f"{_listed(names, words)} (`{path}`)" for path, names in paths.items()], words)
    fence = "`" * 3
    lines = [f"## {words['title']} {{ #repair }}", "",
             f'<div class="mg-repair" data-mg="repair" data-break="{html.escape(slug)}" markdown="1">', "",
             words["intro"].format(where=where) + (words["headers"] if len(found) > 1 else ""), "",
             f'{fence}{{.python data-repair="{slug}"}}', editor_text(found), fence, "",
             f'??? tip "{words["where"]}"', "",
             "    " + _look(where, brk.caught_by(), words), "",
             f'??? tip "{words["wrong"]}"', "", *_indented(_what_is_wrong(found, brk.title[lang], words)), "",
             f'??? tip "{words["fix"]}"', "", "    " + words["fixed"], "", f"    {fence}diff",
             *("    " + line for line in _fix(found)), f"    {fence}", "", "</div>", ""]
    return "\n".join(lines)


def _look(where, caught_by, words):
    """Hint 1; a teacher's new break has no matrix row until the matrix is made again."""
    if not caught_by:
        return words["look-unmeasured"].format(where=where)
    return words["look"].format(where=where, checks=_listed([f"`{c}`" for c in caught_by], words))


def _what_is_wrong(found, title, words):
    wrote = [line for u in found for n in u.changed if (line := u.broken.splitlines()[n - 1].strip())]
    missing = [_above(u, n) for u in found for n in u.missing]
    text = []
    if wrote:
        shown = "\n".join(f"- `{line}`" for line in dict.fromkeys(wrote))  # code spans: a fence here would be a runnable block
        text.append(words["wrote"].format(title=_sentence(title), lines=words["line" if len(set(wrote)) == 1 else "lines"]) + "\n\n" + shown)
    else:
        text.append(_sentence(title) + ".")
    for line in dict.fromkeys(missing):
        text.append(words["missing"].format(line=f"`{line}`"))
    return "\n\n".join(text)


def _above(unit, n):
    """The nearest line with code at or above line n of the unit: where something was taken out."""
    lines = unit.broken.splitlines()
    return next((lines[i].strip() for i in range(n - 1, -1, -1) if lines[i].strip()), lines[0].strip())


def _fix(found):
    out = []
    for u in found:
        out += [line.rstrip("\n") for line in difflib.unified_diff(
            u.broken.splitlines(), u.healthy.splitlines(), f"broken/{u.path}", f"healthy/{u.path}", n=2, lineterm="")]
    return out


def _sentence(title):
    """A title as the start of a sentence: its Markdown kept (code spans), without a final stop."""
    return re.sub(r"[.\s]+$", "", title)


def _listed(items, words):
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} {words['and']} {items[-1]}"


def _indented(text):
    return ["    " + line if line else "" for line in text.splitlines()]


def transform(markdown, page):
    if not page.break_slug:
        return markdown
    repair = section(page.break_slug, page.lang)
    references = re.search(r"^## .*\{ *#references *\}", markdown, flags=re.M)
    if references is None:
        return markdown.rstrip("\n") + "\n\n" + repair
    return markdown[: references.start()] + repair + "\n" + markdown[references.start():]
