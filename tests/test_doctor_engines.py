"""The doctor on engines that are not minigrad: learners' own, micrograd, broken ones.

A learner in phase 7 or 8 has only a Value or only a Tensor: here the doctor
gets that one class, from tests/learner_engines' classic style (a package
called minigrad, children in a set, a recursive sort) with a bug planted."""

import json
import sys

import numpy as np
import pytest

from minigrad.doctor import check_engine, diagnose
from minigrad.doctor.__main__ import main
from minigrad.doctor.loading import load_engine
from minigrad.scalar import Value as MinigradValue
from minigrad.tensor import Tensor as MinigradTensor
from tests.learner_engines.harness import package_copy

# the break planted in the classic style: the one class the doctor is given
PLANTED = {
    "tanh-grad-from-input": "Value", "overwrite-grad": "Value", "relu-gated-on-upstream": "Value",
    "topological-order-not-reversed": "Value", "no-output-seed": "Value", "pow-exponent-off-by-one": "Value",
    "skip-unbroadcast": "Tensor", "matmul-without-transpose": "Tensor", "sum-forgets-reduced-axis": "Tensor",
    "mean-forgets-n": "Tensor",
}


def _engine(slug, root):
    parts, _ = load_engine(package_copy("classic", root, slug))
    return {PLANTED[slug]: parts[PLANTED[slug]]}


@pytest.mark.parametrize("slug", PLANTED)
def test_doctor_names_the_planted_break_first_from_one_class(slug, tmp_path):
    diagnosis = diagnose(**_engine(slug, tmp_path))
    assert diagnosis.caught
    assert diagnosis.suspects[0][0] == slug, diagnosis.suspects[:3]


def test_healthy_minigrad_is_not_caught():
    diagnosis = diagnose(MinigradValue, MinigradTensor)
    assert not diagnosis.caught and diagnosis.suspects == []
    assert {name for name, v in diagnosis.verdicts.items() if v.status == "skipped"} == {
        "training-smoke-test", "repeatable-gradients", "loss-reference", "module-contracts"}


def test_micrograd_is_not_caught_and_its_missing_ops_are_skipped_by_name():
    from micrograd.engine import Value

    diagnosis = diagnose(Value)
    assert not diagnosis.caught and diagnosis.suspects == []
    skipped = {c.name: c.missing for c in diagnosis.verdicts["finite-differences"].cases if c.status == "skipped"}
    assert skipped["tanh(a*b) / c"] == ("Value.tanh",)
    assert skipped["exp, log, relu, sigmoid"] == ("Value.exp", "Value.log", "Value.sigmoid")
    assert diagnosis.verdicts["diamond-test"].status == "passed"


class RaisingValue(MinigradValue):
    """A learner's engine whose ** raises: evidence, not a crash."""

    __slots__ = ()

    def __pow__(self, exponent):
        raise ValueError("** is not finished yet")


def test_an_op_that_raises_is_evidence_under_its_check():
    diagnosis = diagnose(RaisingValue)
    verdict = diagnosis.verdicts["finite-differences"]
    case = next(c for c in verdict.cases if c.name == "a ** 3 - b ** -2")
    assert verdict.status == "caught" and case.status == "raised"
    assert case.detail == "a ** 3 - b ** -2: raised ValueError: ** is not finished yet"


class LoopingValue(MinigradValue):
    """A learner's backward that never ends (and swallows ordinary exceptions)."""

    __slots__ = ()

    def __add__(self, other):
        out = super().__add__(other)
        out.__class__ = LoopingValue
        return out

    def __mul__(self, other):
        out = super().__mul__(other)
        out.__class__ = LoopingValue
        return out

    def backward(self):
        while True:
            try:
                pass
            except Exception:
                pass


def test_an_endless_backward_is_stopped_per_check_and_reported():
    diagnosis = diagnose(LoopingValue, time_limit=0.2)
    verdict = diagnosis.verdicts["diamond-test"]
    assert verdict.status == "caught"
    assert verdict.detail.endswith("raised TimeoutError: stopped after 0.2 s (an endless loop?)")
    later = diagnosis.verdicts["finite-differences"].cases[1]
    assert later.status == "timed out"
    assert later.detail.endswith("this check's 0.2 s were used up (an endless loop?)")
    assert diagnosis.caught and diagnosis.suspects == []  # a loop is no break's symptom


class ExitingValue(MinigradValue):
    __slots__ = ()

    def __pow__(self, exponent):
        sys.exit(3)


def test_a_learner_calling_sys_exit_is_evidence_not_the_end_of_the_doctor():
    case = next(c for c in diagnose(ExitingValue).verdicts["torch-reference"].cases if c.name == "a ** 3 - b ** -2")
    assert case.detail == "a ** 3 - b ** -2: raised RuntimeError: the engine called sys.exit(3)"


def test_what_a_learner_prints_stays_out_of_the_report(capsys):
    class Chatty(MinigradValue):
        def __init__(self, *args, **kwargs):
            print("debug: a new Value")
            super().__init__(*args, **kwargs)

    check_engine(Chatty)
    out, err = capsys.readouterr()
    assert err.startswith("\nWhat your engine printed while it was checked (")
    assert "debug: a new Value" in err
    assert "debug" not in out
    assert "Nothing caught" in out


def test_on_the_page_what_a_learner_prints_goes_to_its_own_section(capsys, monkeypatch):
    class Chatty(MinigradValue):
        def __init__(self, *args, **kwargs):
            print("debug: " + "x" * 1000)
            super().__init__(*args, **kwargs)

    sent = []
    fake = type(sys)("minigrad_page")
    fake.language, fake.links, fake.engine_output = (lambda: "es"), (lambda links: None), sent.append
    monkeypatch.setitem(sys.modules, "minigrad_page", fake)
    check_engine(Chatty)
    out, err = capsys.readouterr()
    assert "debug" not in out + err
    assert sent[0].startswith("debug: xxx") and sent[0].endswith(" [...]")
    assert len(sent[0]) == 5000 + len(" [...]")  # bounded: a loop that prints must not fill the page


def test_report_text_leads_with_its_verdict_and_names_the_page_in_both_languages(capsys, tmp_path):
    engine = _engine("tanh-grad-from-input", tmp_path)
    check_engine(**engine)
    en = capsys.readouterr().out.splitlines()
    assert en[2] == "Verdict: one break explains what the checks caught."
    assert en[3].startswith("1. tanh's local gradient from the input (match 100%; explains ")
    assert en[4].startswith("   Finite differences: ")  # the one line of evidence that shows it
    assert en[5] == "   page: http://127.0.0.1:8000/breaks/tanh-grad-from-input/"
    assert en.index("Check by check:") > 5
    check_engine(**engine, lang="es")
    es = capsys.readouterr().out.splitlines()
    assert es[2] == "Veredicto: una rotura explica lo que detectaron las comprobaciones."
    assert es[3].startswith("1. El gradiente local de tanh a partir de la entrada (coincidencia 100%; explica ")
    assert es[5] == "   página: http://127.0.0.1:8000/es/breaks/tanh-grad-from-input/"
    assert "detectado  Diferencias finitas" in es


def test_json_is_exactly_one_object_with_checks_and_suspects(capsys, tmp_path):
    package = package_copy("classic", tmp_path, "relu-gated-on-upstream")
    code = main(["--scalar", f"{package}/engine.py:Value", "--json", "--lang", "es"])
    report = json.loads(capsys.readouterr().out)
    assert code == 1
    assert list(report) == ["verdict", "diagnoses", "unexplained", "near", "fix_first", "suspects", "checks"]
    assert report["fix_first"] is None and report["unexplained"] == []
    assert [d["slug"] for d in report["diagnoses"]] == ["relu-gated-on-upstream"]
    assert report["diagnoses"][0]["url"].endswith("/es/breaks/relu-gated-on-upstream/")
    assert all(key in {c["id"] for c in report["checks"][1]["cases"] + report["checks"][3]["cases"]}
               for key in report["diagnoses"][0]["explains"])
    assert [c["status"] for c in report["checks"]] == ["skipped", "caught", "passed", "caught", "skipped", "skipped", "skipped", "skipped"]
    assert all({"name", "status", "detail"} <= set(c) for c in report["checks"])
    assert report["suspects"][0]["slug"] == "relu-gated-on-upstream"
    assert report["suspects"][0]["title"] == "relu filtrada por el gradiente upstream"
    assert report["suspects"][0]["url"] == "http://127.0.0.1:8000/es/breaks/relu-gated-on-upstream/"


def test_exit_code_is_zero_when_nothing_is_caught(capsys):
    code = main(["--scalar", "minigrad.scalar:Value", "--tensor", "minigrad.tensor:Tensor", "--json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 0 and report["suspects"] == []


def test_gradcheck_checks_a_foreign_engine_too(tmp_path):
    from minigrad.gradcheck import gradcheck

    Tensor = _engine("mean-forgets-n", tmp_path)["Tensor"]
    x = Tensor(np.ones((2, 3)))
    assert gradcheck(lambda t: t.sum(), x).ok
    assert not gradcheck(lambda t: t.mean(axis=0).sum(), x).ok


def test_on_the_site_the_report_speaks_the_page_language_and_sends_slugs_for_links(capsys, monkeypatch, tmp_path):
    """The worker's `minigrad_page` module, faked: language() in, links(json) out."""
    sent = []
    fake = type(sys)("minigrad_page")
    fake.language = lambda: "es"
    fake.links = sent.append
    monkeypatch.setitem(sys.modules, "minigrad_page", fake)
    check_engine(**_engine("pow-exponent-off-by-one", tmp_path))
    assert "Veredicto: una rotura explica" in capsys.readouterr().out
    links = json.loads(sent[0])
    assert links[0] == {"slug": "pow-exponent-off-by-one", "title": "El exponente de pow desplazado en uno", "match": 1.0}
    assert len(sent) == 1 and len(links) <= 3


def test_nothing_is_sent_for_links_when_nothing_is_caught(monkeypatch, capsys):
    sent = []
    fake = type(sys)("minigrad_page")
    fake.language = lambda: "en"
    fake.links = sent.append
    monkeypatch.setitem(sys.modules, "minigrad_page", fake)
    check_engine(MinigradValue)
    assert json.loads(sent[0]) == []


def test_the_issues_partial_break_on_minigrad_itself_ranks_its_break_first():
    """`=` for `+=` in minigrad's `__mul__` only (overwrite-grad's diff touches every op)."""
    from pathlib import Path

    source = (Path(__file__).resolve().parents[1] / "minigrad" / "scalar.py").read_text()
    healthy_line = "            self.grad += other.data * out.grad\n"
    assert source.count(healthy_line) == 1
    partial = source.replace(healthy_line, healthy_line.replace("+=", "=")).replace(
        "from .graph import", "from minigrad.graph import")
    namespace = {"__name__": "partially_broken_scalar"}
    exec(compile(partial, "partially_broken_scalar.py", "exec"), namespace)
    diagnosis = diagnose(namespace["Value"])
    assert diagnosis.suspects[0][0] == "overwrite-grad", diagnosis.suspects[:3]
    assert diagnosis.suspects[0][1] < 1  # it matches only part of the full break's signature


def test_a_bug_no_break_explains_is_caught_with_no_suspect(capsys):
    """max's gradient sent to every element, not the winners, in a copy of minigrad's Tensor: no break
    in the catalogue (nor a variant) changes what max's backward computes."""
    from pathlib import Path

    source = (Path(__file__).resolve().parents[1] / "minigrad" / "tensor.py").read_text()
    max_line = "            a.grad += winners * g / winners.sum(axis=axes, keepdims=True)\n"
    assert source.count(max_line) == 1
    broken = source.replace(max_line, "            a.grad += g + 0 * winners\n").replace("from .graph import", "from minigrad.graph import")
    namespace = {"__name__": "learner_tensor"}
    exec(compile(broken, "learner_tensor.py", "exec"), namespace)
    diagnosis = check_engine(Tensor=namespace["Tensor"])
    assert diagnosis.caught and diagnosis.suspects == []
    assert "Something is caught, but no break in the catalogue matches it." in capsys.readouterr().out


def test_on_the_site_the_verdict_goes_to_the_page_first_as_data(capsys, monkeypatch, tmp_path):
    """minigrad_page.verdict(json): what the page renders above the report (the report's text is the details)."""
    sent = {}
    fake = type(sys)("minigrad_page")
    fake.language = lambda: "en"
    fake.links = lambda text: sent.setdefault("links", text)
    fake.verdict = lambda text: sent.setdefault("verdict", text)
    monkeypatch.setitem(sys.modules, "minigrad_page", fake)
    check_engine(**_engine("pow-exponent-off-by-one", tmp_path))
    capsys.readouterr()
    verdict = json.loads(sent["verdict"])
    assert verdict["verdict"] == "Verdict: one break explains what the checks caught."
    assert verdict["diagnoses"][0]["slug"] == "pow-exponent-off-by-one" and verdict["diagnoses"][0]["match"] == 1.0
    assert verdict["diagnoses"][0]["evidence"].startswith("Finite differences: ")
    assert verdict["unexplained"] == [] and verdict["fix_first"] is None and verdict["caught"] is True
