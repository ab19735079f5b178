"""The catalogue's diffs apply to today's source, in isolation and through the CLI."""

import shutil
import subprocess
import sys

import pytest
from learner_cli import cli as run_cli

import minigrad.tensor
from minigrad import breaks
from minigrad.breaks import ROOT, patch

SLUGS = [b.slug for b in breaks.catalogue()]


@pytest.mark.parametrize("slug", SLUGS)
def test_diff_applies_cleanly_to_todays_source(slug):
    """A refactor of minigrad that makes a break stale fails here, naming the break."""
    brk = breaks.get(slug)
    for fp in brk.file_patches():
        assert fp.path == brk.target, f"{slug}: diff edits {fp.path}, catalogue says {brk.target}"
        source = (ROOT / fp.path).read_text()
        for number, hunk in enumerate(fp.hunks, 1):
            expected = hunk.old_start - 1
            have = source.splitlines(keepends=True)[expected : expected + len(hunk.before())]
            assert have == hunk.before(), f"{slug}: hunk {number} ({hunk.header}) is stale against {fp.path}"
        assert patch.apply(fp, source) != source


@pytest.mark.parametrize("slug", SLUGS)
def test_git_agrees_the_diff_applies(slug):
    if shutil.which("git") is None:
        pytest.skip("git is not installed; the strict applier above is the check")
    check = subprocess.run(["git", "apply", "--check", str(breaks.get(slug).diff_path)], cwd=ROOT, capture_output=True, text=True)
    assert check.returncode == 0, check.stderr


@pytest.mark.parametrize("slug", SLUGS)
def test_catalogue_entry_is_complete(slug):
    brk = breaks.get(slug)
    assert brk.phase in (7, 8, 9, 10)
    assert set(brk.title) == {"en", "es"} and all(brk.title.values())


def test_applied_is_isolated_and_restores_healthy_modules():
    healthy_tensor = sys.modules["minigrad.tensor"]
    with breaks.applied("skip-unbroadcast") as broken:
        assert broken.tensor is not healthy_tensor
        import minigrad.tensor as inside

        assert inside is broken.tensor
        assert inside.Tensor.__add__.__code__.co_filename == "<broken by skip-unbroadcast>/minigrad/tensor.py"
    import minigrad.tensor as after

    assert after is healthy_tensor is minigrad.tensor
    assert "unbroadcast(out.grad, a.shape)" in (ROOT / "minigrad/tensor.py").read_text()


def test_applied_restores_modules_after_an_exception():
    healthy = sys.modules["minigrad.scalar"]
    with pytest.raises(ZeroDivisionError):
        with breaks.applied("overwrite-grad"):
            1 / 0
    assert sys.modules["minigrad.scalar"] is healthy


def test_broken_traceback_shows_the_broken_line():
    import traceback

    import numpy as np

    with breaks.applied("skip-unbroadcast"):
        from minigrad.tensor import Tensor

        a = Tensor(np.ones(3), requires_grad=True)
        with pytest.raises(ValueError) as info:
            (a + Tensor(np.ones((4, 3)))).sum().backward()
    assert "a.grad += out.grad" in "".join(traceback.format_tb(info.tb))


def test_unknown_slug_names_the_known_ones():
    with pytest.raises(KeyError, match="overwrite-grad"):
        breaks.get("no-such-break")


# ---- the learner's CLI, on a private copy of the working tree ----------------


def cli(tree, *argv):
    """(exit code, everything it printed)."""
    code, out, err = run_cli(tree, *argv)
    return code, out + err


@pytest.mark.parametrize("slug", SLUGS)
def test_apply_then_revert_restores_bytes(tree, slug):
    target = tree / breaks.get(slug).target
    original = target.read_bytes()
    assert cli(tree, "apply", slug) == (0, f"applied {slug}: edited {breaks.get(slug).target}\n")
    assert target.read_bytes() != original
    assert "applied" in cli(tree, "status")[1]
    assert cli(tree, "revert", slug)[0] == 0
    assert target.read_bytes() == original
    assert cli(tree, "status") == (0, "no break applied: minigrad is healthy\n")


def test_apply_twice_and_revert_unapplied_are_refused(tree):
    assert cli(tree, "revert", "skip-unbroadcast") == (
        1,
        "error: skip-unbroadcast is not applied: minigrad/tensor.py already has the healthy code\n",
    )
    cli(tree, "apply", "skip-unbroadcast")
    code, message = cli(tree, "apply", "skip-unbroadcast")
    assert code == 1 and "already applied" in message


def test_learner_edit_in_a_hunk_is_never_overwritten(tree):
    target = tree / "minigrad/tensor.py"
    edited = target.read_text().replace("b.grad += unbroadcast(out.grad, b.shape)", "b.grad += unbroadcast(out.grad, b.shape)  # mine")
    target.write_text(edited)
    code, message = cli(tree, "apply", "skip-unbroadcast")
    assert code == 1
    assert "hunk 1 of minigrad/tensor.py" in message and "nothing was changed" in message
    assert target.read_text() == edited


def test_learner_edit_elsewhere_survives_apply_and_revert(tree):
    target = tree / "minigrad/tensor.py"
    edited = "# my notes\n# more notes\n" + target.read_text()
    target.write_text(edited)
    assert cli(tree, "apply", "skip-unbroadcast")[0] == 0
    assert target.read_text().startswith("# my notes")
    assert cli(tree, "revert", "skip-unbroadcast")[0] == 0
    assert target.read_text() == edited


def test_crlf_file_keeps_its_line_endings(tree):
    target = tree / "minigrad/tensor.py"
    crlf = target.read_bytes().replace(b"\n", b"\r\n")
    target.write_bytes(crlf)
    assert cli(tree, "apply", "skip-unbroadcast")[0] == 0
    assert b"a.grad += out.grad\r\n" in target.read_bytes()
    assert cli(tree, "revert", "skip-unbroadcast")[0] == 0
    assert target.read_bytes() == crlf


def test_unknown_slug_and_missing_file(tree):
    code, message = cli(tree, "apply", "nope")
    assert code == 2 and "known breaks: overwrite-grad" in message
    (tree / "minigrad/scalar.py").unlink()
    code, message = cli(tree, "apply", "overwrite-grad")
    assert code == 1 and "minigrad/scalar.py not found" in message


def test_list_and_show(tree):
    code, listing = cli(tree, "--lang", "es", "list")
    assert code == 0 and "Reemplazar += con = en _backward" in listing
    code, shown = cli(tree, "show", "overwrite-grad")
    assert code == 0 and shown.endswith(breaks.get("overwrite-grad").diff_text())


def test_cli_runs_as_a_module():
    done = subprocess.run([sys.executable, "-m", "minigrad.breaks", "list"], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0 and "skip-unbroadcast" in done.stdout


SEED_PROCEDURE = """
import numpy as np
from minigrad.tensor import Tensor
a2 = Tensor(np.array([[1.0], [2.0], [3.0]]), requires_grad=True)
b2 = Tensor(np.ones((3, 5)), requires_grad=True)
((a2 + b2) * Tensor(np.arange(15).reshape(3, 5))).sum().backward()
print(a2.grad.ravel())
"""


def test_a_learner_applies_runs_sees_the_failure_reverts_and_sees_it_pass(tree):
    """The whole loop, as a new user types it: the CLI and `python -c` in a clone."""

    def python(*args):
        return subprocess.run([sys.executable, *args], cwd=tree, capture_output=True, text=True)

    assert python("-c", SEED_PROCEDURE).stdout == "[10. 35. 60.]\n"
    applied = python("-m", "minigrad.breaks", "apply", "skip-unbroadcast")
    assert applied.returncode == 0 and "applied skip-unbroadcast" in applied.stdout
    broken = python("-c", SEED_PROCEDURE)
    assert broken.returncode == 1
    assert "a.grad += out.grad" in broken.stderr  # the traceback points at the broken line
    assert "ValueError: non-broadcastable output operand with shape (3,1)" in broken.stderr
    assert "skip-unbroadcast" in python("-m", "minigrad.breaks", "status").stdout
    assert python("-m", "minigrad.breaks", "revert", "skip-unbroadcast").returncode == 0
    assert python("-c", SEED_PROCEDURE).stdout == "[10. 35. 60.]\n"
