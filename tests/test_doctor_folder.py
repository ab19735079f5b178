"""`--engine DIR` (and the page's check_folder): a learner's whole package, found by its files.

The learner's package here is a copy of minigrad's own engine files, laid out
as a learner's `src/minigrad/` (the same name as this package: the case that
must keep working), with each break of the catalogue planted by the breaks'
own patcher in turn.
"""

import json
import shutil
from pathlib import Path

import pytest

from minigrad import breaks
from minigrad.breaks import patch
from minigrad.doctor import check_folder
from minigrad.doctor.__main__ import main

PACKAGE = Path(__file__).resolve().parents[1] / "minigrad"
ENGINE_FILES = ["__init__.py", "scalar.py", "graph.py", "tensor.py", "nn.py", "optim.py", "functional.py"]


def learner_package(root, slug=None):
    package = root / "src" / "minigrad"
    package.mkdir(parents=True)
    for name in ENGINE_FILES:
        shutil.copy(PACKAGE / name, package / name)
    for fp in breaks.get(slug).file_patches() if slug else []:
        target = root / "src" / fp.path
        target.write_text(patch.apply(fp, target.read_text()))
    return package


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_a_healthy_package_called_minigrad_passes_with_exit_0(tmp_path, capsys):
    package = learner_package(tmp_path)
    code, out, err = run(capsys, "--engine", str(package))
    assert code == 0, out + err
    assert out.startswith(f"Engine under test: Value = {package}/scalar.py:Value, Tensor = {package}/tensor.py:Tensor, "
                          f"nn = {package}/nn.py, optim = {package}/optim.py, functional = {package}/functional.py.")
    assert "skipped" not in out and "Nothing caught" in out


def test_the_folder_above_a_single_package_means_that_package(tmp_path, capsys):
    package = learner_package(tmp_path, "sgd-sign-flipped")
    code, out, err = run(capsys, "--engine", str(package.parent), "--json")
    assert code == 1 and json.loads(out)["suspects"][0]["slug"] == "sgd-sign-flipped"


@pytest.mark.parametrize("slug", [b.slug for b in breaks.catalogue()])
def test_every_break_planted_in_a_learner_package_is_named_first(slug, tmp_path, capsys):
    diagnosis = check_folder(learner_package(tmp_path, slug))
    capsys.readouterr()
    assert diagnosis.suspects and diagnosis.suspects[0][0] == slug, diagnosis.suspects[:3]


def test_a_part_given_on_its_own_overrides_the_folders(tmp_path, capsys):
    package = learner_package(tmp_path)
    broken = learner_package(tmp_path / "other", "adamw-decay-in-the-gradient")
    code, out, err = run(capsys, "--engine", str(package), "--optim", str(broken / "optim.py"), "--json")
    assert code == 1 and json.loads(out)["suspects"][0]["slug"] == "adamw-decay-in-the-gradient"


def test_a_plain_folder_whose_files_import_each_other_by_name(tmp_path, capsys):
    """No __init__.py, `from tensor import Tensor`: the files see one another's classes."""
    package = learner_package(tmp_path, "dropout-on-in-eval")
    (package / "__init__.py").unlink()
    for path in package.glob("*.py"):
        path.write_text(path.read_text().replace("from .", "from "))
    code, out, err = run(capsys, "--engine", str(package), "--json")
    assert code == 1, err
    assert json.loads(out)["suspects"][0]["slug"] == "dropout-on-in-eval"


def test_a_missing_folder_is_one_clear_line(tmp_path, capsys):
    assert run(capsys, "--engine", str(tmp_path / "nope")) == (2, "", f"minigrad.doctor: no such folder: {tmp_path / 'nope'}\n")


def test_a_folder_without_an_engine_says_so_in_one_line(tmp_path, capsys):
    code, out, err = run(capsys, "--engine", str(tmp_path))
    assert (code, out, err) == (2, "", f"minigrad.doctor: {tmp_path} holds no Python file\n")
    (tmp_path / "notes.py").write_text("x = 1\n")
    code, out, err = run(capsys, "--engine", str(tmp_path))
    assert (code, out) == (2, "") and err.startswith(f"minigrad.doctor: {tmp_path} has no Value or Tensor class")


def test_a_module_that_fails_to_import_is_named_and_the_rest_is_checked(tmp_path, capsys):
    """Part by part (issue 37, item 9): nn.py raising on import takes nn away, not the whole run."""
    package = learner_package(tmp_path)
    (package / "nn.py").write_text((package / "nn.py").read_text() + "\nraise RuntimeError('half written')\n")
    code, out, err = run(capsys, "--engine", str(package))
    assert code == 0 and f"not loaded = {package}/nn.py (RuntimeError: half written)" in out
    assert "passed     Finite differences" in out and "your engine has no nn" in out
    assert f'File "{package}/nn.py"' in err and err.rstrip().endswith("RuntimeError: half written")
    assert "minigrad/doctor" not in err and "importlib" not in err


def test_a_package_where_nothing_imports_shows_the_learners_traceback_only(tmp_path, capsys):
    package = learner_package(tmp_path)
    for file in package.glob("*.py"):
        if file.name != "__init__.py":
            file.write_text("raise RuntimeError('half written')\n")
    code, out, err = run(capsys, "--engine", str(package))
    assert (code, out) == (2, "")
    assert "RuntimeError: half written" in err and "minigrad/doctor" not in err


def test_the_page_s_folder_run_says_a_folder_without_an_engine_and_an_import_error_in_one_line(tmp_path, capsys):
    """check_loaded_folder, the whole of what doctor-folder.js asks Python: the command line's words, no doctor frames."""
    from minigrad.doctor import check_loaded_folder

    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "readme.py").write_text("x = 1\n")
    assert check_loaded_folder(str(tmp_path / "notes")) is None
    out = capsys.readouterr().out
    assert out.startswith("minigrad.doctor: ") and out.count("\n") == 1, out
    package = learner_package(tmp_path / "broken")
    for file in package.glob("*.py"):
        if file.name != "__init__.py":
            file.write_text("raise ImportError('my typo')\n")
    assert check_loaded_folder(str(package)) is None
    out = capsys.readouterr().out
    assert out.startswith("minigrad.doctor: ") and "my typo" in out and "minigrad/doctor/" not in out, out
    (package / "tensor.py").write_text("raise ImportError('my typo')\n")
    (learner_package(tmp_path / "half") / "tensor.py").write_text("raise ImportError('my typo')\n")
    assert check_loaded_folder(str(tmp_path / "half" / "src" / "minigrad")) is not None
    assert "not loaded = " in capsys.readouterr().out
    assert check_loaded_folder(str(learner_package(tmp_path / "healthy"))).suspects == []
