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
benchmarks/BROWSER.md and every time to benchmarks/blocks.json. The header says
whether the machine was quiet or shared, from the share of the CPUs other
processes kept busy (/proc/stat, less this run's own Node process) before,
during and after the run: quiet when under QUIET_BELOW all three times.
"""

import json
import os
import statistics
import subprocess
import sys
import resource
import tempfile
import time
from pathlib import Path

from minigrad.runner import pins

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
BEGIN, END = "<!-- bench_blocks.py: begin -->", "<!-- bench_blocks.py: end -->"
SLOWEST_LIMIT_MS, MEDIAN_LIMIT_MS = 1000, 50  # the goals
QUIET_BELOW = 0.10  # share of the CPUs other processes kept busy: below it before, during and after, the machine was quiet


def cpu_ticks():
    """(all ticks, busy ticks) of every CPU so far (/proc/stat), and this script's children's CPU seconds."""
    with open("/proc/stat") as f:
        fields = [int(x) for x in f.readline().split()[1:]]
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return sum(fields), sum(fields) - fields[3] - fields[4], children.ru_utime + children.ru_stime  # less idle, iowait


def others_share(before, after):
    """Share of all CPUs other processes kept busy between two cpu_ticks(): busy ticks less
    our children's (the Node process that runs the chains). The load average lags by
    minutes and counts waiting tasks; this is what the CPUs did."""
    total, busy = after[0] - before[0], after[1] - before[1]
    ours = (after[2] - before[2]) * os.sysconf("SC_CLK_TCK")
    return min(1.0, max(0.0, (busy - ours) / max(1, total)))


def others_busy(seconds=1.0):
    """others_share over `seconds` while this script only waits."""
    before = cpu_ticks()
    time.sleep(seconds)
    return others_share(before, cpu_ticks())


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


def machine(load, busy):
    """Quiet or shared, from the CPU share others kept busy before, during and after the run."""
    sampled = (f"other processes kept {busy[0]:.0%} of the CPUs busy before the run (1 s sample), "
               f"{busy[1]:.0%} during it, {busy[2]:.0%} after")
    if max(busy) < QUIET_BELOW:
        return f"The machine was quiet: {sampled}; load average {load[0]:.1f} before, {load[1]:.1f} after, on {os.cpu_count()} CPUs."
    return (f"The machine was shared: {sampled}; load average {load[0]:.1f} before, {load[1]:.1f} after, on {os.cpu_count()} CPUs; "
            "times are inflated by other processes and not repeated.")


def report(results, load, busy):
    times = sorted(r["ms"] for r in results)
    q = statistics.quantiles(times, n=10)
    slowest = sorted(results, key=lambda r: -r["ms"])[:10]
    median, top = statistics.median(times), times[-1]
    lines = [
        BEGIN,
        "## Every block, warm, in Pyodide",
        "",
        "Written by `uv run python benchmarks/bench_blocks.py` (its docstring says how); every time is in `blocks.json`.",
        f"{len(times)} chains (every doc block, healthy and broken), one Pyodide {pins.PYODIDE} in Node {subprocess.run(['node', '--version'], capture_output=True, text=True).stdout.strip()}.",
        machine(load, busy),
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
    before, busy_before = os.getloadavg()[0], others_busy()
    all_cases = cases()
    start = cpu_ticks()
    results = measure(all_cases)
    during = others_share(start, cpu_ticks())
    load, busy = (before, os.getloadavg()[0]), (busy_before, during, others_busy())
    (HERE / "blocks.json").write_text(json.dumps({"load": load, "others_busy": busy, "ms": {r["id"]: round(r["ms"], 2) for r in results}},
                                                 indent=1) + "\n", encoding="utf-8")
    section = report(results, load, busy)
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
