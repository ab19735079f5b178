"""Every block of every page, healthy and broken, timed warm in Pyodide (issue 15 item 4).

    uv run python benchmarks/bench_blocks.py
    uv run python benchmarks/bench_blocks.py --only sgd-sign-flipped   # time only matching chains

With --only SUBSTRING it times only the chains whose id contains SUBSTRING
(repeatable) and prints them, slowest first, with the CPU time Node spent on
each (less inflated than wall time when other processes share the machine),
writing nothing: for comparing a block before and after lightening it.

Runs the chains of tests/test_pyodide_blocks.py (every doc block, healthy and
with its page's break applied) through tests/pyodide/run_blocks.mjs: one Node
process, one Pyodide, NumPy loaded before the first chain that needs it (as the
browser does), each chain timed around run_chain (performance.now). "Warm" means
the interpreter is up; a chain still pays its own first imports of minigrad's
modules. Node's V8 runs the same Pyodide wasm as Chromium, so this is the
block's Python cost, without the page's messaging (bench_browser.py measures
that on one block). Writes the section between the markers at the end of
benchmarks/BROWSER.md and every time to benchmarks/blocks.json.
"""

import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
BEGIN, END = "<!-- bench_blocks.py: begin -->", "<!-- bench_blocks.py: end -->"
SLOWEST_LIMIT_MS, MEDIAN_LIMIT_MS = 1000, 50  # the goals


def cases():
    sys.path.insert(0, str(ROOT / "tests"))
    import test_pyodide_blocks as parity

    return parity.CASES


def measure(all_cases):
    job = [{"id": c.id, "blocks": [{"code": b.code, "name": b.name, "first_line": b.first_line} for b in c.chain()],
            "slug": c.slug} for c in all_cases]
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "results.json"
        subprocess.run(["node", str(ROOT / "tests/pyodide/run_blocks.mjs"), str(out)], input=json.dumps(job),
                       text=True, check=True, cwd=ROOT, capture_output=True)
        return json.loads(out.read_text(encoding="utf-8"))


def report(results, load):
    times = sorted(r["ms"] for r in results)
    q = statistics.quantiles(times, n=10)
    slowest = sorted(results, key=lambda r: -r["ms"])[:10]
    median, top = statistics.median(times), times[-1]
    lines = [
        BEGIN,
        "## Every block, warm, in Pyodide",
        "",
        "Written by `uv run python benchmarks/bench_blocks.py` (its docstring says how); every time is in `blocks.json`.",
        f"{len(times)} chains (every doc block, healthy and broken), one Pyodide 0.28.3 in Node {subprocess.run(['node', '--version'], capture_output=True, text=True).stdout.strip()}.",
        f"The machine was shared: load average {load[0]:.1f} before, {load[1]:.1f} after, on {os.cpu_count()} CPUs; "
        "times are inflated by other processes and not repeated.",
        "",
        "| Statistic | ms | Goal | Verdict |",
        "|---|---|---|---|",
        f"| Median | {median:.1f} | < {MEDIAN_LIMIT_MS} | {'met' if median < MEDIAN_LIMIT_MS else '**missed**'} |",
        f"| 10th / 90th percentile | {q[0]:.1f} / {q[-1]:.1f} | | |",
        f"| Slowest | {top:.1f} | < {SLOWEST_LIMIT_MS} | {'met' if top < SLOWEST_LIMIT_MS else '**missed**'} |",
        f"| Total, all chains | {sum(times):.0f} | | |",
        "",
        "The ten slowest:",
        "",
        "| Chain (page, block, mode) | ms |",
        "|---|---|",
        *[f"| `{r['id']}` | {r['ms']:.1f} |" for r in slowest],
        END,
    ]
    return "\n".join(lines) + "\n"


def only(substrings):
    """Times the chains whose id contains one of substrings; prints them, writes nothing."""
    results = measure([c for c in cases() if any(s in c.id for s in substrings)])
    print("  wall ms    CPU ms  chain")
    for r in sorted(results, key=lambda r: -r["ms"]):
        print(f"{r['ms']:8.1f}  {r['cpu_ms']:8.1f}  {r['id']}")


def main():
    if "--only" in sys.argv:
        return only([arg for flag, arg in zip(sys.argv, sys.argv[1:]) if flag == "--only"])
    before = os.getloadavg()[0]
    all_cases = cases()
    results = measure(all_cases)
    load = (before, os.getloadavg()[0])
    (HERE / "blocks.json").write_text(json.dumps({"load": load, "ms": {r["id"]: round(r["ms"], 2) for r in results}},
                                                 indent=1) + "\n", encoding="utf-8")
    section = report(results, load)
    path = HERE / "BROWSER.md"
    text = path.read_text(encoding="utf-8")
    if BEGIN in text:
        text = text[: text.index(BEGIN)] + section + text[text.index(END) + len(END) + 1:]
    else:
        text = text.rstrip("\n") + "\n\n" + section
    path.write_text(text, encoding="utf-8")
    print(section)


if __name__ == "__main__":
    main()
