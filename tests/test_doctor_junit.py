"""--junit FILE: the report as JUnit XML for a learner's own CI (issue 37): a test case per check case,
failures carrying the evidence, the diagnoses as a property; read back as GitHub's and GitLab's
test views read it (testsuites > testsuite > testcase > failure | skipped)."""

import xml.etree.ElementTree as ET

from minigrad.doctor.__main__ import main
from tests.learner_engines.harness import package_copy


def _junit(tmp_path, capsys, slug=None, *extra):
    package = package_copy("classic", tmp_path / "copy", slug)
    out = tmp_path / "doctor.xml"
    code = main(["--engine", str(package), "--junit", str(out), *extra])
    capsys.readouterr()
    return code, ET.parse(out).getroot()


def test_a_planted_bug_is_a_failed_test_case_with_its_evidence_and_the_diagnosis(tmp_path, capsys):
    code, root = _junit(tmp_path, capsys, "relu-gated-on-upstream")
    assert code == 1 and root.tag == "testsuites"
    suites = root.findall("testsuite")
    assert [s.get("name") for s in suites][:3] == ["shape-invariant", "finite-differences", "diamond-test"]
    properties = {p.get("name"): p.get("value") for p in suites[0].find("properties")}
    assert properties["diagnoses"].split()[0] == "relu-gated-on-upstream"
    assert properties["verdict"].startswith("Verdict: ")
    failures = [(case.get("name"), case.find("failure")) for s in suites for case in s.findall("testcase") if case.find("failure") is not None]
    assert failures and all(f.get("message") for _, f in failures)
    assert any("explained by: relu filtered" in (f.text or "") or "explained by: " in (f.text or "") for _, f in failures)
    cases = sum(len(s.findall("testcase")) for s in suites)
    assert int(root.get("tests")) == cases and int(root.get("failures")) == len(failures)
    assert int(root.get("skipped")) == sum(1 for s in suites for c in s.findall("testcase") if c.find("skipped") is not None)


def test_a_healthy_engine_has_no_failure_and_its_skips_say_why(tmp_path, capsys):
    code, root = _junit(tmp_path, capsys)
    assert code == 0 and root.get("failures") == "0"
    skipped = [c.find("skipped") for s in root.iter("testsuite") for c in s.findall("testcase") if c.find("skipped") is not None]
    assert all(s.get("message") for s in skipped)


def test_the_junit_file_speaks_the_reports_language(tmp_path, capsys):
    code, root = _junit(tmp_path, capsys, "overwrite-grad", "--lang", "es")
    properties = {p.get("name"): p.get("value") for p in root.find("testsuite").find("properties")}
    assert properties["verdict"].startswith("Veredicto: ")
