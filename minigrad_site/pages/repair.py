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
from minigrad.words import by_language

WORDS = by_language("site.repair")


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
