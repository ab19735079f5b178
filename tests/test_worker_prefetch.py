"""The worker hands loadPackage the NumPy wheel fetched at intent only when it is the wheel,
counts download bytes without replacing fetch's own response, and its messages are
runner/messages.js's table (tests/worker/prefetch.test.mjs, in Node, runner/worker/downloads.js
with a stub for the worker's scope)."""

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.skipif(shutil.which("node") is None, reason="needs Node (the CI installs it)")
def test_worker_prefetch():
    done = subprocess.run(["node", "--test", "tests/worker/prefetch.test.mjs"], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert "# pass 6" in done.stdout and "# fail 0" in done.stdout


POSTED = re.compile(r"postMessage\((?!message\()")  # a message posted without runner/messages.js's table
TYPES = re.compile(r'\bmessage\("([\w-]+)"')


def test_every_message_between_page_and_worker_is_made_from_the_table():
    scripts = {p: p.read_text(encoding="utf-8") for p in sorted((ROOT / "runner").rglob("*.js"))}
    assert not [str(p.relative_to(ROOT)) for p, text in scripts.items() if POSTED.search(text)]
    table = (ROOT / "runner" / "messages.js").read_text(encoding="utf-8")
    listed = set(re.findall(r'^  "?([\w-]+)"?: \[', table, re.M))
    used = {t for text in scripts.values() for t in TYPES.findall(text)}
    assert used == listed and len(listed) == 14  # every message sent is in the table, and every one in it is sent
