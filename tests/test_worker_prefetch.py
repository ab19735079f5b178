"""worker.js hands loadPackage the NumPy wheel fetched at intent only when it is the wheel, and
counts download bytes without replacing fetch's own response
(tests/worker/prefetch.test.mjs, in Node with the browser's globals stubbed)."""

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.skipif(shutil.which("node") is None, reason="needs Node (the CI installs it)")
def test_worker_prefetch():
    done = subprocess.run(["node", "--test", "tests/worker/prefetch.test.mjs"], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert "# pass 5" in done.stdout and "# fail 0" in done.stdout
