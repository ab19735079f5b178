"""The doctor on engines written the way learners write them (tests/learner_engines):
three styles unlike minigrad's, each healthy and then with each catalogue bug
planted by its diff. The healthy engine is not caught; every planted bug is
named first. This is the promise of "your own equivalent", checked."""

import json

import pytest

from minigrad.doctor import check_folder
from minigrad.doctor.__main__ import main
from tests.learner_engines.harness import STYLES, package_copy as copy_of

PLANTED = [(style, slug) for style, spec in STYLES.items() for slug in spec["bugs"]]


@pytest.mark.parametrize("style", STYLES)
def test_a_healthy_learner_engine_is_not_caught(style, tmp_path, capsys):
    diagnosis = check_folder(copy_of(style, tmp_path))
    report = capsys.readouterr().out
    assert not diagnosis.caught and not diagnosis.crashed, report
    assert "Nothing caught" in report


@pytest.mark.parametrize(("style", "slug"), PLANTED, ids=[f"{style}-{slug}" for style, slug in PLANTED])
def test_a_bug_planted_in_a_learner_engine_is_named_first(style, slug, tmp_path, capsys):
    diagnosis = check_folder(copy_of(style, tmp_path, slug))
    capsys.readouterr()
    assert diagnosis.suspects and diagnosis.suspects[0][0] == slug, diagnosis.suspects[:3]
    assert diagnosis.diagnoses[0][0] == slug, diagnosis.diagnoses


def test_what_a_style_lacks_is_skipped_by_name_never_caught(tmp_path, capsys):
    """The ndarray style has no Tensor.max and no BatchNorm1d (its manifest says so)."""
    code = main(["--engine", str(copy_of("ndarray", tmp_path)), "--json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 0 and report["fix_first"] is None
    missing = {name for check in report["checks"] for case in check["cases"] for name in case["missing"]}
    assert {"Tensor.max", "nn.BatchNorm1d"} <= missing
    assert all(check["status"] != "caught" for check in report["checks"])
