"""BROWSER.md from browser.json: the numbers and verdicts are computed here, every
word is in browser_report.md.jinja, so a change of wording is not a change of code.

bench_browser.py calls `render` after a run; tests/test_benchmark_reports.py
renders the committed browser.json and compares it with the committed report.
"""

import statistics
from pathlib import Path

import jinja2

TEMPLATE = Path(__file__).with_name("browser_report.md.jinja")


def med(xs):
    return statistics.median(xs)


def ms(x):
    return f"{x:,.0f} ms" if x >= 100 else f"{x:.1f} ms"


def kb(n):
    return f"{n / 1000:.1f} kB"


def verdict(ok):
    return "met" if ok else "**missed**"


def timing(site, bare, bound=None, note=""):
    """One timing row's cells after its name and goal: site and bare (median / min), their ratio, the verdict."""
    ratio = med(site) / med(bare)
    return {"site": f"{ms(med(site))} / {ms(min(site))}", "bare": f"{ms(med(bare))} / {ms(min(bare))}",
            "ratio": f"{ratio:.2f}x (min {min(site) / min(bare):.2f}x)", "verdict": verdict(ratio <= bound) if bound else note}


def timings(data):
    R, G = data["results"], data["config"]["goals"]
    bc, bw, SC, site = R["bare"]["cold"], R["bare"]["warm"], R["scalar"], R["site"]
    stages = R["bare"]["stages"]
    numpy_cost = [s["loadPackage"] + p for s, p in zip(stages, R["bare"]["import_numpy_and_print"])]
    nav_ok = all(n == 1 for n in SC["nav_numpy_requests"] + SC["nav_numpy_server_requests"] + SC["nav_wasm_requests"])
    wasm = site["wasm_requests"]
    return {
        "tensor_click": timing(site["cold_from_click"], bc, G["tensor_cold"]),
        "tensor_intent": timing(site["cold_from_intent"], bc, G["tensor_cold"]),
        "tensor_cpu": timing(site["cold_cpu"], R["bare"]["cold_cpu"], note="(evidence)"),
        "reader_click": timing(R["reader"]["from_click"], bc, note="(intent head start)"),
        "reader_intent": timing(R["reader"]["from_intent"], bc, G["tensor_cold"]),
        "scalar_click": timing(SC["cold_from_click"], bc, G["scalar_cold"]),
        "scalar_intent": timing(SC["cold_from_intent"], bc, G["scalar_cold"]),
        "scalar_cpu": timing(SC["cold_cpu"], R["bare"]["cold_cpu"], note="(evidence)"),
        "warm": timing(site["warm"], bw, G["warm"]),
        "no_picture": timing(site["no_picture"], bw, note="(evidence)"),
        "same_code": timing(site["same_code"], bw, G["warm"]),
        "scalar_warm": timing(SC["warm"], bw),
        "tensor_after_nav": timing(SC["tensor_after_nav"], numpy_cost, note=verdict(nav_ok) + (
            f" (per visit: NumPy {SC['nav_numpy_requests']}, at the server {SC['nav_numpy_server_requests']}; wasm {SC['nav_wasm_requests']})")),
        "first_nav": timing([n[0]["ms"] for n in site["nav"]], bw, note=verdict(all(w == 1 for w in wasm)) + f" ({wasm} per visit)"),
        "all_nav": timing([x["ms"] for n in site["nav"] for x in n], bw),
        "second_visit": timing([v["from_click"] for v in site["second_visit"]], [v["from_click"] for v in R["bare"]["second_visit"]],
                               note="(reported: no goal)"),
    }


def median_run(runs):
    """The median cold run (by time from intent), its requests in start order."""
    mid = sorted(runs, key=lambda r: r["from_intent"])[len(runs) // 2]
    return {**mid, "timeline": sorted(mid["timeline"], key=lambda t: t["start"])}


def render(data):
    R, c, SC = data["results"], data["results"]["cost"], data["results"]["scalar"]
    environment = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATE.parent), trim_blocks=True, lstrip_blocks=True,
                                     keep_trailing_newline=True, undefined=jinja2.StrictUndefined, autoescape=False)
    environment.filters.update(med=med, ms=ms, kb=kb)
    return environment.get_template(TEMPLATE.name).render(
        data=data, R=R, c=c, SC=SC, v=data["versions"], S=data["summary"], G=data["config"]["goals"],
        t=timings(data), verdict=verdict, median_run=median_run,
        assets=[f"{u.removeprefix('assets/minigrad/')} {kb(n)}" for u, n in sorted(c["runner_assets"].items(), key=lambda x: -x[1])],
        search=sum(n for u, n in c["by_url"].items() if u.endswith("search_index.json")),
        isolated=", ".join(map(str, sorted({r["cross_origin_isolated"] for r in R["site"]["cold_runs"] + SC["cold_runs"]}))),
        details=R["site"]["same_code_details"],
    )
