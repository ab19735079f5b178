"""How long the doctor takes on a learner's whole engine: the command line, and warm Pyodide.

    uv run python benchmarks/bench_doctor.py      # -> benchmarks/DOCTOR.md and benchmarks/doctor.json

The engines are the healthy learner packages of tests/learner_engines (three
styles unlike minigrad's) and a copy of minigrad's own engine files laid out
as a learner's `src/minigrad/`. Measured:
- `python -m minigrad.doctor --engine DIR`, the whole command (a new
  interpreter, the child process the learner's code runs in, imports and
  report included), REPEAT runs each: the issue's goal is at most 3 s;
- `check_folder(DIR)` in this process after one warm-up (the checks alone);
- the same `check_folder` in Pyodide under Node (tests/pyodide/run_blocks.mjs,
  the way the browser's worker runs blocks), the files written into Pyodide's
  file system as the page's "Load a folder" does, timed inside Python after
  one warm-up run: the warm run a reader sees on the page (goal: at most 3 s).
Not a test: nothing here fails on a slow machine.
"""

import contextlib
import io
import json
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from minigrad.runner import pins  # noqa: E402 (after the path)
REPEAT = 5
GOAL_S = 3.0
LEARNERS = ROOT / "tests" / "learner_engines"
MINIGRAD_FILES = ["__init__.py", "scalar.py", "graph.py", "tensor.py", "nn.py", "optim.py", "functional.py"]


def engines(tmp):
    """{name: package folder}: the healthy learner styles and minigrad as a learner's package."""
    from tests.learner_engines.harness import STYLES, package_folder

    found = {f"learner style '{style}'": package_folder(style) for style in STYLES}
    package = Path(tmp) / "src" / "minigrad"
    package.mkdir(parents=True)
    for name in MINIGRAD_FILES:
        shutil.copy(ROOT / "minigrad" / name, package / name)
    found["minigrad's engine as a learner's src/minigrad"] = package
    torchlike = Path(tmp) / "torchlike" / "mygrad"
    shutil.copytree(ROOT / "tests" / "doctor_engines" / "torchlike" / "mygrad", torchlike,
                    ignore=shutil.ignore_patterns("__pycache__"))
    found["tests/doctor_engines/torchlike (files named otherwise)"] = torchlike
    return found


def lines(folder):
    """The engine's size: every line of its Python files (what the issue's 1,000-line engine counts)."""
    return sum(len(p.read_text(encoding="utf-8").splitlines()) for p in folder.rglob("*.py") if "__pycache__" not in p.parts)


def command(folder):
    times = []
    for _ in range(REPEAT):
        start = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "minigrad.doctor", "--engine", str(folder), "--json"],
                              cwd=ROOT, capture_output=True, text=True, check=False)
        times.append(time.perf_counter() - start)
        assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    return {"median": statistics.median(times), "min": min(times)}


def in_process(folder):
    from minigrad.doctor import check_folder

    times = []
    for i in range(REPEAT + 1):
        start = time.perf_counter()
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            check_folder(folder)
        times.append(time.perf_counter() - start)
    return {"median": statistics.median(times[1:]), "min": min(times[1:])}


PYODIDE = """
import contextlib, io, json, os, statistics, time
files = {files!r}
for path, text in files.items():
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
from minigrad.doctor import check_folder
times = []
for _ in range({repeat} + 1):
    start = time.perf_counter()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        diagnosis = check_folder({folder!r})
    times.append(time.perf_counter() - start)
assert not diagnosis.caught
print(json.dumps({{"median": statistics.median(times[1:]), "min": min(times[1:]), "first": times[0]}}))
"""


def pyodide(folder):
    root = "/home/pyodide/learner/" + folder.name
    files = {f"{root}/{p.relative_to(folder)}": p.read_text() for p in folder.rglob("*.py") if "__pycache__" not in p.parts}
    code = PYODIDE.format(files=files, repeat=REPEAT, folder=root)
    job = [{"id": "doctor", "blocks": [{"code": code, "name": "<bench>", "first_line": 1}], "slug": None}]
    done = subprocess.run(["node", "tests/pyodide/run_blocks.mjs"], cwd=ROOT, input=json.dumps(job),
                          capture_output=True, text=True, check=True)
    results = json.loads(done.stdout.split("=== minigrad run_blocks results ===")[-1])
    if results[0]["runner_error"] or results[0]["error_type"]:
        raise RuntimeError(results[0])
    return json.loads(results[0]["output"].strip().splitlines()[-1])


def seconds(t):
    return f"{t['median']:.2f} s ({t['min']:.2f} s)" if t else "n/a"


def main():
    with tempfile.TemporaryDirectory() as tmp:
        data = {}
        for name, folder in engines(tmp).items():
            row = {"lines": lines(folder), "command": command(folder), "in_process": in_process(folder)}
            try:
                row["pyodide"] = pyodide(folder)
            except (OSError, subprocess.CalledProcessError, RuntimeError) as e:
                row["pyodide"], row["pyodide_error"] = None, str(e)[:500]
            data[name] = row
    node = subprocess.run(["node", "--version"], capture_output=True, text=True).stdout.strip()
    data["_conditions"] = {"python": platform.python_version(), "machine": platform.machine(), "node": node, "repeat": REPEAT}
    (ROOT / "benchmarks" / "doctor.json").write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    rows = ["| engine | lines | `--engine DIR`, whole command | checks in CPython | warm in Pyodide |", "|---|---|---|---|---|"]
    for name, row in data.items():
        if not name.startswith("_"):
            rows.append(f"| {name} | {row['lines']} | {seconds(row['command'])} | {seconds(row['in_process'])} | {seconds(row['pyodide'])} |")
    worst_command = max(r["command"]["median"] for n, r in data.items() if not n.startswith("_"))
    warm = [r["pyodide"]["median"] for n, r in data.items() if not n.startswith("_") and r["pyodide"]]
    text = f"""# The doctor's speed

Written by `uv run python benchmarks/bench_doctor.py` (raw numbers in doctor.json); do not edit by hand.

Every check on a healthy learner's whole package (Value where it has one,
Tensor, nn, optim, functional), median (minimum) of {REPEAT} runs:

{chr(10).join(rows)}

- The whole command takes at most {worst_command:.2f} s (median) here: goal {GOAL_S:g} s, {"met" if worst_command <= GOAL_S else "missed"}.
- The page's warm run (Pyodide, after the first) takes at most {max(warm):.2f} s: goal {GOAL_S:g} s, {"met" if max(warm) <= GOAL_S else "missed"}.

Conditions: CPython {platform.python_version()} on {platform.machine()}, Pyodide {pins.PYODIDE} under Node {node};
a 2-core machine, possibly shared with other jobs, so read the minima too.
""" if warm else "Pyodide not measured: " + str(data)
    (ROOT / "benchmarks" / "DOCTOR.md").write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
