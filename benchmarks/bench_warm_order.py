"""What a warm run is taken after changes its time: the check behind warm_interleaved's order.

    uv run python benchmarks/bench_warm_order.py [--rounds 4]

bench_browser.py used to take the bare page's pyodide.runPython run (reported for
scale) inside the series of the tensor page's block as written: bare exec, site,
bare runPython, bare exec, ... Here the same fresh contexts as bench_browser's
(bare page and tensor page, both open) take series of 25 runs in turn, with and
without that runPython run, alternating which goes first. It writes
benchmarks/warm_order.json (every run) and prints each series' medians and
ratio. Not a test: it reports. Needs what bench_browser.py needs; about 4
minutes on 2 quiet cores.
"""

import argparse
import json
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

import bench_browser as bb
from playwright.sync_api import sync_playwright

OUT = bb.HERE / "warm_order.json"
RUNS = 25


def series(bare, site, with_run_python):
    """RUNS site runs of the block as written, each after one bare exec run (and, if asked,
    followed by a bare runPython run, as bench_browser's first series once was)."""
    out = {"with_run_python": with_run_python, "site": [], "bare": []}
    for _ in range(RUNS):
        out["bare"].append(bb.bare_warm(bare, "exec")["done"])
        bb.drawn(site)
        out["site"].append(bb.site_warm(site)["ms"])
        if with_run_python:
            bb.bare_warm(bare, "runPython")
    med = statistics.median
    out["ratio"] = med(out["site"]) / med(out["bare"])
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=4)
    args = parser.parse_args()
    conftest = bb.load_conftest()
    site = Path(tempfile.mkdtemp(prefix="minigrad-order-site-"))
    server, base = bb.serve_on(conftest, site, 0, [])
    conftest.build_site(site, base)
    shutil.copytree(bb.HERE / "bare", site / "bare")
    wheel = next((site / "_minigrad" / "pyodide").glob("numpy-*.whl")).name
    rounds = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=bb.CHROMIUM, args=conftest.CHROMIUM_FLAGS, headless=True)
        for r in range(args.rounds):
            b, s = bb.bare_context(browser, base, wheel), bb.site_context(browser, base)
            bb.site_warm(s["page"])
            order = [True, False, True, False] if r % 2 == 0 else [False, True, False, True]
            rounds.append([series(b["page"], s["page"], w) for w in order])
            b["context"].close()
            s["context"].close()
            print(r, " | ".join(f"{'with' if x['with_run_python'] else 'without'} runPython: {x['ratio']:.2f}x" for x in rounds[-1]), file=sys.stderr)
    server.shutdown()
    shutil.rmtree(site, ignore_errors=True)
    every = [x for rnd in rounds for x in rnd]
    summary = {k: sorted(round(x["ratio"], 2) for x in every if x["with_run_python"] == k) for k in (True, False)}
    OUT.write_text(json.dumps({"source": bb.source(), "runs_per_series": RUNS, "rounds": rounds,
                               "ratios_with_run_python": summary[True], "ratios_without": summary[False]}, indent=1) + "\n")
    print(f"as written / bare, per series: with runPython in the series {summary[True]}; without {summary[False]}")


if __name__ == "__main__":
    main()
