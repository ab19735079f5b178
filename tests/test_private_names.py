"""No module reaches into another's private names (issue 22): what a module shares, it names
without a leading underscore. Checked over every Python file of the repository, tests and
scripts included, by reading their syntax trees: `from m import _x`, `from m._x import y`
and `m._x` on an imported module `m`."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SKIPPED_DIRS = {".venv", "node_modules", "site", ".git", "__pycache__"}
ALLOWED = {  # name: why a private name is the right one here
    "os._exit": "the standard library's documented way to end a process at once (the doctor's guard tests it)",
    "pytest_markdown_docs._runners": "the plugin's only way to register a custom runner (it has no public one, 0.9.2)",
}


def python_files():
    return sorted(p for p in ROOT.rglob("*.py") if not SKIPPED_DIRS & set(p.relative_to(ROOT).parts))


def private(name):
    return any(part.startswith("_") and not part.startswith("__") for part in name.split("."))


def private_uses(source):
    """(line, what) of each use of another module's private name in `source`."""
    tree, imported, found = ast.parse(source), set(), []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported |= {(a.asname or a.name).split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            if private(node.module or ""):
                found.append((node.lineno, node.module))
            for a in node.names:
                if private(a.name):
                    found.append((node.lineno, f"{node.module}.{a.name}"))
                imported.add(a.asname or a.name)
        elif isinstance(node, ast.ImportFrom):  # relative: a private name of a sibling is still private
            found += [(node.lineno, f".{a.name}") for a in node.names if private(a.name)]
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and private(node.attr) and isinstance(node.value, ast.Name) and node.value.id in imported:
            found.append((node.lineno, f"{node.value.id}.{node.attr}"))
    return [(line, what) for line, what in found if what not in ALLOWED]


def test_no_module_uses_another_modules_private_names():
    uses = [f"{p.relative_to(ROOT)}:{line}: {what}" for p in python_files() for line, what in private_uses(p.read_text(encoding="utf-8"))]
    assert not uses, "give these a public name:\n" + "\n".join(uses)


@pytest.mark.parametrize("source, expected", [
    ("from minigrad.nn import _rng\n", [(1, "minigrad.nn._rng")]),
    ("from minigrad import nn\nnn._rng = 3\n", [(2, "nn._rng")]),
    ("import minigrad.doctor.report as report\nreport._titles()\n", [(2, "report._titles")]),
    ("from . import _helper\n", [(1, "._helper")]),
    ("from pkg._inner import thing\n", [(1, "pkg._inner")]),
    ("class A:\n    def f(self):\n        return self._own\n", []),  # a class's own state is its business
    ("from m import public\npublic.__name__\n", []),  # dunders are public
    ("import os\nos._exit(3)\n", []),  # allowed, with its reason
])
def test_the_scan_finds_each_form_of_reaching_in(source, expected):
    assert private_uses(source) == expected
