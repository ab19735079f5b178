"""The suite's own configuration shares the two cores as tests/parallel.py says:
every file (browser files too) whole on one worker, both workers used, and
`--update-outputs` in a single process. Each test runs pytest with the
project's settings (pyproject.toml, conftest.py) on a small tree of tests that
write down which worker ran them."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RECORD = """import os

def test_{name}():
    with open(os.environ["WORKER_LOG"], "a") as log:
        log.write("{file} " + os.environ.get("PYTEST_XDIST_WORKER", "none") + "\\n")
"""
FILES = ["browser/test_a.py", "browser/test_b.py", "test_c.py", "test_d.py"]


def run_tree(tmp_path, *extra):
    """{file: set of workers that ran its tests}, and pytest's output."""
    for file in FILES:
        path = tmp_path / "tests" / file
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("".join(RECORD.format(name=f"{path.stem}_{i}", file=file) for i in range(3)), encoding="utf-8")
    log = tmp_path / "workers.log"
    # this test may itself run in a worker: its PYTEST_XDIST_* must not reach the tree's tests
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_XDIST_")} | {"WORKER_LOG": str(log)}
    done = subprocess.run(
        # the tree lives outside the repo: load the project's settings and plugins explicitly
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-c", "pyproject.toml", "--rootdir", str(ROOT),
         "-p", "conftest", str(tmp_path), *extra],
        cwd=ROOT, capture_output=True, text=True, env=env,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    ran = {}
    for line in log.read_text().splitlines():
        file, worker = line.split()
        ran.setdefault(file, set()).add(worker)
    assert sum(1 for _ in log.read_text().splitlines()) == 3 * len(FILES)
    return ran, done.stdout


def test_a_file_stays_on_one_worker_and_both_are_used(tmp_path):
    ran, _ = run_tree(tmp_path)
    assert all(len(workers) == 1 and workers <= {"gw0", "gw1"} for workers in ran.values()), ran
    assert set().union(*ran.values()) == {"gw0", "gw1"}, ran  # and both cores are used


def test_update_outputs_runs_in_one_process(tmp_path):
    """Two workers would each rewrite the same pages from half the blocks."""
    ran, _ = run_tree(tmp_path, "--update-outputs")
    assert set().union(*ran.values()) == {"none"}, ran
