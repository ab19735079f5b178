"""minigrad stays small enough to read in one sitting (tinygrad keeps a line budget too).

Each part has its own budget, counted in lines of code (tests/code_lines.py:
docstrings, comments and blank lines are free), and no file may grow past
~400 lines in all (minitorch's rule of thumb). Raise a number only with a
reason in the commit message: the history of these numbers is git's.
"""

from pathlib import Path

import pytest

from tests.code_lines import code_lines

PACKAGE = Path(__file__).resolve().parents[1] / "minigrad"
ENGINE = ["__init__.py", "scalar.py", "graph.py", "tensor.py", "functional.py", "nn.py", "optim.py", "gradcheck.py"]
BUDGETS = {  # part: (its files, its budget in lines of code)
    "the engine (what the breaks patch)": ([PACKAGE / n for n in ENGINE], 690),
    "the checks (minigrad/checks/)": (sorted((PACKAGE / "checks").rglob("*.py")), 800),
    "the doctor (minigrad/doctor/)": (sorted((PACKAGE / "doctor").rglob("*.py")), 540),
    "the breaks machinery (minigrad/breaks/)": (sorted((PACKAGE / "breaks").rglob("*.py")), 420),
    "the site's runner (minigrad/runner/)": (sorted((PACKAGE / "runner").rglob("*.py")), 360),
    "pictures (minigrad/viz.py)": ([PACKAGE / "viz.py"], 135),
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
