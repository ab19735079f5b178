"""benchmarks/process_cpu.py, which says where the suite's CPU goes: each process is told by its
command line (as Chromium, Node, mkdocs and xdist really start them), and a run's CPU, short-lived
children and the last moments of ended processes included, is the CPU the kernel counted for it."""

import os
import subprocess
import sys
import time

import pytest

from benchmarks import bench_suite, process_cpu

CHROMIUM = "/usr/lib/chromium/chromium"
DRIVER = ".venv/lib/python3.11/site-packages/playwright/driver/node"


@pytest.mark.parametrize("argv, parent, root, kind", [
    ([CHROMIUM, "--type=renderer", "--enable-features=X", "--lang=en-US"], None, False, "chromium-renderer"),
    ([CHROMIUM, "--type=gpu-process", "--disable-gpu"], None, False, "chromium-gpu"),
    ([CHROMIUM, "--type=zygote", "--no-sandbox"], None, False, "chromium-other"),
    ([CHROMIUM, "--type=utility", "--utility-sub-type=network.mojom.NetworkService"], None, False, "chromium-other"),
    ([CHROMIUM, "--no-sandbox", "--headless", "--remote-debugging-pipe", "about:blank"], None, False, "chromium-browser"),
    (["/opt/chrome-headless-shell/chrome-headless-shell", "--type=renderer"], None, False, "chromium-renderer"),
    (["node", "/work/main/tests/pyodide/run_blocks.mjs", "/tmp/out.json"], "pytest-workers", False, "node-pyodide-blocks"),
    ([DRIVER, DRIVER.replace("node", "package/cli.js"), "run-driver"], "pytest-workers", False, "node-playwright"),
    (["node", "--test", "tests/node"], "pytest-workers", False, "node-other"),
    (["npm", "ci", "--no-audit"], "python-other", False, "node-other"),
    (["/usr/bin/python3", "-m", "mkdocs", "build", "--strict"], "pytest-workers", False, "mkdocs"),
    (["/work/main/.venv/bin/python3", "/work/main/.venv/bin/mkdocs", "serve"], "python-other", False, "mkdocs"),
    (["/usr/bin/python3", "-m", "pytest", "-p", "no:cacheprovider"], None, True, "pytest-controller"),
    (["/usr/bin/python3", "-u", "-c", "import sys;exec(eval(sys.stdin.readline()))"], "pytest-controller", False, "pytest-workers"),
    (["/usr/bin/python3", "-m", "pytest", "-n", "0", "docs/breaks/x.md"], "pytest-workers", False, "python-other"),
    (["/usr/bin/python3", "-c", "import minigrad.doctor"], "pytest-workers", False, "python-other"),
    (["git", "clone", "-q", "."], "pytest-workers", False, "other"),
    ([], None, False, "other"),
], ids=lambda v: v if isinstance(v, str) else None)
def test_each_process_is_told_by_its_command_line(argv, parent, root, kind):
    assert process_cpu.classify(argv, parent, is_root=root) == kind


BUSY = "import time\nend = time.process_time() + {s}\nwhile time.process_time() < end: pass\n"
SPAWN = "import subprocess, sys\nsubprocess.run([sys.executable, '-c', {code!r}])\n"
# A run as the suite's: a root that works, starts a child that starts a grandchild that works long
# enough to be seen (the two end together, as a browser and its renderers do), then children too
# short for any sample, waits for each, works again and ends.
RUN = BUSY.format(s=0.4) + SPAWN.format(code=SPAWN.format(code=BUSY.format(s=0.6))) + (
    "for _ in range(4):\n    subprocess.run([sys.executable, '-c', {short!r}])\n"
).format(short=BUSY.format(s=0.05)) + BUSY.format(s=0.2)


def _wait(process):
    """Wait for a child and return the CPU-seconds the kernel counted for it and its reaped children."""
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    return usage.ru_utime + usage.ru_stime


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="process_cpu reads Linux's /proc")
def test_a_run_s_cpu_is_what_the_kernel_counted_for_it_and_the_rest_is_outside():
    """The sampler's total for the run is the run's CPU as the kernel counted it (os.wait4's), within
    a tenth: children shorter than a sample and the tails of ended ones included, a tree that ends
    at once not counted twice. A busy process started beside the run is counted outside it (by its
    samples: its last moments are left unattributed), not in it."""
    with process_cpu.Sampler(every=0.2) as sampler:
        beside = subprocess.Popen([sys.executable, "-c", BUSY.format(s=0.5)])
        run = subprocess.Popen([sys.executable, "-c", RUN])
        sampler.root_pid = run.pid
        beside_cpu = _wait(beside)
        time.sleep(3 * 0.2)  # the run is reaped samples after beside, whenever either ends (tails of one sample are shared: see Sampler)
        kernel = _wait(run)
    report = sampler.report(cores=os.cpu_count())
    in_run = sum(report["by_kind"].values())
    assert kernel > 1.2 and in_run == pytest.approx(kernel, rel=0.1), report
    assert report["by_kind"]["pytest-controller"] >= 0.5, report  # the root's own 0.6 s
    assert {kind for kind, seconds in report["by_kind"].items() if seconds} <= {"pytest-controller", "pytest-workers", "python-other"}, report
    assert report["outside_cpu_seconds"] >= beside_cpu - 2 * 0.2, report
    assert report["outside_cpu_seconds"] + report["unattributed_cpu_seconds"] >= 0.9 * beside_cpu, report
    assert 0 < report["floor_seconds"] <= report["run_cpu_seconds"] / os.cpu_count() + 0.05, report
    assert report["sampler_cpu_seconds"] < 0.1 * kernel, report


def test_the_report_says_where_the_cpu_went_and_the_floor_it_sets():
    cpu = {"wall_seconds": 400.0, "cores": 2, "busy_cpu_seconds": 760.0, "busy_share": 0.95, "run_cpu_seconds": 740.0,
           "floor_seconds": 370.0, "by_kind": {"chromium-renderer": 400.0, "pytest-workers": 340.0, "mkdocs": 0.0},
           "outside_cpu_seconds": 12.0, "unattributed_cpu_seconds": 8.0, "sampler_cpu_seconds": 3.0}
    lines = bench_suite.cpu_section(cpu)
    text = "\n".join(lines)
    assert "busy 95 % of the run: 760.0 CPU-seconds in 400.0 s, 740.0 of them seen in the run's processes" in text
    assert "cannot take less than 370.0 s on 2 cores" in text
    assert f"| 400.0 | 53 % | {process_cpu.KINDS['chromium-renderer']} |" in lines
    assert not any(process_cpu.KINDS["mkdocs"] in line for line in lines)  # a kind that took nothing is not listed
    assert lines[-3:] == ["| 8.0 | 1 % | unattributed (missed between samples: the run's, or the machine's) |",
                          "| 12.0 | 2 % | outside the run (the machine's other processes) |",
                          "| 3.0 | 0 % | the sampling itself (benchmarks/process_cpu.py) |"]
