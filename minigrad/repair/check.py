"""Check a learner's repair of a break: what a page's "Repair it" runs when the reader presses Check.

The reader's text replaces the broken units (units.py) in the broken files, and minigrad is
imported from those sources inside `swapped`, as `applied(slug)` does for a break: nothing
is written, the healthy modules come back after. The checks that catch the break (the
matrix's row) run first, then every other one, so a repair that breaks something else is not
accepted either. Each check runs under the doctor's guard: a time limit where CPython has one,
Stop and a low recursion limit in the browser. The verdict goes to the page through
`minigrad_page.repaired` when there is a page; the report is printed in its language.
"""

import contextlib
import io
import json
import traceback
from typing import NamedTuple

from ..breaks import HERE as BREAKS_DIR, get, patched_sources, swapped
from ..words import by_language, section
from .units import compile_each, split, units

_WORDS = by_language("breaks_cli")  # Repair it speaks as the breaks CLI does (minigrad/words)
PRINTED_LIMIT = 2000  # characters of the reader's own prints shown under the report


class Outcome(NamedTuple):
    repaired: bool
    results: dict  # check name -> (passed, detail), in the order run
    problem: str = ""  # "headers", "syntax" or "import" when no check could run
    said: str = ""  # the report's verdict line (or why no check ran): the page's status line says it


def check(slug, text, lang=None, time_limit=3.0):
    """Print the report of `text` as a repair of `slug`; tell the page; return the Outcome."""
    page = _page()
    lang = lang or (str(page.language()) if page else "en")
    outcome = _checked(slug, text, lang, time_limit)
    if page is not None and hasattr(page, "repaired"):
        page.repaired(json.dumps({"slug": slug, "repaired": outcome.repaired, "problem": outcome.problem, "said": outcome.said,
                                  "checks": {k: v[0] for k, v in outcome.results.items()}}))
    return outcome


def substituted(slug, text):
    """{path: source} of the broken files with the reader's text in place of each unit."""
    found = units(slug)
    parts = split(text, found)
    sources = {path: source.splitlines() for path, source in patched_sources(slug).items()}
    for unit, part in sorted(zip(found, parts), key=lambda up: -up[0].lines[0]):
        first, last = unit.lines
        sources[unit.path][first - 1 : last] = [unit.indent + line if line.strip() else "" for line in part.splitlines()]
    return {path: "\n".join(lines) + "\n" for path, lines in sources.items()}


def _checked(slug, text, lang, time_limit):
    words = _WORDS[lang]
    try:
        compile_each(text)
    except SyntaxError as e:
        said = words["repair_syntax"].format(line=e.lineno, error=f"{type(e).__name__}: {e.msg}")
        print(said)
        return Outcome(False, {}, "syntax", said)
    try:
        changed = substituted(slug, text)
    except ValueError as e:
        said = words["repair_headers"].format(missing="; ".join(e.args[0]))
        print(said)
        return Outcome(False, {}, "headers", said)
    printed = io.StringIO()
    with swapped(f"your repair of {slug}", changed):
        try:
            with contextlib.redirect_stdout(printed):
                from minigrad.checks import DIAGNOSTICS, Engine
                from minigrad.doctor.guard import TimeLimit

                engine = Engine.minigrad(guard=TimeLimit(time_limit))
        except Exception as e:  # the reader's module-level code: their traceback, as any block's
            print(words["repair_import"])
            print("".join(traceback.format_exception_only(type(e), e)).rstrip())
            return Outcome(False, {}, "import", words["repair_import"].rstrip(":"))
        catching = get(slug).caught_by()
        order = catching + [name for name in DIAGNOSTICS if name not in catching]
        results = {}
        for name in order:
            if name == order[0]:
                print(words["repair_checks"].format(slug=slug))
            elif name == order[len(catching)] and catching:
                print("\n" + words["repair_others"])
            with contextlib.redirect_stdout(printed):
                verdict = DIAGNOSTICS[name](engine)
            results[name] = (verdict.passed, _detail(verdict, lang))
            print(f"  {'✓' if verdict.passed else '✗'} {name:21} {results[name][1]}")
    failed = sum(not passed for passed, _ in results.values())
    said = words["repair_repaired"] if not failed else words["repair_not_yet"].format(failed=failed, total=len(results))
    print("\n" + said)
    if printed.getvalue():
        print("\n" + words["repair_printed"] + "\n" + printed.getvalue()[:PRINTED_LIMIT])
    return Outcome(not failed, results, said=said)


def _detail(verdict, lang):
    from minigrad.checks.words import say

    word = section("repair_check", lang)[verdict.status]
    return f"{word}: {say(verdict.detail, lang)}"


def _page():
    try:
        import minigrad_page
    except ImportError:
        return None
    return minigrad_page
