"""How long the doctor takes: CPython here, and warm Pyodide under Node.

    uv run python benchmarks/bench_doctor.py      # -> benchmarks/DOCTOR.md

Measures `minigrad.doctor.diagnose` (every diagnostic on both engines, evidence
and ranking; no printing) on two engine pairs: minigrad's own healthy Value and
Tensor, and two learner engines with planted bugs from tests/doctor_engines/
(a scalar one with its children in a set and a recursive sort, a tensor one
with lazy grads). CPython: REPEAT runs after one warm-up, median and minimum,
plus the wall time of the whole command `python -m minigrad.doctor` (a new
interpreter: imports included). Pyodide: the same code as one block run by
tests/pyodide/run_blocks.mjs (Pyodide and NumPy from node_modules, the way the
browser's worker runs blocks), timed inside Python after one warm-up run, so
the boot is not counted: that is the "warm" figure a reader sees on the page
after the first Run. Not a test: nothing here fails on a slow machine.
"""

import json
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
REPEAT = 7
ENGINES = ROOT / "tests" / "doctor_engines"

TIMED = """
import json, statistics, time
from minigrad.doctor import diagnose
from minigrad.scalar import Value
from minigrad.tensor import Tensor

learner_scalar, learner_tensor = {{}}, {{}}
exec({scalar!r}, learner_scalar)
exec({tensor!r}, learner_tensor)
pairs = {{
    "minigrad (healthy)": (Value, Tensor),
    "learner engines (planted bugs)": (learner_scalar["Value"], learner_tensor["Tensor"]),
}}
result = {{}}
for name, (V, T) in pairs.items():
    diagnose(V, T)  # warm-up
    times = []
    for _ in range({repeat}):
        start = time.perf_counter()
        diagnose(V, T)
        times.append(time.perf_counter() - start)
    result[name] = {{"median": statistics.median(times), "min": min(times)}}
print(json.dumps(result))
"""


def timed_code():
    return TIMED.format(
        scalar=(ENGINES / "set_children_tanh.py").read_text(),
        tensor=(ENGINES / "lazy_tensor_matmul.py").read_text(),
        repeat=REPEAT,
    )


def cpython():
    namespace = {}
    from contextlib import redirect_stdout
    from io import StringIO

    out = StringIO()
    with redirect_stdout(out):
        exec(timed_code(), namespace)
    return json.loads(out.getvalue())


def command_wall_time():
    times = []
    for _ in range(3):
        start = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "minigrad.doctor", "--scalar", f"{ENGINES}/set_children_tanh.py:Value",
             "--tensor", f"{ENGINES}/lazy_tensor_matmul.py:Tensor"],
            cwd=ROOT, capture_output=True, check=False,
        )
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def pyodide():
    job = [{"id": "doctor", "blocks": [{"code": timed_code(), "name": "<bench>", "first_line": 1}], "slug": None}]
    done = subprocess.run(["node", "tests/pyodide/run_blocks.mjs"], cwd=ROOT, input=json.dumps(job),
                          capture_output=True, text=True, check=True)
    results = json.loads(done.stdout.split("=== minigrad run_blocks results ===")[-1])
    if results[0]["runner_error"] or results[0]["error_type"]:
        raise RuntimeError(results[0])
    return json.loads(results[0]["output"].strip().splitlines()[-1])


def main():
    here = cpython()
    wall = command_wall_time()
    try:
        browser = pyodide()
        pyodide_note = "Pyodide 0.28.3 under Node " + subprocess.run(["node", "--version"], capture_output=True, text=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError, RuntimeError) as e:
        browser, pyodide_note = None, f"not measured: {e}"
    rows = ["| engines | CPython median (min) | warm Pyodide median (min) |", "|---|---|---|"]
    for name, t in here.items():
        p = browser[name] if browser else None
        shown = f"{p['median']:.2f} s ({p['min']:.2f} s)" if p else "n/a"
        rows.append(f"| {name} | {t['median']:.2f} s ({t['min']:.2f} s) | {shown} |")
    text = f"""# The doctor's speed

Written by `uv run python benchmarks/bench_doctor.py`; do not edit by hand.

`diagnose(Value, Tensor)`: every diagnostic on both engines, evidence and
ranking, {REPEAT} runs after a warm-up.

{chr(10).join(rows)}

The whole command, `python -m minigrad.doctor --scalar ... --tensor ...` on
the two learner engines (a new interpreter, imports included): **{wall:.2f} s**
(median of 3).

Conditions: CPython {platform.python_version()} on {platform.machine()}, {pyodide_note};
a 2-core machine shared with other jobs, so read the minima.
"""
    (ROOT / "benchmarks" / "DOCTOR.md").write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
