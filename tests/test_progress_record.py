"""The reader's record kept in the browser (runner/progress.js): its pure functions, run in Node
(tests/js/progress.test.mjs): what an import accepts, how two records merge, what an entry adds
up to and what the mystery's review draw keeps. The pages that use them: tests/browser/."""

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.skipif(shutil.which("node") is None, reason="needs Node (the CI installs it)")
def test_the_record_in_node():
    done = subprocess.run(["node", "--test", "tests/js/progress.test.mjs"], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert "# pass 4" in done.stdout and "# fail 0" in done.stdout
