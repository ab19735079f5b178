"""The doctor on an engine written here the ways real learners' engines differ from the course's
(tests/doctor_engines/torchlike: files named core.py, layers.py and optimizers.py; `require_grad`;
the array behind a `data()` method; the gradient kept as a Tensor in float32 while the data is
float64; children in a set, Kahn's order; sum() over the last axis by default; layers with forward()
and no Sequential; a CrossEntropyLoss class and ReLU only; no functional module). Healthy, it gets
no diagnosis; with each bug of planted.py, that bug is its one diagnosis (issue 37)."""

import json
import shutil

import pytest

from minigrad.doctor.__main__ import main
from tests.doctor_engines.torchlike.planted import BUGS

from pathlib import Path

ENGINE = Path(__file__).parent / "doctor_engines" / "torchlike" / "mygrad"


def _copy(tmp_path, slug=None):
    package = tmp_path / "mygrad"
    shutil.copytree(ENGINE, package, ignore=shutil.ignore_patterns("__pycache__"))
    if slug:
        file, old, new = BUGS[slug]
        text = (package / file).read_text(encoding="utf-8")
        assert text.count(old) == 1, f"{slug}: its healthy text is gone from {file}"
        (package / file).write_text(text.replace(old, new), encoding="utf-8")
    return package


def _report(tmp_path, capsys, slug=None):
    code = main(["--engine", str(_copy(tmp_path, slug)), "--json"])
    return code, json.loads(capsys.readouterr().out)


def test_the_healthy_engine_gets_no_diagnosis_and_its_parts_are_found_in_files_named_otherwise(tmp_path, capsys):
    code, report = _report(tmp_path, capsys)
    assert code == 0 and report["diagnoses"] == [] and report["unexplained"] == [] and report["fix_first"] is None
    ran = {c["id"]: c["status"] for check in report["checks"] for c in check["cases"]}
    assert ran["training-smoke-test/XOR"] == "passed"  # ReLU, CrossEntropyLoss, no Sequential
    assert ran["module-contracts/SGD.step() moves a parameter by -lr * grad"] == "passed"
    assert ran["torch-reference/matmul (3, 4) @ (4, 2)"] == "passed"  # float32 gradients, at float32's precision


@pytest.mark.parametrize("slug", BUGS)
def test_each_planted_bug_is_the_one_diagnosis(slug, tmp_path, capsys):
    code, report = _report(tmp_path, capsys, slug)
    assert code == 1 and [d["slug"] for d in report["diagnoses"]] == [slug], report["diagnoses"]
