"""The doctor's report as JUnit XML, so a learner's own CI shows it in its test view.

The format GitHub's test-report actions and GitLab's `artifacts:reports:junit`
read: one <testsuite> per check, one <testcase> per case; a failed case is a
<failure> whose message is the case's detail and whose text is its numbers and
the engine's own traceback; a skipped case says why. Each suite carries the
verdict as properties: the diagnoses (slugs, most likely first) and the
verdict's sentence, so a CI log names the break without opening the report.
"""

import xml.etree.ElementTree as ET

FAILED = {"wrong values", "wrong shape", "raised", "timed out", "near"}


def as_junit(report):
    """The XML text for `report`, as report.as_dict() gives it."""
    cases = [case for check in report["checks"] for case in check["cases"]]
    root = ET.Element("testsuites", name="minigrad-doctor", tests=str(len(cases)),
                      failures=str(sum(c["status"] in FAILED for c in cases)),
                      skipped=str(sum(c["status"] == "skipped" for c in cases)))
    for check in report["checks"]:
        suite = ET.SubElement(root, "testsuite", name=check["name"], tests=str(len(check["cases"])),
                              failures=str(sum(c["status"] in FAILED for c in check["cases"])),
                              skipped=str(sum(c["status"] == "skipped" for c in check["cases"])), errors="0")
        properties = ET.SubElement(suite, "properties")
        ET.SubElement(properties, "property", name="check", value=check["title"])
        ET.SubElement(properties, "property", name="verdict", value=report["verdict"])
        ET.SubElement(properties, "property", name="diagnoses", value=" ".join(d["slug"] for d in report["diagnoses"]))
        for case in check["cases"]:
            element = ET.SubElement(suite, "testcase", classname=f"minigrad-doctor.{check['name']}", name=case["shown"])
            if case["status"] == "skipped":
                ET.SubElement(element, "skipped", message=case["detail"])
            elif case["status"] in FAILED:
                failure = ET.SubElement(element, "failure", message=case["detail"], type=case["status"])
                failure.text = "\n".join(part for part in (case["numbers"], _diagnoses_of(report, case["id"])) if part)
    if report["fix_first"]:  # what comes before any diagnosis: a suite of its own, failed
        suite = ET.SubElement(root, "testsuite", name="fix-first", tests="1", failures="1", skipped="0", errors="0")
        element = ET.SubElement(suite, "testcase", classname="minigrad-doctor.fix-first", name="fix this first")
        failure = ET.SubElement(element, "failure", message=report["fix_first"]["message"], type="fix first")
        failure.text = report["fix_first"]["trace"]
        root.set("tests", str(len(cases) + 1))
        root.set("failures", str(int(root.get("failures")) + 1))
    ET.indent(root)
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"


def _diagnoses_of(report, case_id):
    """Which diagnoses explain this case, as a line: what a reader of the CI log needs next."""
    named = [f"{d['title']} ({d['url']})" for d in report["diagnoses"] if case_id in d["explains"]]
    return "explained by: " + "; ".join(named) if named else ""
