"""`python -m minigrad.doctor`: targets, exit codes, and every kind of bad input."""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from minigrad.doctor.__main__ import main

from tests.learner_engines.harness import package_copy

CLASSIC = Path(__file__).parent / "learner_engines" / "classic" / "src" / "minigrad"
BACKWARD = "        self.grad = 1\n        for v in reversed(topo):\n"  # classic's engine.py, where backward starts the walk


def planted(tmp_path, slug, file):
    """One file of the classic style with `slug` planted: a learner's standalone engine file."""
    source = (package_copy("classic", tmp_path / "copy", slug) / file).read_text()
    (tmp_path / file).write_text(source)
    return tmp_path / file


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_a_missing_file_is_one_clear_line(capsys):
    code, out, err = run(capsys, "--scalar", "no/such/engine.py:Value")
    assert (code, out, err) == (2, "", "minigrad.doctor: no such file: no/such/engine.py\n")


def test_a_missing_class_is_one_clear_line_naming_the_classes_there(capsys):
    code, out, err = run(capsys, "--scalar", f"{CLASSIC}/engine.py:Valu")
    assert (code, out) == (2, "")
    assert err == f"minigrad.doctor: {CLASSIC}/engine.py has no 'Valu' (its classes: Value)\n"


def test_a_target_without_a_class_is_one_clear_line(capsys):
    code, out, err = run(capsys, "--tensor", "engine.py")
    assert (code, err) == (2, "minigrad.doctor: 'engine.py': expected path/to/file.py:ClassName or dotted.module:ClassName\n")


def test_a_missing_module_is_one_clear_line(capsys):
    code, out, err = run(capsys, "--scalar", "no_such_learner_module:Value")
    assert (code, err) == (2, "minigrad.doctor: no module named 'no_such_learner_module' importable from the current directory\n")


def test_no_engine_at_all_is_bad_usage(capsys):
    with pytest.raises(SystemExit) as exit:
        main([])
    assert exit.value.code == 2
    assert "give --engine DIR, or one of --scalar, --tensor, --nn, --optim, --functional" in capsys.readouterr().err


def test_a_file_that_fails_to_import_shows_its_own_traceback_only(capsys, tmp_path):
    (tmp_path / "engine.py").write_text("import math\n\n\ndef scale():\n    return 1 / 0\n\n\nSCALE = scale()\n")
    code, out, err = run(capsys, "--scalar", f"{tmp_path}/engine.py:Value")
    assert (code, out) == (2, "")
    assert err.startswith(f"minigrad.doctor: {tmp_path}/engine.py:Value: importing it raised ZeroDivisionError:\n"
                          "Traceback (most recent call last):\n")
    assert f'File "{tmp_path}/engine.py", line 8, in <module>' in err
    assert f'File "{tmp_path}/engine.py", line 5, in scale' in err
    assert err.endswith("ZeroDivisionError: division by zero\n")
    assert "importlib" not in err and "minigrad/doctor" not in err


def test_a_syntax_error_shows_where_it_is(capsys, tmp_path):
    (tmp_path / "engine.py").write_text("class Value:\n    def __init__(self, data)\n        pass\n")
    code, out, err = run(capsys, "--scalar", f"{tmp_path}/engine.py:Value")
    assert code == 2
    assert f'File "{tmp_path}/engine.py", line 2' in err and "SyntaxError" in err
    assert "Traceback" not in err  # none of the frames are the learner's


def test_a_file_in_a_package_named_minigrad_loads_with_its_relative_imports(capsys, tmp_path):
    package = tmp_path / "src" / "minigrad"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    shutil.copy(planted(tmp_path, "tanh-grad-from-input", "engine.py"), package / "engine.py")
    (package / "scalar.py").write_text("from .engine import Value\n")
    code, out, err = run(capsys, "--scalar", f"{package}/scalar.py:Value")
    assert code == 1, err
    assert f"Engine under test: Value = {package}/scalar.py:Value." in out
    assert "1. tanh's local gradient from the input (match 100%;" in out


def test_a_dotted_module_is_imported_from_the_current_directory(capsys, tmp_path, monkeypatch):
    shutil.copy(planted(tmp_path, "mean-forgets-n", "tensor.py"), tmp_path / "learner_tensor_engine.py")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", ".")])
    code, out, err = run(capsys, "--tensor", "learner_tensor_engine:Tensor")
    assert code == 1, err
    assert "1. mean's backward forgets to divide by N (match 100%;" in out
    assert "   page: http://127.0.0.1:8000/breaks/mean-forgets-n/" in out


def test_the_command_line_runs_as_a_module_and_prints_one_json_object(tmp_path):
    engine = planted(tmp_path, "no-output-seed", "engine.py")
    result = subprocess.run(
        [sys.executable, "-m", "minigrad.doctor", "--scalar", f"{engine}:Value", "--json"],
        capture_output=True, text=True, check=False,
    )
    assert result.returncode == 1, result.stderr
    assert json.loads(result.stdout)["suspects"][0]["slug"] == "no-output-seed"


def test_json_stays_one_object_when_the_learner_prints_on_import_and_in_backward(capsys, tmp_path):
    source = planted(tmp_path, "no-output-seed", "engine.py").read_text()
    walk = "        for v in reversed(topo):\n"
    (tmp_path / "noisy.py").write_text('print("loading my engine")\n' + source.replace(walk, "        print('backward!')\n" + walk))
    code, out, err = run(capsys, "--scalar", f"{tmp_path}/noisy.py:Value", "--json")
    assert code == 1
    assert json.loads(out)["suspects"][0]["slug"] == "no-output-seed"
    assert "loading my engine" in err and "backward!" in err


def test_an_endless_backward_is_reported_and_the_command_ends(capsys, tmp_path):
    source = planted(tmp_path, "no-output-seed", "engine.py").read_text()
    walk = "        for v in reversed(topo):\n"
    (tmp_path / "looping.py").write_text(source.replace(walk, "        while True:\n            pass\n" + walk))
    code, out, err = run(capsys, "--scalar", f"{tmp_path}/looping.py:Value", "--time-limit", "0.2")
    assert code == 1
    assert "timed out [run]: diamond (a*b + c) * (a - c) at 2, 3, 4: raised TimeoutError: stopped after 0.2 s (an endless loop?)" in out
    assert "Your engine did not finish Finite differences, case diamond (a*b + c) * (a - c), in its time (an endless loop?): fix that first." in out


@pytest.mark.parametrize("slug", ["topological-order-not-reversed", "overwrite-grad"])
def test_the_same_engine_gives_the_same_json_byte_for_byte(tmp_path, slug):
    """The classic style keeps a Value's children in a set, hashed by address: its order, and with a
    bug that depends on it its evidence, would change from run to run (issue 37, item 11)."""
    package = package_copy("classic", tmp_path, slug)
    command = [sys.executable, "-m", "minigrad.doctor", "--engine", str(package), "--json"]
    first, second = (subprocess.run(command, capture_output=True, text=True, cwd=Path(__file__).parents[1]) for _ in range(2))
    assert first.stdout and first.stdout == second.stdout
    assert json.loads(first.stdout)["diagnoses"][0]["slug"] == slug
