"""The site's JavaScript, tested in Node: every file in tests/node, in one `node --test` run.

Each file bundles the module it tests with the site's own esbuild, as the build does:
runner/progress.js (the reader's record), runner/worker/downloads.js (the early NumPy
wheel). A new file there runs without a line here. Node's JUnit report says which test
failed, by name; without Node, CI fails (it installs Node) and elsewhere this skips.
"""

import os
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FOLDER = ROOT / "tests" / "node"


def _unavailable(reason):
    if os.environ.get("CI"):
        pytest.fail(f"{reason}; CI installs it, so this is a failure, not a skip")
    pytest.skip(reason)


def node_test_report(folder, tmp_path):
    """(process, [(test name, failure text or None)]) of `node --test folder`."""
    report = tmp_path / "node.xml"
    done = subprocess.run(["node", "--test", "--test-reporter=junit", f"--test-reporter-destination={report}", str(folder)],
                          cwd=ROOT, capture_output=True, text=True)
    cases = []
    if report.exists():
        for case in ET.parse(report).getroot().iter("testcase"):
            failure = case.find("failure")
            cases.append((case.get("name"), None if failure is None else (failure.get("message") or "") + (failure.text or "")))
    return done, cases


def test_every_node_test_passes(tmp_path):
    if shutil.which("node") is None:
        _unavailable("node is not on PATH")
    if not (ROOT / "node_modules" / "esbuild").exists():
        _unavailable("node_modules/esbuild is missing (npm ci)")
    files = sorted(FOLDER.glob("*.test.mjs"))
    done, cases = node_test_report(FOLDER, tmp_path)
    failed = [f"{name}: {text[-1500:]}" for name, text in cases if text is not None]
    assert done.returncode == 0 and not failed, "\n".join(failed) or done.stdout[-3000:] + done.stderr[-2000:]
    assert len(cases) >= len(files) >= 2, cases  # every file ran at least one test


def test_a_failing_node_test_is_named(tmp_path):
    """Planted: a file whose one test fails, and one that cannot load; both are failures by name."""
    (tmp_path / "planted").mkdir()
    (tmp_path / "planted" / "wrong.test.mjs").write_text(
        'import { test } from "node:test";\nimport assert from "node:assert/strict";\n'
        'test("two is three", () => assert.equal(2, 3));\n', encoding="utf-8")
    (tmp_path / "planted" / "broken.test.mjs").write_text('import { nothing } from "./absent.mjs";\n', encoding="utf-8")
    done, cases = node_test_report(tmp_path / "planted", tmp_path)
    failed = [name for name, text in cases if text is not None]
    assert done.returncode != 0 and "two is three" in failed and len(failed) == 2, cases


POSTED = re.compile(r"postMessage\((?!message\()")  # a message posted without runner/messages.js's table
TYPES = re.compile(r'\bmessage\("([\w-]+)"')


def test_every_message_between_page_and_worker_is_made_from_the_table():
    # the runner and its Python worker; runner/pages/ (picture.js and its own Graphviz worker) and
    # runner/editor/ talk to no Python worker
    scripts = {p: p.read_text(encoding="utf-8") for p in sorted((ROOT / "runner").rglob("*.js"))
               if not {"pages", "editor"} & set(p.relative_to(ROOT / "runner").parts)}
    assert not [str(p.relative_to(ROOT)) for p, text in scripts.items() if POSTED.search(text)]
    table = (ROOT / "runner" / "messages.js").read_text(encoding="utf-8")
    listed = set(re.findall(r'^  "?([\w-]+)"?: \[', table, re.M))
    used = {t for text in scripts.values() for t in TYPES.findall(text)}
    assert used == listed and len(listed) == 14  # every message sent is in the table, and every one in it is sent
