"""tests/suite_timing.py, the benchmark's eyes: under two xdist workers, the controller gets
each file's seconds and each test's Python boots (which a browser test's worker hands over
in its report's user_properties), and lists the slowest tests."""

import json
import os
import subprocess
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parent

SYNTHETIC = '''
import time
import pytest

@pytest.fixture
def boots(request):
    yield
    request.node.user_properties.append(("pyodide_boots", 2))  # as tests/browser/conftest.py's count_boots

def test_slow_with_boots(boots):
    time.sleep(0.3)

def test_quick():
    pass
'''


def test_a_worker_s_boots_and_seconds_reach_the_report(tmp_path):
    (tmp_path / "test_one.py").write_text(SYNTHETIC, encoding="utf-8")
    (tmp_path / "test_two.py").write_text("def test_other():\n    pass\n", encoding="utf-8")
    out = tmp_path / "times.json"
    env = {**os.environ, "PYTHONPATH": str(TESTS)}
    done = subprocess.run([sys.executable, "-m", "pytest", "-p", "suite_timing", "-p", "no:cacheprovider", "-n", "2", "--dist", "loadfile",
                           "--timing-json", str(out), "-q", "-c", os.devnull, "--rootdir", str(tmp_path), str(tmp_path)],
                          cwd=tmp_path, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    data = json.loads(out.read_text(encoding="utf-8"))
    files = {f["file"]: f for f in data["files"]}
    assert files["test_one.py"]["boots"] == 2 and files["test_two.py"]["boots"] == 0 and data["boots"] == 2
    assert files["test_one.py"]["tests"] == 2 and files["test_one.py"]["seconds"] >= 0.3
    slowest = data["slowest_tests"][0]
    assert slowest["test"] == "test_one.py::test_slow_with_boots" and slowest["boots"] == 2 and slowest["seconds"] >= 0.3
    assert set(data["workers"]) == {"gw0", "gw1"}
