"""What does not fit the protocol is a skip that says what to change or map, never evidence
(issue 37, item 3): a Value that keeps its number in `.value`, one that takes only Values as
operands, and a learner's own `[tool.minigrad-doctor]` table that maps the names."""

import json
import shutil
from pathlib import Path

import pytest

from minigrad.doctor import check_folder, diagnose
from minigrad.doctor.__main__ import main
from minigrad.doctor.config import settings
from minigrad.doctor.loading import TargetError
from tests.doctor_engines import kahn_overwrite, values_only

HERE = Path(__file__).parent / "doctor_engines"


def _project(tmp_path, table, engine="values_only.py"):
    package = tmp_path / "src" / "vals"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    shutil.copy(HERE / engine, package / "engine.py")
    (tmp_path / "pyproject.toml").write_text(f'[project]\nname = "vals"\n\n[tool.minigrad-doctor]\n{table}\n')
    return tmp_path, package


def test_a_value_that_takes_only_values_is_not_a_break_and_the_number_cases_are_skipped_saying_why():
    diagnosis = diagnose(values_only.Value)
    assert not diagnosis.caught and diagnosis.diagnoses == [] and diagnosis.suspects == []
    skipped = {c.name: c.missing for c in diagnosis.verdicts["torch-reference"].cases if c.status == "skipped"}
    assert "takes no plain-number operands" in skipped["tanh(a * 200) * b"][0]
    assert "takes no plain-number operands" in skipped["sum([a*b, b*c, c*a])"][0]


def test_a_value_without_data_is_skipped_and_the_report_says_how_to_map_it(capsys):
    diagnosis = diagnose(values_only.Value)
    fd = {c.name: c for c in diagnosis.verdicts["finite-differences"].cases}
    assert fd["x*x + x"].status == "skipped" and fd["x*x + x"].missing == ("Value.data",)
    from minigrad.doctor import check_engine

    check_engine(values_only.Value, lang="es")
    assert '[tool.minigrad-doctor] data = "..."' in capsys.readouterr().out


def test_the_mapping_in_the_learners_pyproject_runs_the_cases_on_value(tmp_path, capsys, monkeypatch):
    root, package = _project(tmp_path, 'engine = "src/vals"\ndata = "value"')
    monkeypatch.chdir(root)
    code = main(["--json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 0 and report["diagnoses"] == []
    fd = {c["name"]: c for c in report["checks"][1]["cases"]}
    assert fd["x*x + x"]["status"] == "passed"  # read through .value, as the table says


def test_the_mapping_finds_a_planted_bug_through_value(tmp_path, capsys):
    root, package = _project(tmp_path, 'data = "value"')
    engine = package / "engine.py"
    engine.write_text(engine.read_text().replace("self.grad += other.value * out.grad; other.grad += self.value * out.grad",
                                                 "self.grad = other.value * out.grad; other.grad = self.value * out.grad"))
    code = main(["--engine", str(package), "--json"])  # the table is found above the engine's folder
    report = json.loads(capsys.readouterr().out)
    assert code == 1 and report["diagnoses"][0]["slug"] == "overwrite-grad"


def test_the_page_folder_reads_the_table_too(tmp_path, capsys):
    root, package = _project(tmp_path, 'data = "value"')
    diagnosis = check_folder(str(root / "src" / "vals"))
    assert not diagnosis.caught
    assert "settings = " in capsys.readouterr().out


@pytest.mark.parametrize(("table", "says"), [
    ('engine = "src/vals"\ndatta = "value"', "has no key 'datta'"),
    ('data = "the value"', "is not an attribute name"),
    ("data = 3", "must be a non-empty string"),
    ("data = [", "not valid TOML"),
])
def test_a_bad_table_is_one_clear_line(tmp_path, capsys, table, says):
    root, _ = _project(tmp_path, table)
    with pytest.raises(TargetError, match=says.replace("(", r"\(")):
        settings(root)
    assert main(["--engine", str(root / "src" / "vals")]) == 2
    assert says in capsys.readouterr().err


def test_flags_win_over_the_table(tmp_path):
    root, package = _project(tmp_path, 'engine = "src/vals"\nvalue = "src/vals/engine.py:Value"')
    folder, targets, names, path = settings(root, None, {"Value": "other.py:Value"})
    assert folder == str(package) and targets == {"Value": "other.py:Value"} and path == root / "pyproject.toml"
    folder, targets, _, _ = settings(root)
    assert targets == {"Value": f"{package}/engine.py:Value"}


def test_kahns_order_with_an_add_that_overwrites_is_caught_by_the_diamond_tests_second_case():
    diagnosis = diagnose(kahn_overwrite.Value)
    cases = {c.name: c.status for c in diagnosis.verdicts["diamond-test"].cases}
    assert cases == {"diamond (a*b + c) * (a - c) at 2, 3, 4": "passed", "(a + b) * a at 2, 3": "wrong values"}
    assert diagnosis.diagnoses[0][0] == "overwrite-grad", diagnosis.diagnoses


def test_a_cross_entropy_written_for_one_sample_is_a_skip_and_training_uses_another_loss():
    """Issue 37, item 2: a cross_entropy documented for (C,) logits and one class is a design, not a break."""
    import types

    import numpy as np

    from minigrad import functional, nn, optim
    from minigrad.tensor import Tensor

    def cross_entropy(logits, target):
        """One sample: logits (C,), target an int."""
        z = logits - Tensor(np.max(logits.data))
        return (z.exp().sum()).log() - z[np.array([int(target)])].sum()

    single = types.SimpleNamespace(**{n: getattr(functional, n) for n in ("softmax", "log_softmax", "mse_loss",
                                                                          "binary_cross_entropy_with_logits")},
                                   cross_entropy=cross_entropy)
    diagnosis = diagnose(Tensor=Tensor, nn=nn, optim=optim, functional=single)
    assert not diagnosis.caught and diagnosis.diagnoses == []
    case = next(c for c in diagnosis.verdicts["torch-reference"].cases if c.name == "cross_entropy (4, 3)")
    assert case.status == "skipped" and "takes one sample" in case.missing[0]
    assert "with Tanh and mse_loss" in str(diagnosis.verdicts["training-smoke-test"].cases[0].detail)
