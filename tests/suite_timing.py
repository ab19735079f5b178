"""Where the suite's time goes: `pytest --timing-json FILE` writes, per test file and per
xdist worker, the seconds its tests took (setup, call and teardown: a session fixture's
cost lands on the first test that asks for it), the slowest tests, and how many times
Python booted in the browser for each (tests/browser/conftest.py's `count_boots`), so the
next slow test is found by reading a file (benchmarks/bench_suite.py runs it and writes
benchmarks/SUITE_TIMES.md).

It runs in xdist's controller, which sees every worker's reports (xdist sets
`report.node` to the worker that ran it), or in the one process of -n 0.
"""

import json
import time
from collections import defaultdict

import pytest

SLOWEST = 40  # tests listed one by one


def pytest_addoption(parser):
    parser.addoption("--timing-json", default=None, metavar="FILE",
                     help="write the seconds per test file and per worker to FILE (JSON)")


class _Timing:
    def __init__(self, path):
        self.path = path
        self.started = time.monotonic()
        self.files = defaultdict(lambda: {"seconds": 0.0, "tests": 0, "boots": 0, "worker": None, "first": None, "last": None})
        self.tests = defaultdict(lambda: {"seconds": 0.0, "boots": 0})
        self.workers = defaultdict(float)
        self.failed = []

    @pytest.hookimpl
    def pytest_runtest_logreport(self, report):
        node = getattr(report, "node", None)
        worker = node.gateway.id if node is not None else "main"
        unit = report.nodeid.split("::", 1)[0]
        entry = self.files[unit]
        now = round(time.monotonic() - self.started, 1)
        entry["seconds"] += report.duration
        boots = dict(report.user_properties).get("pyodide_boots", 0) if report.when == "teardown" else 0
        entry["boots"] += boots
        self.tests[report.nodeid]["seconds"] += report.duration
        self.tests[report.nodeid]["boots"] += boots
        entry["worker"] = worker
        entry["first"] = now if entry["first"] is None else entry["first"]
        entry["last"] = now
        if report.when == "call":
            entry["tests"] += 1
        if report.failed:
            self.failed.append(f"{report.nodeid} ({report.when})")
        self.workers[worker] += report.duration

    @pytest.hookimpl(trylast=True)
    def pytest_sessionfinish(self, session):
        wall = time.monotonic() - self.started
        files = sorted(self.files.items(), key=lambda item: -item[1]["seconds"])
        data = {
            "wall_seconds": round(wall, 1),
            "workers": {w: round(s, 1) for w, s in sorted(self.workers.items())},
            "failed": self.failed,
            "files": [{"file": f, **{k: (round(v, 2) if k == "seconds" else v) for k, v in e.items()}} for f, e in files],
            "boots": sum(e["boots"] for e in self.files.values()),
            "slowest_tests": [{"test": t, "seconds": round(e["seconds"], 2), "boots": e["boots"]}
                              for t, e in sorted(self.tests.items(), key=lambda item: -item[1]["seconds"])[:SLOWEST]],
        }
        with open(self.path, "w", encoding="utf-8") as out:
            json.dump(data, out, indent=1)


def pytest_configure(config):
    path = config.getoption("--timing-json")
    if path and not hasattr(config, "workerinput"):
        config.pluginmanager.register(_Timing(path), "suite_timing_report")
