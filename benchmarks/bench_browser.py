"""The browser runner against bare Pyodide + NumPy, timed side by side in one run.

    uv run python benchmarks/bench_browser.py

Needs what the browser tests need (npm ci for node_modules/pyodide, Debian's
/usr/bin/chromium). It builds the offline site (MINIGRAD_PYODIDE=local,
MINIGRAD_SITE_URL = the served URL) with tests/browser/conftest.py's own build,
server and Chromium flags, copies benchmarks/bare/ into it as /bare/, serves it
on 127.0.0.1 and drives headless Chromium with Playwright. It writes
benchmarks/BROWSER.md (the table) and benchmarks/browser.json (every raw
number) and prints the table. About a minute on 2 quiet cores. This is not a
test: a missed goal is reported, never raised. `--site DIR --port N` measures
an already built site (built for that port) instead, e.g. a patched copy;
`--out DIR` writes elsewhere; `--cold N` changes the number of cold runs.

What is measured (times in the page, with performance.now, not through Playwright):

1. A page's cost before the reader shows intent (breaks/skip-unbroadcast/,
   fresh context, until network idle + 1 s): bytes of runner.js and runner.css
   (CDP Network.loadingFinished encodedDataLength: body + headers; this server
   does not compress) and requests for anything under _minigrad/ (Pyodide,
   NumPy, bundle.json) or worker.js, from the page or any worker.
2. The bare page (benchmarks/bare/): the same Pyodide and NumPy wheel from
   _minigrad/pyodide/, booted in a worker with nothing else. Cold: new Worker
   to the end of a tiny snippet that imports NumPy. Warm: postMessage to the
   end of BARE_WARM run by exec(compile()) in a fresh namespace (the least any
   runner does), a NumPy snippet doing the work of the site's block by hand
   (same arrays, broadcast add, sum, both gradients, the same prints; its
   output is checked equal to the block's). Also through pyodide.runPython.
3. The site. Cold: a real click (Playwright's mouse: pointerenter, then click)
   on Run of the first block of breaks/skip-unbroadcast/ in a fresh context,
   to the panel's data-state becoming done/error, from the click and from
   first intent (pointerenter/focus on a Run button, when the runner starts
   loading); with the CPU time all Chromium processes spent meanwhile, which
   other processes' load does not inflate; and a reader who hovers
   READER_DWELL_MS before clicking. Warm: the same block again (Run clicked
   by the page's script), as written and with its code replaced by BARE_WARM
   (the runner's own overhead on identical Python). Next page: click the nav
   link to breaks/overwrite-grad/ (instant navigation), then Run its first
   block; then back and forth. Each visit must request pyodide.asm.wasm once.

Cold runs: COLD fresh contexts of each kind, bare and site interleaved (who
goes first alternates), after one discarded pair that warms the machine and
the server's file cache; warm runs: WARM per context. Medians and minima; the
ratio is site / bare (medians; minima in brackets), the goal a bound on it.
The machine's load from other processes is sampled before each pair and
reported: on a shared machine, read the minima and the CPU times.
"""

import argparse
import datetime
import functools
import importlib.metadata
import importlib.util
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from http.server import ThreadingHTTPServer
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
HERE = ROOT / "benchmarks"
CHROMIUM = "/usr/bin/chromium"

COLD = 3
WARM = 7  # per context: 21 in all
NAV_ROUNDS = 2  # per site context: overwrite-grad, skip-unbroadcast, overwrite-grad, skip-unbroadcast
READER_DWELL_MS = 500
BREAK_PAGE = "breaks/skip-unbroadcast/"
NEXT_PAGE = "breaks/overwrite-grad/"

BARE_COLD = "import numpy as np\nprint(np.arange(3).sum())\n"
# The first block of breaks/skip-unbroadcast/, done by hand in NumPy: a + b
# broadcasts (3,) against (4, 3); the gradient of the sum is ones, summed back
# over the broadcast axis for a. Prints what the block prints.
BARE_WARM = """import numpy as np

a = np.array([1.0, 2.0, 3.0])
b = np.arange(10.0, 130.0, 10.0).reshape(4, 3)
out = a + b
loss = out.sum()
grad = np.ones_like(out) * 1.0
a_grad = grad.sum(axis=0)
b_grad = grad.copy()
print("a.grad.shape =", a_grad.shape, "  a.grad =", a_grad)
print("b.grad.shape =", b_grad.shape)
"""
EXPECTED_BLOCK = "a.grad.shape = (3,)   a.grad = [4. 4. 4.]\nb.grad.shape = (4, 3)\n"
EXPECTED_NEXT = "a.grad = 4.0"

# Observes, changes nothing: when a Run button first gets intent, the clicks on
# Run, and the runner worker's "ready" message (the Worker class is wrapped
# only to add a listener).
SITE_INIT = """
(() => {
  const b = (window.__bench = { intent: null, clicks: [], ready: null });
  const intent = (e) => {
    if (b.intent === null && e.target instanceof Element && e.target.closest(".mg-run")) b.intent = performance.now();
  };
  document.addEventListener("pointerenter", intent, true);
  document.addEventListener("focus", intent, true);
  document.addEventListener("click", (e) => {
    if (e.target instanceof Element && e.target.closest(".mg-run")) b.clicks.push(performance.now());
  }, true);
  b.messages = 0;
  const Base = window.Worker;
  window.Worker = class extends Base {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (e) => {
        b.messages += 1;
        if (e.data && e.data.type === "ready" && b.ready === null) b.ready = performance.now();
      });
    }
  };
  // Resolves with when the index-th panel next settles (done/error/stopped).
  b.settled = (index) => new Promise((resolve) => {
    const panel = document.querySelectorAll(".mg-runner")[index];
    const obs = new MutationObserver(() => {
      const state = panel.dataset.state;
      if (state === "done" || state === "error" || state === "stopped") {
        obs.disconnect();
        resolve({ at: performance.now(), state, text: panel.querySelector(".mg-output").textContent });
      }
    });
    obs.observe(panel, { attributes: true, attributeFilter: ["data-state"] });
  });
  // Click Run from the page and time it to the settled state, in the page; also
  // how long the click handler held the main thread, and the worker's messages.
  b.run = async (index) => {
    const panel = document.querySelectorAll(".mg-runner")[index];
    const settled = b.settled(index);
    const messages = b.messages;
    const t0 = performance.now();
    panel.querySelector(".mg-run").click();
    const t1 = performance.now();
    const s = await settled;
    return { ms: s.at - t0, handler: t1 - t0, messages: b.messages - messages, state: s.state, text: s.text };
  };
})();
"""


def load_conftest():
    """tests/browser/conftest.py: its Chromium flags, HTTP server and build, reused as they are."""
    spec = importlib.util.spec_from_file_location("browser_conftest", ROOT / "tests" / "browser" / "conftest.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def med(xs):
    return statistics.median(xs)


def summary(xs):
    return {"median": med(xs), "min": min(xs), "max": max(xs), "n": len(xs)}


def browser_cpu():
    """{pid: CPU ticks (user + system, all threads) so far} of this script's Chromium processes."""
    me, parents, ticks, names = os.getpid(), {}, {}, {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        pid, rest = int(entry), stat[stat.rindex(")") + 2 :].split()
        parents[pid], ticks[pid], names[pid] = int(rest[1]), int(rest[11]) + int(rest[12]), stat[stat.index("(") + 1 : stat.rindex(")")]

    def ours(pid):
        while pid > 1:
            pid = parents.get(pid, 0)
            if pid == me:
                return True
        return False

    return {pid: t for pid, t in ticks.items() if "chrom" in names[pid] and ours(pid)}


def cpu_ms(before, after):
    """CPU ms Chromium spent between two browser_cpu() samples: processes alive at the end
    (one that exits in between, like a closed context's renderer, is left out, not subtracted)."""
    return sum(t - before.get(pid, 0) for pid, t in after.items()) * 1000 / os.sysconf("SC_CLK_TCK")


def others_busy(seconds=1.0):
    """Share of all CPUs that other processes kept busy over `seconds` (/proc/stat, less
    this script's Chromium), sampled while this script waits: the machine's background load."""

    def sample():
        with open("/proc/stat") as f:
            fields = [int(x) for x in f.readline().split()[1:]]
        return sum(fields), fields[3] + fields[4], browser_cpu()

    total0, idle0, ours0 = sample()
    time.sleep(seconds)
    total1, idle1, ours1 = sample()
    ticks = max(1, total1 - total0)
    ours = cpu_ms(ours0, ours1) * os.sysconf("SC_CLK_TCK") / 1000
    return min(1.0, max(0.0, (ticks - (idle1 - idle0) - ours) / ticks))


# ---- measurements ---------------------------------------------------------------


def page_cost(browser, url):
    """Bytes a page transfers before intent, by URL (CDP), and every request (page and workers)."""
    context = browser.new_context()
    page = context.new_page()
    requests = []
    page.on("request", lambda r: requests.append(r.url))
    cdp = context.new_cdp_session(page)
    urls, sizes = {}, {}
    cdp.on("Network.responseReceived", lambda e: urls.__setitem__(e["requestId"], e["response"]["url"]))
    cdp.on("Network.loadingFinished", lambda e: sizes.__setitem__(e["requestId"], e["encodedDataLength"]))
    cdp.send("Network.enable")
    page.goto(url)
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(1000)
    by_url = {}
    for rid, size in sizes.items():
        u = urls.get(rid, rid)
        by_url[u] = by_url.get(u, 0) + size
    context.close()
    return by_url, requests


def bare_context(browser, base, wheel):
    context = browser.new_context()
    page = context.new_page()
    page.goto(f"{base}bare/?wheel={wheel}")
    cpu = browser_cpu()
    cold = page.evaluate("(code) => bare.cold(code)", BARE_COLD)
    cpu = cpu_ms(cpu, browser_cpu())
    assert cold["error"] is None and cold["text"].strip() == "3", cold
    warm = {"exec": [], "runPython": []}
    for _ in range(WARM):
        for via, times in warm.items():
            r = page.evaluate("([code, via]) => bare.warm(code, via)", [BARE_WARM, via])
            assert r["error"] is None and r["text"] == EXPECTED_BLOCK, r
            times.append(r["done"])
    context.close()
    return {
        "cold": cold["done"],
        "cold_cpu": cpu,
        "cold_first_output": cold["first"],
        "stages": cold["stages"],
        "import_numpy_and_print": cold["python"],
        "warm": warm["exec"],
        "warm_runPython": warm["runPython"],
    }


def site_context(browser, base, dwell_ms=0, extras=True):
    """One visit: cold run, then (extras) warm runs and instant navigation."""
    context = browser.new_context()
    context.add_init_script(SITE_INIT)
    page = context.new_page()
    requests = []
    page.on("request", lambda r: requests.append(r))
    page.goto(base + BREAK_PAGE)
    page.wait_for_load_state("networkidle")
    origin = page.evaluate("performance.timeOrigin")
    page.evaluate("() => { window.__bench.pending = window.__bench.settled(0); }")  # not awaited here
    run = page.locator(".mg-run").first
    cpu = browser_cpu()
    if dwell_ms:
        run.hover()
        page.wait_for_timeout(dwell_ms)
    run.click()
    settled = page.evaluate("window.__bench.pending")
    cpu = cpu_ms(cpu, browser_cpu())
    marks = page.evaluate("({intent: __bench.intent, click: __bench.clicks[0], ready: __bench.ready, bootMs: window.__minigradRuntime.bootMs})")
    assert settled["state"] == "done" and settled["text"] == EXPECTED_BLOCK, settled
    t0 = marks["intent"]
    timeline = []
    for r in requests:
        t = r.timing
        if r.url.startswith(base) and ("_minigrad/" in r.url or r.url.endswith("worker.js")) and t["startTime"] > 0:
            start = t["startTime"] - origin - t0
            timeline.append({"url": r.url[len(base) :], "start": start, "end": start + t["responseEnd"]})
    out = {
        "from_click": settled["at"] - marks["click"],
        "from_intent": settled["at"] - marks["intent"],
        "intent_to_click": marks["click"] - marks["intent"],
        "cpu": cpu,
        "worker_boot_ms": marks["bootMs"],
        "ready_from_intent": marks["ready"] - t0 if marks["ready"] is not None else None,
        "timeline": timeline,
    }
    if not extras:
        context.close()
        return out

    warm, details = [], []
    for _ in range(WARM):
        r = page.evaluate("window.__bench.run(0)")
        assert r["state"] == "done" and r["text"] == EXPECTED_BLOCK, r
        warm.append(r["ms"])
    # The same panel running exactly the bare page's snippet: the runner's own overhead.
    page.locator("div.language-python.highlight code").first.evaluate("(el, code) => { el.textContent = code; }", BARE_WARM)
    same_code = []
    for _ in range(WARM):
        r = page.evaluate("window.__bench.run(0)")
        assert r["state"] == "done" and r["text"] == EXPECTED_BLOCK, r
        same_code.append(r["ms"])
        details.append({"handler_ms": r["handler"], "messages": r["messages"]})
    page.locator(".mg-reset").first.click()

    page.evaluate("window.__marker = 'same document'")
    nav = []
    for i in range(2 * NAV_ROUNDS):
        target = NEXT_PAGE if i % 2 == 0 else BREAK_PAGE
        page.locator(f"nav a[href$='{target.split('/')[-2]}/']").first.click()  # instant navigation
        page.wait_for_url(base + target)
        slug = target.split("/")[-2]
        page.wait_for_function("(slug) => document.querySelector('.mg-page')?.dataset.minigradBreak === slug && document.querySelector('.mg-runner')", arg=slug)
        assert page.evaluate("window.__marker") == "same document", "not an instant navigation"
        r = page.evaluate("window.__bench.run(0)")
        assert r["state"] == "done", r
        assert (EXPECTED_NEXT if target == NEXT_PAGE else EXPECTED_BLOCK.strip()) in r["text"], r
        nav.append({"page": target, "ms": r["ms"]})
    out.update(
        warm=warm,
        same_code=same_code,
        same_code_details=details,
        nav=nav,
        wasm_requests=sum(1 for r in requests if r.url.endswith("pyodide.asm.wasm")),
    )
    context.close()
    return out


# ---- report ---------------------------------------------------------------------


def source():
    """The commit the site was built from, and which of its sources differ from it."""

    def git(*args):
        done = subprocess.run(["git", "--no-optional-locks", "-C", str(ROOT), *args], capture_output=True, text=True, check=False)
        return done.stdout if done.returncode == 0 else ""

    commit = git("rev-parse", "--short", "HEAD").strip() or None
    changed = git("status", "--porcelain", "--untracked-files=no", "--", "docs", "minigrad", "overrides", "hooks", "mkdocs.yml")
    return {"commit": commit, "modified": [line[3:] for line in changed.splitlines() if line.strip()]}


def versions(browser):
    pyodide = json.loads((ROOT / "node_modules" / "pyodide" / "package.json").read_text())["version"]
    cpu = ""
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return {
        "chromium": browser.version,
        "playwright": importlib.metadata.version("playwright"),
        "pyodide": pyodide,
        "mkdocs-material": importlib.metadata.version("mkdocs-material"),
        "python": platform.python_version(),
        "os": platform.platform(),
        "cpu": cpu,
        "nproc": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count(),
        "source": source(),
    }


def ms(x):
    return f"{x:,.0f} ms" if x >= 100 else f"{x:.1f} ms"


def kb(n):
    return f"{n / 1000:.1f} kB"


def build_report(data):
    R, v, S = data["results"], data["versions"], data["summary"]
    rows = []

    def verdict(ok):
        return "met" if ok else "**missed**"

    c = R["cost"]
    rows.append(
        (
            "Runner assets before intent: runner.js + runner.css + pictures.css (worker.js, picture.js not loaded)",
            f"{kb(c['runner_js'] + c['runner_css'] + c['pictures_css'])} ({kb(c['runner_js'])} + {kb(c['runner_css'])} + {kb(c['pictures_css'])})",
            "none (no runner)",
            "",
            "< 50 kB",
            verdict(c["runner_js"] + c["runner_css"] + c["pictures_css"] < 50_000),
        )
    )
    rows.append(
        (
            "Pyodide, NumPy, bundle.json, worker.js, the picture renderer before intent (page and workers)",
            f"{c['runtime_bytes']:,} B, {c['runtime_requests']} requests",
            f"{c['bare_runtime_bytes']:,} B, {c['bare_runtime_requests']} requests",
            "",
            "0",
            verdict(c["runtime_bytes"] == 0 and c["runtime_requests"] == 0),
        )
    )
    rows.append(
        (
            "Home page before intent: runner assets; Pyodide, NumPy, bundle.json, worker.js, picture renderer",
            f"{kb(c['home_runner_assets'])}; {c['home_runtime_bytes']:,} B, {c['home_runtime_requests']} requests",
            "",
            "",
            "< 50 kB; 0",
            verdict(c["home_runner_assets"] < 50_000 and c["home_runtime_bytes"] == 0 and c["home_runtime_requests"] == 0),
        )
    )
    rows.append(
        (
            "Static pictures (SVG files, content: no renderer) before intent: this page; home page",
            f"{kb(c['pictures'])}; {kb(c['home_pictures'])} (whole home page {kb(c['home_page_total'])})",
            "",
            "",
            "",
            "",
        )
    )
    search = sum(n for u, n in c["by_url"].items() if u.endswith("search_index.json"))
    rows.append(
        (
            "Whole page before intent (HTML, theme, runner; for scale)",
            f"{kb(c['page_total'])}, of which Material's search index {kb(search)}",
            kb(c["bare_page_total"]),
            "",
            "",
            "",
        )
    )

    def timing_row(name, site, bare, goal="", bound=None, note=""):
        ratio = med(site) / med(bare)
        rows.append(
            (
                name,
                f"{ms(med(site))} / {ms(min(site))}",
                f"{ms(med(bare))} / {ms(min(bare))}",
                f"{ratio:.2f}x (min {min(site) / min(bare):.2f}x)",
                goal,
                verdict(ratio <= bound) if bound else note,
            )
        )

    bc = R["bare"]["cold"]
    timing_row("Cold first Run to done, from click", R["site"]["cold_from_click"], bc, "<= 1.15x bare cold", 1.15)
    timing_row("Cold first Run to done, from first intent", R["site"]["cold_from_intent"], bc, "<= 1.15x bare cold", 1.15)
    timing_row(
        "Cold: browser CPU time spent (all Chromium processes; robust to others' load)", R["site"]["cold_cpu"], R["bare"]["cold_cpu"], "", None, "(evidence)"
    )
    timing_row(f"Cold, reader who hovers {READER_DWELL_MS} ms before clicking: from click", R["reader"]["from_click"], bc, "", None, "(intent head start)")
    timing_row(f"Cold, reader who hovers {READER_DWELL_MS} ms before clicking: from intent", R["reader"]["from_intent"], bc, "<= 1.15x bare cold", 1.15)
    bw = R["bare"]["warm"]
    timing_row("Warm Run, same block again as written (minigrad Tensors: also builds and walks a graph)", R["site"]["warm"], bw, "<= 1.5x bare warm", 1.5)
    timing_row(
        "Warm Run, same block edited to the bare snippet (identical Python: the runner's overhead)", R["site"]["same_code"], bw, "<= 1.5x bare warm", 1.5
    )
    first_nav = [n[0]["ms"] for n in R["site"]["nav"]]
    all_nav = [x["ms"] for n in R["site"]["nav"] for x in n]
    wasm = R["site"]["wasm_requests"]
    timing_row(
        "Next page (overwrite-grad #1) first Run after instant navigation",
        first_nav,
        bw,
        "warm: 1 pyodide.asm.wasm per visit",
        None,
        verdict(all(w == 1 for w in wasm)) + f" ({wasm} per visit)",
    )
    timing_row("Run after instant navigation, every visit back and forth", all_nav, bw, "", None, "")

    busy = data["load"]["others_busy_before_each_pair"]
    details = R["site"]["same_code_details"]
    lines = [
        "# The browser runner against bare Pyodide + NumPy",
        "",
        "Written by `uv run python benchmarks/bench_browser.py` (its docstring says what each",
        "number is); every raw number is in `browser.json`.",
        "",
        f"- Date: {data['date']}",
        (
            f"- Site built from commit {v['source']['commit'] or 'unknown'}"
            + (f", with uncommitted changes to {', '.join(v['source']['modified'])}" if v["source"]["modified"] else " (no uncommitted changes to its sources)")
        ),
        f"- Machine: {v['nproc']} CPUs (nproc), {v['cpu']}; {v['os']}",
        (
            f"- Load from other processes: load average {data['load']['loadavg_before'][0]:.1f} before the run, "
            f"{data['load']['loadavg_after'][0]:.1f} after; share of the CPUs kept busy by them (1 s sample, this script waiting) "
            f"before each cold pair: {', '.join(f'{b:.0%}' for b in busy)}"
        ),
        f"- Chromium {v['chromium']} (headless, the flags of tests/browser/conftest.py), Playwright {v['playwright']},",
        f"  Pyodide {v['pyodide']}, NumPy wheel {data['wheel']}, mkdocs-material {v['mkdocs-material']}, Python {v['python']} (server)",
        "- Site and bare page served by Python's http.server on 127.0.0.1: no compression, no",
        f"  network latency. Cold: {data['config']['cold']} fresh contexts of each kind (bare and site interleaved, after one",
        f"  discarded pair); warm: {WARM} runs per context ({len(bw)} in all). Times are taken in the page (performance.now).",
        "",
        "Times: median / min. Ratio: site median / bare median (and min / min). performance.now() is",
        "coarsened to 0.1 ms in these (not cross-origin isolated) pages, so warm ratios carry about ±10%.",
        "",
        "| Metric | Site | Bare page | Ratio | Goal | Verdict |",
        "|---|---|---|---|---|---|",
    ]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    lines += [
        "",
        "Cold ratio of each interleaved pair (site from click / bare): " + ", ".join(f"{x:.2f}" for x in S["cold_pair_ratios_from_click"]) + ".",
        (
            f"Warm runs of the bare snippet on the site: the click handler holds the main thread "
            f"{med([d['handler_ms'] for d in details]):.1f} ms (median), and the worker posts "
            f"{med([d['messages'] for d in details]):.0f} messages per run (the bare page: 2 lines + done = 3)."
        ),
        (
            f"For scale, the bare page's warm run through pyodide.runPython instead of exec(compile()): "
            f"{ms(med(R['bare']['warm_runPython']))} median, {ms(min(R['bare']['warm_runPython']))} min."
        ),
    ]

    # Where the cold time goes: the median site cold run, and the bare page's stages.
    runs = R["site"]["cold_runs"]
    mid = sorted(runs, key=lambda r: r["from_intent"])[len(runs) // 2]
    lines += [
        "",
        "## Where a cold run's time goes",
        "",
        f"The median site cold run ({ms(mid['from_intent'])} from intent), in ms from intent:",
        "",
        "| Event | Start | End |",
        "|---|---|---|",
    ]
    for t in sorted(mid["timeline"], key=lambda t: t["start"]):
        lines.append(f"| fetch `{t['url']}` | {t['start']:.0f} | {t['end']:.0f} |")
    lines += [
        f"| click (Playwright: pointerenter, then click) | {mid['intent_to_click']:.0f} | |",
        f"| worker's `ready` message (its boot took {mid['worker_boot_ms']:.0f} ms) | | {mid['ready_from_intent']:.0f} |",
        f"| panel data-state done | | {mid['from_intent']:.0f} |",
        "",
        "The worker requests the NumPy wheel once loadPyodide has finished, so that request marks",
        "the end of Pyodide's own boot (wasm compile, Python start). Between it and `ready`: NumPy's",
        "unpacking and shared libraries, bundle.json written to the file system, and the prelude",
        "(importing minigrad, hence NumPy).",
        "",
        "Bare page, median of each stage (worker clock): "
        + ", ".join(f"{k} {med([s[k] for s in R['bare']['stages']]):.0f} ms" for k in R["bare"]["stages"][0])
        + f", then `import numpy` + print {med(R['bare']['import_numpy_and_print']):.0f} ms.",
    ]
    return "\n".join(lines) + "\n"


def _serve_on(conftest, site, port):
    """conftest._serve, on a fixed port (a prebuilt site's sitemap names its port)."""
    handler = type("Handler", (conftest._Handler,), {"isolated": False})
    server = ThreadingHTTPServer(("127.0.0.1", port), functools.partial(handler, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{port}/"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", help="serve this already built site instead of building (it must have been built for --port)")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--cold", type=int, default=COLD, help=f"cold runs of each kind (default {COLD}), after one discarded pair")
    parser.add_argument("--out", default=str(HERE), help="directory for BROWSER.md and browser.json (default: benchmarks/)")
    args = parser.parse_args()
    started = time.monotonic()
    if not Path(CHROMIUM).exists():
        sys.exit(f"{CHROMIUM} is missing (apt-get install chromium)")
    if not (ROOT / "node_modules" / "pyodide" / "pyodide.js").exists():
        sys.exit("node_modules/pyodide is missing (npm ci)")
    conftest = load_conftest()

    tmp = None
    if args.site:
        if not args.port:
            sys.exit("--site needs --port: the port the site was built for (instant navigation follows its sitemap)")
        site = Path(args.site)
        server, base = _serve_on(conftest, site, args.port)
    else:
        tmp = tempfile.mkdtemp(prefix="minigrad-bench-site-")
        site = Path(tmp)
        server, base = conftest._serve(site, isolated=False)
        conftest._build(site, base)
    bare_dir = site / "bare"
    if bare_dir.exists():
        shutil.rmtree(bare_dir)
    shutil.copytree(HERE / "bare", bare_dir)
    wheel = next((site / "_minigrad" / "pyodide").glob("numpy-*.whl")).name
    print(f"serving {site} at {base} ({time.monotonic() - started:.1f} s)", file=sys.stderr)

    R = {
        "bare": {"cold": [], "cold_cpu": [], "cold_first_output": [], "stages": [], "import_numpy_and_print": [], "warm": [], "warm_runPython": []},
        "site": {
            "cold_from_click": [],
            "cold_from_intent": [],
            "cold_cpu": [],
            "cold_runs": [],
            "warm": [],
            "same_code": [],
            "same_code_details": [],
            "nav": [],
            "wasm_requests": [],
        },
        "reader": {"from_click": [], "from_intent": []},
        "background_busy": [],
    }
    load_before = os.getloadavg()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=conftest.CHROMIUM_FLAGS, headless=True)
            info = versions(browser)

            by_url, requests = page_cost(browser, base + BREAK_PAGE)
            bare_by_url, bare_requests = page_cost(browser, f"{base}bare/?wheel={wheel}")

            home_by_url, home_requests = page_cost(browser, base)

            def runtime(u):
                # Pyodide, NumPy, bundle.json, the worker, and the live-picture renderer (picture.js,
                # _minigrad/viz/viz.js); a page's static pictures (_minigrad/pictures/) are content.
                static_picture = "_minigrad/pictures/" in u
                return u.startswith(base) and (("_minigrad/" in u and not static_picture) or u.endswith(("/worker.js", "/picture.js")))

            def runner_assets(urls):
                return sum(s for u, s in urls.items() if u.endswith(("assets/minigrad/runner.js", "assets/minigrad/runner.css", "assets/minigrad/pictures.css")))

            def pictures(urls):
                return sum(s for u, s in urls.items() if "_minigrad/pictures/" in u)

            R["cost"] = {
                "runner_js": sum(s for u, s in by_url.items() if u.endswith("assets/minigrad/runner.js")),
                "runner_css": sum(s for u, s in by_url.items() if u.endswith("assets/minigrad/runner.css")),
                "runtime_bytes": sum(s for u, s in by_url.items() if runtime(u)),
                "runtime_requests": sum(1 for u in requests if runtime(u)),
                "pictures_css": sum(s for u, s in by_url.items() if u.endswith("assets/minigrad/pictures.css")),
                "pictures": pictures(by_url),
                "page_total": sum(by_url.values()),
                "home_runner_assets": runner_assets(home_by_url),
                "home_runtime_bytes": sum(s for u, s in home_by_url.items() if runtime(u)),
                "home_runtime_requests": sum(1 for u in home_requests if runtime(u)),
                "home_pictures": pictures(home_by_url),
                "home_page_total": sum(home_by_url.values()),
                "bare_runtime_bytes": sum(s for u, s in bare_by_url.items() if runtime(u) and "/bare/" not in u),
                "bare_runtime_requests": sum(1 for u in bare_requests if runtime(u) and "/bare/" not in u),
                "bare_page_total": sum(bare_by_url.values()),
                "by_url": {u.removeprefix(base): s for u, s in by_url.items() if not u.startswith("data:")},
            }
            print(f"page cost done ({time.monotonic() - started:.1f} s)", file=sys.stderr)

            for i in range(args.cold + 1):
                busy = others_busy()
                # Alternate who goes first, so a drift in the machine's load hits both alike.
                if i % 2:
                    s = site_context(browser, base)
                    b = bare_context(browser, base, wheel)
                else:
                    b = bare_context(browser, base, wheel)
                    s = site_context(browser, base)
                r = site_context(browser, base, dwell_ms=READER_DWELL_MS, extras=False)
                print(
                    f"pair {i}: others busy {busy:.0%}; bare cold {b['cold']:.0f} ms ({b['cold_cpu']:.0f} ms CPU), "
                    f"site cold {s['from_click']:.0f} from click, {s['from_intent']:.0f} from intent ({s['cpu']:.0f} ms CPU), "
                    f"reader {r['from_click']:.0f} from click ({time.monotonic() - started:.1f} s)",
                    file=sys.stderr,
                )
                if i == 0:
                    continue  # warms the machine, the browser and the server's file cache
                R["background_busy"].append(busy)
                for k in ("cold", "cold_cpu", "cold_first_output", "stages", "import_numpy_and_print"):
                    R["bare"][k].append(b[k])
                R["bare"]["warm"] += b["warm"]
                R["bare"]["warm_runPython"] += b["warm_runPython"]
                R["site"]["cold_from_click"].append(s["from_click"])
                R["site"]["cold_from_intent"].append(s["from_intent"])
                R["site"]["cold_cpu"].append(s["cpu"])
                R["site"]["cold_runs"].append(
                    {k: s[k] for k in ("from_click", "from_intent", "intent_to_click", "cpu", "worker_boot_ms", "ready_from_intent", "timeline")}
                )
                R["site"]["warm"] += s["warm"]
                R["site"]["same_code"] += s["same_code"]
                R["site"]["same_code_details"] += s["same_code_details"]
                R["site"]["nav"].append(s["nav"])
                R["site"]["wasm_requests"].append(s["wasm_requests"])
                R["reader"]["from_click"].append(r["from_click"])
                R["reader"]["from_intent"].append(r["from_intent"])
            browser.close()
    finally:
        server.shutdown()
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)

    data = {
        "date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
        "versions": info,
        "wheel": wheel,
        "load": {"loadavg_before": load_before, "loadavg_after": os.getloadavg(), "others_busy_before_each_pair": R["background_busy"]},
        "config": {
            "cold": args.cold,
            "warm_per_context": WARM,
            "nav_rounds": NAV_ROUNDS,
            "reader_dwell_ms": READER_DWELL_MS,
            "break_page": BREAK_PAGE,
            "next_page": NEXT_PAGE,
            "bare_cold": BARE_COLD,
            "bare_warm": BARE_WARM,
        },
        "summary": {
            "bare_cold": summary(R["bare"]["cold"]),
            "bare_cold_cpu": summary(R["bare"]["cold_cpu"]),
            "bare_warm": summary(R["bare"]["warm"]),
            "bare_warm_runPython": summary(R["bare"]["warm_runPython"]),
            "site_cold_from_click": summary(R["site"]["cold_from_click"]),
            "site_cold_from_intent": summary(R["site"]["cold_from_intent"]),
            "site_cold_cpu": summary(R["site"]["cold_cpu"]),
            "cold_pair_ratios_from_click": [s / b for s, b in zip(R["site"]["cold_from_click"], R["bare"]["cold"])],
            "reader_from_click": summary(R["reader"]["from_click"]),
            "reader_from_intent": summary(R["reader"]["from_intent"]),
            "site_warm": summary(R["site"]["warm"]),
            "site_warm_same_code": summary(R["site"]["same_code"]),
            "site_next_page_first_run": summary([n[0]["ms"] for n in R["site"]["nav"]]),
            "site_next_page_all_runs": summary([x["ms"] for n in R["site"]["nav"] for x in n]),
        },
        "results": R,
        "elapsed_s": round(time.monotonic() - started, 1),
    }
    report = build_report(data)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    previous = (out / "BROWSER.md").read_text(encoding="utf-8") if (out / "BROWSER.md").exists() else ""
    marker = "<!-- bench_blocks.py: begin -->"  # bench_blocks.py's section (every block's time) is kept
    if marker in previous:
        report = report.rstrip("\n") + "\n\n" + previous[previous.index(marker):]
    (out / "BROWSER.md").write_text(report, encoding="utf-8")
    (out / "browser.json").write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(report)
    print(f"{data['elapsed_s']} s; wrote {out / 'BROWSER.md'} and {out / 'browser.json'}", file=sys.stderr)


if __name__ == "__main__":
    main()
