"""The code a break touches, as whole functions: what a page's "Repair it" puts in the editor.

A break's diff changes a few lines; a learner repairs whole functions. Each hunk's changed
lines (in the broken file) are widened to the statements around them: a function or method
(a closure such as `_backward` stays inside its op), or, where lines were only deleted
between two methods (a `__radd__` removed), the method on each side. Units are named by
those statements (`Value.__truediv__`, `Value.__rmul__`), so the same names find the healthy
code in the healthy file, whatever the diff added or removed between them. Derived, never
written by hand: a teacher's new break gets its repair section from its diff alone.
"""

import ast
import re
import textwrap
from pathlib import Path
from typing import NamedTuple

from ..breaks import ROOT, get, patched_sources

HEADER = re.compile(r"^# === (?P<path>\S+): (?P<names>.+) ===[ \t]*$")  # one unit's first line in the editor


class Unit(NamedTuple):
    path: str  # "minigrad/tensor.py"
    names: tuple  # qualified names of its statements, in order: ("Tensor.mean",)
    broken: str  # its text in the broken file, dedented
    healthy: str  # the same statements in the healthy file, dedented
    indent: str  # what the file puts before each of its lines
    lines: tuple  # (first, last), 1-based, in the broken file
    changed: tuple  # line numbers (1-based, within `broken`) the break wrote
    missing: tuple  # line numbers (1-based, within `broken`) after which the break took lines out

    @property
    def header(self):
        return f"# === {self.path}: {', '.join(self.names)} ==="


def units(slug, root=ROOT):
    """The break's units, file by file, in file order."""
    found = []
    for fp in get(slug).file_patches():
        healthy_text = (Path(root) / fp.path).read_text(encoding="utf-8")
        broken_text = patched_sources(slug, root=root)[fp.path]
        spans = [_changed_span(h) for h in fp.hunks]
        statements = [_enclosing(ast.parse(broken_text), span) for span in spans]
        for names, span in _merged(statements, spans):
            found.append(_unit(fp.path, names, broken_text, healthy_text, span))
    return found


def editor_text(found):
    """What the editor starts with: each unit under its header line (the header says where it goes)."""
    return "\n\n".join(f"{u.header}\n{u.broken}" for u in found)


def healthy_text(found):
    return "\n\n".join(f"{u.header}\n{u.healthy}" for u in found)


def split(text, found):
    """The reader's text, unit by unit (each dedented), by the header lines, or all of it when there
    is one unit and no header. ValueError names what is missing, so the page can say how to fix it."""
    parts, current = {}, None
    for line in text.splitlines():
        header = HEADER.match(line)
        if header:
            current = (header["path"], header["names"].strip())
            parts[current] = []
        elif current is not None:
            parts[current].append(line)
        elif line.strip() and not line.lstrip().startswith("#"):
            current = ("", "")  # code before any header
            parts[current] = [line]
    if ("", "") in parts and len(found) == 1 and len(parts) == 1:
        return [textwrap.dedent("\n".join(parts[("", "")]))]
    missing = [u.header for u in found if (u.path, ", ".join(u.names)) not in parts]
    if missing:
        raise ValueError(missing)
    return [textwrap.dedent("\n".join(parts[(u.path, ", ".join(u.names))])).strip("\n") for u in found]


def compile_each(text):
    """Compile each unit's code on its own, dedented: a method pasted from a learner's class, with
    the class's indent, is a repair like any other. A SyntaxError's line is the editor's."""
    lines, first = text.splitlines(), 0
    for i in [n for n, line in enumerate(lines) if HEADER.match(line)] + [len(lines)]:
        try:
            compile(textwrap.dedent("\n".join(lines[first:i])), "<your repair>", "exec")
        except SyntaxError as e:
            e.lineno = (e.lineno or 1) + first
            raise
        first = i + 1


def _changed_span(hunk):
    """(first, last) lines of the broken file the hunk wrote; a pure deletion gives the empty span
    (n + 1, n): between line n and the next."""
    line = int(re.match(r"^@@ -\d+(?:,\d+)? \+(\d+)", hunk.header)[1])
    written, gap = [], None
    for tag, _ in hunk.lines:
        if tag == "+":
            written.append(line)
        if tag == "-" and gap is None:
            gap = line
        if tag != "-":
            line += 1
    return (written[0], written[-1]) if written else (gap, gap - 1)


def _enclosing(tree, span):
    """The qualified names of the statements the span falls in, widened as the module docstring says."""
    body, prefix = tree.body, ""
    while True:
        first, last = span
        inside = [s for s in body if _start(s) <= last and s.end_lineno >= first]
        if len(inside) == 1 and isinstance(inside[0], ast.ClassDef) and _start(inside[0]) < first:
            body, prefix = inside[0].body, f"{prefix}{inside[0].name}."
            continue
        if not inside:  # a gap between statements: the one on each side
            inside = [s for s in body if s.end_lineno < first][-1:] + [s for s in body if _start(s) > last][:1]
        return [f"{prefix}{_name(s)}" for s in inside]


def _merged(statements, spans):
    """Hunks inside the same statements are one unit."""
    out = []
    for names, span in zip(statements, spans):
        if out and set(names) & set(out[-1][0]):
            out[-1] = (list(dict.fromkeys(out[-1][0] + names)), out[-1][1])
        else:
            out.append((names, span))
    return out


def _unit(path, names, broken_text, healthy_text, span):
    first, last = _lines(ast.parse(broken_text), names)
    lines = broken_text.splitlines()[first - 1 : last]
    indent = re.match(r"[ \t]*", lines[0])[0]
    h_first, h_last = _lines(ast.parse(healthy_text), names)
    healthy = healthy_text.splitlines()[h_first - 1 : h_last]
    written, missing = _written_lines(broken_text, healthy_text, first, last)
    return Unit(path, tuple(names), textwrap.dedent("\n".join(lines)), textwrap.dedent("\n".join(healthy)), indent,
                (first, last), written, missing)


def _written_lines(broken_text, healthy_text, first, last):
    """(lines the healthy file does not have, lines after which it has more), 1-based within the unit:
    hint 2 points at them."""
    import difflib

    broken, healthy = broken_text.splitlines(), healthy_text.splitlines()
    changed, missing = set(), set()
    for tag, i1, i2, _, _ in difflib.SequenceMatcher(None, broken, healthy, autojunk=False).get_opcodes():
        if tag in ("replace", "delete"):
            changed.update(range(i1 + 1, i2 + 1))
        elif tag == "insert":
            missing.add(max(i1, first))  # the line above the gap
    inside = lambda lines: tuple(sorted(n - first + 1 for n in lines if first <= n <= last))  # noqa: E731
    return inside(changed), inside(missing)


def _lines(tree, names):
    """(first, last) line of the named statements, decorators included."""
    found = [s for s in _statements(tree.body, "") if s[0] in names]
    if len(found) != len(names):
        raise LookupError(f"cannot find {', '.join(names)}")
    return min(_start(s) for _, s in found), max(s.end_lineno for _, s in found)


def _statements(body, prefix):
    for s in body:
        yield f"{prefix}{_name(s)}", s
        if isinstance(s, ast.ClassDef):
            yield from _statements(s.body, f"{prefix}{s.name}.")


def _name(statement):
    if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return statement.name
    targets = getattr(statement, "targets", None) or [getattr(statement, "target", None)]
    named = [t.id for t in targets if isinstance(t, ast.Name)]
    return named[0] if named else f"<line {statement.lineno}>"


def _start(statement):
    return min([statement.lineno] + [d.lineno for d in getattr(statement, "decorator_list", [])])
