"""Where the test suite's time goes: per test file and per pytest-xdist worker.

    uv run python benchmarks/bench_suite.py [--out-json FILE] [--out-md FILE] [-- PYTEST ARGS]

Runs the README's test command (`pytest`, with pyproject.toml's `-n 2 --dist loadfile`)
with tests/suite_timing.py's `--timing-json`, then writes benchmarks/suite_times.json
(the seconds of each file's tests, setup and teardown included, the worker that ran them
and when, each worker's total, the wall time, and where the CPU went by kind of process:
benchmarks/process_cpu.py) and benchmarks/SUITE_TIMES.md (the same, slowest first, with
the date and the machine's cores). The next slow test is found by reading them. Not a
test: nothing here passes or fails.
"""

import argparse
import datetime
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

try:
    from benchmarks import process_cpu
except ImportError:  # run as a script: benchmarks/ is sys.path[0]
    import process_cpu

ROOT = Path(__file__).resolve().parents[1]
SUMMARY = re.compile(r"=+ (.*\d+ passed.*) in ([\d.]+)s")


def run(pytest_args):
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "times.json"
        started = time.monotonic()
        with process_cpu.Sampler() as cpu:
            done = subprocess.Popen([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--timing-json", str(out), *pytest_args],
                                    cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            cpu.root_pid = done.pid
            done.stdout, done.stderr = done.communicate()
        wall = time.monotonic() - started
        times = json.loads(out.read_text(encoding="utf-8")) if out.exists() else {"files": [], "workers": {}}
    summary = SUMMARY.search(done.stdout)
    return {
        "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "cores": os.cpu_count(),
        "command": " ".join(["pytest", *pytest_args]),
        "exit_code": done.returncode,
        "summary": summary.group(1) if summary else (done.stdout.strip().splitlines() or ["no summary line"])[-1],
        "pytest_seconds": float(summary.group(2)) if summary else None,
        "process_seconds": round(wall, 1),
        **times,
        "cpu": cpu.report(os.cpu_count()),
    }


def markdown(report, top=30):
    lines = [f"# The suite's time, {report['date']} ({report['cores']} cores)", "",
             f"`{report['command']}`: {report['summary']}, pytest's own clock {report['pytest_seconds']} s, "
             f"the whole process {report['process_seconds']} s (exit code {report['exit_code']}).", "",
             "Each worker's tests (setup and teardown included):", ""]
    lines += [f"- {worker}: {seconds} s" for worker, seconds in report["workers"].items()]
    lines += ["", "Failed: " + (", ".join(f"`{f}`" for f in report.get("failed", [])) or "none") + "."]
    if "boots" in report:
        lines += ["", f"Python booted {report['boots']} times in the browser tests (a page's fetch of `pyodide.asm.wasm`; "
                      "3-4 s and about 6 CPU-seconds each: `boots` below)."]
    lines += ["", f"The {top} slowest files (`first` and `last`: seconds after the session's start):", "",
              "| seconds | tests | boots | worker | first | last | file |", "|---:|---:|---:|---|---:|---:|---|"]
    lines += [f"| {f['seconds']} | {f['tests']} | {f.get('boots', '')} | {f['worker']} | {f['first']} | {f['last']} | `{f['file']}` |"
              for f in report["files"][:top]]
    if "cpu" in report:
        lines += ["", *cpu_section(report["cpu"])]
    if report.get("slowest_tests"):
        lines += ["", f"The {len(report['slowest_tests'])} slowest tests (setup, call and teardown):", "",
                  "| seconds | boots | test |", "|---:|---:|---|"]
        lines += [f"| {t['seconds']} | {t['boots']} | `{t['test']}` |" for t in report["slowest_tests"]]
    return "\n".join(lines) + "\n"


def cpu_section(cpu):
    """Where the CPU went (benchmarks/process_cpu.py), and the floor it sets: the run's CPU-seconds over the cores."""
    share = lambda seconds: f"{round(100 * seconds / cpu['busy_cpu_seconds'])} %"
    lines = ["## Where the CPU went", "",
             f"The {cpu['cores']} cores were busy {round(100 * cpu['busy_share'])} % of the run: {cpu['busy_cpu_seconds']} CPU-seconds "
             f"in {cpu['wall_seconds']} s, {cpu['run_cpu_seconds']} of them seen in the run's processes. Doing this work, the run cannot take less than "
             f"{cpu['floor_seconds']} s on {cpu['cores']} cores (its CPU-seconds over the cores): it is faster only with less work.", "",
             "| CPU-seconds | share | processes |", "|---:|---:|---|"]
    lines += [f"| {seconds} | {share(seconds)} | {process_cpu.KINDS[kind]} |" for kind, seconds in cpu["by_kind"].items() if seconds]
    lines += [f"| {cpu['unattributed_cpu_seconds']} | {share(cpu['unattributed_cpu_seconds'])} | unattributed (missed between samples: the run's, or the machine's) |",
              f"| {cpu['outside_cpu_seconds']} | {share(cpu['outside_cpu_seconds'])} | outside the run (the machine's other processes) |",
              f"| {cpu['sampler_cpu_seconds']} | {share(cpu['sampler_cpu_seconds'])} | the sampling itself (benchmarks/process_cpu.py) |"]
    return lines


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out-json", default=str(ROOT / "benchmarks" / "suite_times.json"))
    parser.add_argument("--out-md", default=str(ROOT / "benchmarks" / "SUITE_TIMES.md"))
    parser.add_argument("pytest_args", nargs="*")
    args = parser.parse_args()
    report = run(args.pytest_args)
    Path(args.out_json).write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    Path(args.out_md).write_text(markdown(report), encoding="utf-8")
    print(markdown(report, top=10))


if __name__ == "__main__":
    main()
