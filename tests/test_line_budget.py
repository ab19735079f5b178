"""minigrad stays small enough to read in one sitting (tinygrad keeps a line budget too).

Each part has its own budget, counted in lines of code (tests/code_lines.py:
docstrings, comments and blank lines are free), and no file may grow past
~400 lines in all (minitorch's rule of thumb). Raise a number only with a
reason in the commit message: the history of these numbers is git's.
"""

import re
from pathlib import Path

import pytest

from tests.code_lines import code_lines

PACKAGE = Path(__file__).resolve().parents[1] / "minigrad"
ENGINE = ["__init__.py", "scalar.py", "graph.py", "tensor.py", "functional.py", "nn.py", "optim.py", "gradcheck.py"]
BUDGETS = {  # part: (its files, its budget in lines of code)
    "the engine (what the breaks patch)": ([PACKAGE / n for n in ENGINE], 690),
    "the checks (minigrad/checks/)": (sorted((PACKAGE / "checks").rglob("*.py")), 1150),
    "the doctor (minigrad/doctor/)": (sorted((PACKAGE / "doctor").rglob("*.py")), 1120),
    "the breaks machinery (minigrad/breaks/)": (sorted((PACKAGE / "breaks").rglob("*.py")), 420),
    "repairing a break (minigrad/repair/)": (sorted((PACKAGE / "repair").rglob("*.py")), 220),
    "the site's runner (minigrad/runner/)": (sorted((PACKAGE / "runner").rglob("*.py")), 450),
    "pictures (minigrad/viz.py)": ([PACKAGE / "viz.py"], 135),
    "the words reader (minigrad/words/)": (sorted((PACKAGE / "words").rglob("*.py")), 40),
}
FILE_BUDGET = 400


def lines(path):
    return len(path.read_text(encoding="utf-8").splitlines())


@pytest.mark.parametrize("part", BUDGETS)
def test_each_part_stays_within_its_budget(part):
    files, budget = BUDGETS[part]
    total = sum(code_lines(p.read_text(encoding="utf-8")) for p in files)
    assert total <= budget, f"{part} has {total} lines of code, its budget is {budget}"


def test_every_module_has_a_budget():
    budgeted = {p for files, _ in BUDGETS.values() for p in files}
    unbudgeted = [p.relative_to(PACKAGE).as_posix() for p in PACKAGE.rglob("*.py") if p not in budgeted]
    assert not unbudgeted, f"give these a part in BUDGETS: {unbudgeted}"


@pytest.mark.parametrize("path", sorted(PACKAGE.rglob("*.py")), ids=lambda p: p.relative_to(PACKAGE).as_posix())
def test_no_file_is_too_long_to_read(path):
    assert lines(path) <= FILE_BUDGET, f"{path.name} has {lines(path)} lines (more than {FILE_BUDGET}): split it by concept"


def test_code_lines_leave_docstrings_comments_and_blank_lines_out():
    source = '"""Module doc."""\n\n# a comment\ndef f(x):\n    """Why."""\n    return (x +\n            1)  # trailing\n'
    assert code_lines(source) == 3


def hand_written_scripts():
    root = PACKAGE.parent
    skipped = {"node_modules", "site", ".venv", ".git"}
    found = [p for ext in ("*.js", "*.mjs") for p in root.rglob(ext) if not skipped & set(p.relative_to(root).parts)]
    return sorted(found)  # none is generated: esbuild writes the bundles into the built site only


@pytest.mark.parametrize("path", hand_written_scripts(), ids=lambda p: p.relative_to(PACKAGE.parent).as_posix())
def test_no_hand_written_script_is_too_long_to_read(path):
    """The same rule for the site's JavaScript: runner/ is split by concept, as Material's front end is."""
    assert lines(path) <= FILE_BUDGET, f"{path.name} has {lines(path)} lines (more than {FILE_BUDGET}): split it by concept"


# A literal handed to Python, or a string that opens a Python statement beyond a call (a line of a
# program kept in JavaScript): runPython("..."), a template of Python lines, "try:", "from x import y", ...
PYTHON_IN_JS = re.compile(r"runPython(Async)?\(\s*[`\"']|= `\s*\n\s*(import|from|def) "
                          r"|[`\"'](from [\w.]+ import |try:|except\b|def \w+\(|class \w+[(:]|with [\w.]+\(|for \w+ in )")


def python_in_javascript(text):
    return [m.group(0).strip() for m in PYTHON_IN_JS.finditer(text)]


def test_no_python_source_lives_in_a_javascript_string():
    """Python the browser runs is a .py file (linted, counted, tested): minigrad/runner/worker.py."""
    hits = {p.name: python_in_javascript(p.read_text(encoding="utf-8")) for p in hand_written_scripts()}
    assert not {name: found for name, found in hits.items() if found}


def test_python_in_javascript_is_found_in_each_form():
    assert python_in_javascript("const PRELUDE = `\nimport json\n`;")
    assert python_in_javascript("py.runPython(`import sys`);") and python_in_javascript('py.runPythonAsync("x = 1")')
    assert not python_in_javascript("pyodide.runPython(code); py.pyimport('sys')")
    assert python_in_javascript('const code = ["from minigrad.doctor import check_folder", "try:"].join("\\n");')
    assert python_in_javascript("lines.push('except TargetError as e:');")
    assert not python_in_javascript("const code = `import minigrad.doctor\\nminigrad.doctor.check_loaded_folder(${path})`;")
