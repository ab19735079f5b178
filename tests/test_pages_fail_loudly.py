"""A page that claims something its code does not do fails, naming page and block.

Each test copies a real page, changes one thing a careless edit would change,
and runs the doc tests on the copy in a subprocess."""

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run_docs(page):
    return subprocess.run(
        # the copy lives outside the repo: load the project's settings and runner explicitly
        [sys.executable, "-m", "pytest", "-n", "0", "-p", "no:cacheprovider", "-q", "-c", "pyproject.toml", "--rootdir", str(ROOT), "-p", "conftest", str(page)],
        cwd=ROOT, capture_output=True, text=True,
    )


def mutated_copy(tmp_path, source, old, new):
    text = (ROOT / source).read_text(encoding="utf-8")
    assert old in text, f"{source} no longer contains {old!r}: update this test"
    page = tmp_path / Path(source).name
    page.write_text(text.replace(old, new, 1), encoding="utf-8")
    return page


def test_an_edited_healthy_output_fails_naming_page_and_line(tmp_path):
    page = mutated_copy(tmp_path, "docs/breaks/skip-unbroadcast.md", "a2.grad = [10. 35. 60.]", "a2.grad = [10. 35. 61.]")
    done = run_docs(page)
    assert done.returncode == 1
    assert re.search(rf"{re.escape(page.name)}:\d+: the healthy output shown at line \d+ is not what the block prints", done.stdout)
    assert "-a2.grad = [10. 35. 61.]" in done.stdout and "+a2.grad = [10. 35. 60.]" in done.stdout


def test_an_edited_broken_output_fails(tmp_path):
    page = mutated_copy(tmp_path, "docs/breaks/overwrite-grad.md", "a.grad = -6.0   (by hand: 4)", "a.grad = -7.0   (by hand: 4)")  # the output block, not the prose quoting it
    done = run_docs(page)
    assert done.returncode == 1 and "broken (overwrite-grad) output shown at line" in done.stdout


def test_a_wrong_declaration_of_the_broken_run_fails(tmp_path):
    page = mutated_copy(tmp_path, "docs/breaks/skip-unbroadcast.md", 'broken="raises ValueError: non-broadcastable output operand with shape (3,)"', 'broken="silent"')
    done = run_docs(page)
    assert done.returncode == 1 and "raised, and the block does not declare it" in done.stdout


def test_an_edited_diff_line_fails_naming_break_and_hunk(tmp_path):
    """A diff whose context no longer matches the source is stale: the message names break and hunk."""
    from minigrad.breaks import patch

    diff = (ROOT / "minigrad/breaks/skip-unbroadcast.diff").read_text()
    edited = diff.replace(" def _backward():", " def _backward():  # edited", 1)
    (fp,) = patch.parse(edited)
    source = (ROOT / fp.path).read_text()
    try:
        patch.apply(fp, source)
    except patch.PatchError as error:
        assert "hunk 1 of minigrad/tensor.py" in str(error)
    else:
        raise AssertionError("an edited context line still applied")
