"""The browser runner against bare Pyodide + NumPy, timed side by side in one run.

    uv run python benchmarks/bench_browser.py

Needs what the browser tests need (npm ci for node_modules/pyodide, Debian's
/usr/bin/chromium). It builds the offline site (MINIGRAD_PYODIDE=local,
MINIGRAD_SITE_URL = the served URL) with tests/browser/conftest.py's own build,
server and Chromium flags, copies benchmarks/bare/ into it as /bare/, serves it
on 127.0.0.1 and drives headless Chromium with Playwright. It writes
benchmarks/BROWSER.md (the table) and benchmarks/browser.json (every raw
number) and prints the table. A few minutes on 2 quiet cores. This is not a
test: a missed goal is reported, never raised. `--site DIR --port N` measures
an already built site (built for that port) instead, e.g. a patched copy;
`--out DIR` writes elsewhere; `--cold N` changes the number of cold runs.

What is measured (times in the page, with performance.now, not through Playwright);
the goals are issue 15's item 3, in GOALS:

1. A page's cost before the reader shows intent (breaks/skip-unbroadcast/ and
   the home page, fresh context, until network idle + 1 s): the bytes of
   everything under assets/minigrad/ (runner.js and the styles), as the server
   sent them (bodies; this server does not compress; what the HTTP cache
   answers, like coi-serviceworker's one reload, costs nothing), and requests
   for anything under _minigrad/ (Pyodide, NumPy, bundle.json, the picture
   renderer) or worker.js, from the page or any worker.
2. The bare page (benchmarks/bare/): the same Pyodide and NumPy wheel from
   _minigrad/pyodide/, booted in a worker with nothing else. Cold: new Worker
   to the end of a tiny snippet that imports NumPy. Warm: postMessage to the
   end of BARE_WARM run by exec(compile()) in a fresh namespace (the least a
   runner does on a first run; the site's runner keeps an unchanged block's
   compiled code, so its warm runs skip compile()), a NumPy snippet doing the
   work of the tensor page's block by hand (same arrays, broadcast add, sum,
   both gradients, the same prints; its output is checked equal to the
   block's). Also through pyodide.runPython.
3. The tensor page (BREAK_PAGE, its first block imports NumPy). Cold: a real
   click (Playwright's mouse: pointerenter, then click) on Run of its first
   block in a fresh context, to the panel's data-state becoming done/error,
   from the click and from first intent (pointerenter/focus on a Run button,
   when the runner starts loading); with the CPU time all Chromium processes
   spent meanwhile, which other processes' load does not inflate; and a reader
   who hovers READER_DWELL_MS before clicking. Goal: <= 1.1x the bare page's
   cold. Warm: the same block again (Run clicked by the page's script, once the
   last run's picture is on the page), as written, without its picture (what
   drawing costs) and with its code replaced by BARE_WARM (the runner's own
   overhead on identical Python), each run taken in
   turn with a bare page's warm run, both pages open (warm_interleaved). Goal:
   <= 1.5x the bare warm run. Then instant
   navigation (a nav link) to the scalar page and back, a Run on each; each
   visit must request pyodide.asm.wasm once.
4. The scalar page (NEXT_PAGE, its first block uses minigrad.scalar only). Cold
   as above, goal <= 0.8x the bare page's cold, and no request for the NumPy
   wheel: counted in the page (Playwright sees the workers' requests too) and
   at the server (requests and bytes; the server records every GET it
   answers, so whatever the HTTP cache answers is not counted). Warm runs of its
   block (other Python than the bare snippet: for scale). Then instant
   navigation to the tensor page and Run its first block: its time (NumPy
   loads in it) beside the bare page's loadPackage + import numpy; over the
   visit the NumPy wheel must be requested once (page and server) and
   pyodide.asm.wasm once; back to the scalar page, a Run requests neither.
5. A second visit with the HTTP cache warm, tensor page and bare page: a browser
   with a profile on disk (an ordinary Playwright context caches in memory and
   keeps neither the 9 MB wasm nor the 12 MB wheel), a first visit, the page
   closed, a new page: Python boots again from the HTTP cache. The site's first
   Run from click beside the bare page's cold(), and what still reached the
   server. Reported, no goal.

Cold runs: COLD rounds, each a fresh context of each kind (bare, tensor page,
scalar page; who goes first rotates, so a drift in the machine's load hits
every kind alike) plus the hovering reader's, after one discarded round that
warms the machine and the server's file cache; warm runs: WARM per context
and kind, bare and site in turn.
Medians and minima; the ratio is site / bare (medians; minima in brackets),
the goal a bound on it. The machine's load from other processes is sampled
before each round and reported: on a shared machine, read the minima and the
CPU times.
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
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from http.server import ThreadingHTTPServer
from pathlib import Path

from browser_report import med
from browser_report import render as build_report  # BROWSER.md from the data: browser_report.md.jinja
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
HERE = ROOT / "benchmarks"
CHROMIUM = "/usr/bin/chromium"

COLD = 5  # rounds: a cold run is seconds, and one slow round moved the median of 3 by 5%
WARM = 25  # per context: 75 in all (a warm run is a few ms; 7 left the medians at the mercy of a few slow ones)
NAV_ROUNDS = 2  # per site context: overwrite-grad, skip-unbroadcast, overwrite-grad, skip-unbroadcast
READER_DWELL_MS = 500
BREAK_PAGE = "breaks/skip-unbroadcast/"  # the tensor page: its first block needs NumPy
NEXT_PAGE = "breaks/overwrite-grad/"  # the scalar page: its first block needs no NumPy
# Issue 15 item 3: bounds on site / bare (medians).
GOALS = {"tensor_cold": 1.1, "scalar_cold": 0.8, "warm": 1.5}

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
        if (e.data && e.data.type === "done") b.python = e.data.python_ms;
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
  // how long the click handler held the main thread, the worker's messages, and
  // how long the blocks ran in Python (the worker's done message says).
  b.run = async (index) => {
    const panel = document.querySelectorAll(".mg-runner")[index];
    const settled = b.settled(index);
    const messages = b.messages;
    const t0 = performance.now();
    panel.querySelector(".mg-run").click();
    const t1 = performance.now();
    const s = await settled;
    return { ms: s.at - t0, handler: t1 - t0, python: b.python, messages: b.messages - messages, state: s.state, text: s.text };
  };
})();
"""


def load_conftest():
    """tests/browser/conftest.py: its Chromium flags, HTTP server and build, reused as they are."""
    here = str(ROOT / "tests" / "browser")
    if here not in sys.path:
        sys.path.insert(0, here)  # conftest imports its neighbour editing.py, as pytest's rootdir import allows
    spec = importlib.util.spec_from_file_location("browser_conftest", ROOT / "tests" / "browser" / "conftest.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


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


def page_cost(browser, url, base, served):
    """Bytes a page fetched before intent, by URL, as the server answered them (bodies, from
    its log: a request the HTTP cache answered, like coi-serviceworker's one reload, costs
    nothing and is not counted), and every request (page and workers)."""
    context = browser.new_context()
    page = context.new_page()
    requests = []
    page.on("request", lambda r: requests.append(r.url))
    mark = len(served)
    page.goto(url)
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(1000)
    context.close()
    by_url = {}
    for e in served[mark:]:
        u = base + e["path"].lstrip("/")
        by_url[u] = by_url.get(u, 0) + e["bytes"]
    return by_url, requests


def bare_context(browser, base, wheel):
    """The bare page's cold run; its page stays open for the warm runs (warm_interleaved)."""
    context = browser.new_context()
    page = context.new_page()
    page.goto(f"{base}bare/?wheel={wheel}")
    cpu = browser_cpu()
    cold = page.evaluate("(code) => bare.cold(code)", BARE_COLD)
    cpu = cpu_ms(cpu, browser_cpu())
    assert cold["error"] is None and cold["text"].strip() == "3", cold
    return {
        "cold": cold["done"],
        "cold_cpu": cpu,
        "cold_first_output": cold["first"],
        "stages": cold["stages"],
        "import_numpy_and_print": cold["python"],
        "context": context,
        "page": page,
    }


def bare_warm(page, via):
    r = page.evaluate("([code, via]) => bare.warm(code, via)", [BARE_WARM, via])
    assert r["error"] is None and r["text"] == EXPECTED_BLOCK, r
    return r


def site_warm(page):
    r = page.evaluate("window.__bench.run(0)")
    assert r["state"] == "done" and r["text"] == EXPECTED_BLOCK, r
    return r


def warm_interleaved(bare, site):
    """Warm runs of the bare page and the tensor page, taken in turn (bare, site, bare, ...)
    with both pages open: the machine's speed drifts between contexts a minute apart (with
    25 runs per context in a row, the ratio was 1.47x in one quiet run and 1.67x in the
    next), so runs compared against each other are taken in the same seconds. First the block as
    written; then the same block without its picture (its `draw(loss)` line made `pass`: what
    drawing costs a run); then the same panel running exactly the bare snippet (the runner's
    own overhead). Every site run follows one bare exec run and nothing else: the bare page's
    runs through pyodide.runPython (for scale) are taken last, on their own. Inside the first
    series (bare, site, bare runPython, bare, ...) they raised its ratio: 1.27-1.61x (median
    1.36x) against 0.96-1.44x (1.20x) without them, in eight series of 25 each, taken in
    turn in the same contexts (bench_warm_order.py, warm_order.json). The bare page's exec
    run then came right after its own runPython run of the same snippet, caches warm, and
    the site's run after two of the bare page's."""
    kinds = ("bare", "bare_runPython", "site", "no_picture", "same_code")
    out = {**{k: [] for k in kinds}, **{k + "_python": [] for k in kinds}, "same_code_details": []}

    def bare_run(key, via):
        r = bare_warm(bare, via)
        out[key].append(r["done"])
        out[key + "_python"].append(r["python"])

    def site_run(key):
        r = site_warm(site)
        out[key].append(r["ms"])
        out[key + "_python"].append(r["python"])
        return r

    for _ in range(WARM):
        bare_run("bare", "exec")
        drawn(site)  # a reader runs again after seeing the picture, not while Graphviz lays it out
        site_run("site")
    drawn(site)
    code = site.locator("div.language-python.highlight code").first
    as_written = code.text_content()
    assert as_written.count("    draw(loss)") == 1, as_written
    for text, key in ((as_written.replace("    draw(loss)", "    pass"), "no_picture"), (BARE_WARM, "same_code")):
        code.evaluate("(el, code) => { el.textContent = code; }", text)
        for _ in range(WARM):
            bare_run("bare", "exec")
            r = site_run(key)
            if key == "same_code":
                out["same_code_details"].append({"handler_ms": r["handler"], "messages": r["messages"]})
    site.locator(".mg-reset").first.click()
    for _ in range(WARM):
        bare_run("bare_runPython", "runPython")
    return out


def wheel_stats(served, since, wheel):
    """Requests for the NumPy wheel that reached the server since `since`, and their bytes."""
    hits = [e for e in served[since:] if e["path"].endswith(wheel)]
    return len(hits), sum(e["bytes"] for e in hits)


def cold_visit(context, base, path, expected, dwell_ms=0):
    """Open `path` in a new page of `context`, click Run on its first block (after
    hovering `dwell_ms`), time it to done in the page. Returns (page, requests, result)."""
    page = context.new_page()
    requests = []
    page.on("request", lambda r: requests.append(r))
    page.goto(base + path)
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
    marks = page.evaluate(
        "({intent: __bench.intent, click: __bench.clicks[0], ready: __bench.ready, bootMs: window.__minigradRuntime.bootMs, isolated: crossOriginIsolated})"
    )
    assert settled["state"] == "done" and expected(settled["text"]), settled
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
        "cross_origin_isolated": marks["isolated"],
        "timeline": timeline,
    }
    return page, requests, out


PICTURE_SHOWN = """(i) => {
  const box = document.querySelectorAll(".mg-runner")[i].querySelector(".mg-live-pictures");
  const img = box && !box.hidden && box.querySelector("img");
  return Boolean(img && img.complete);
}"""


def drawn(page):
    """Wait until the first block's last run has its picture on the page (both measured blocks
    draw): a reader runs again after seeing the result, not while Graphviz still lays it out."""
    page.wait_for_function(PICTURE_SHOWN, arg=0, timeout=120_000)


def is_block(text):
    return text == EXPECTED_BLOCK


def is_next(text):
    return EXPECTED_NEXT in text


def site_context(browser, base, dwell_ms=0, extras=True):
    """The tensor page's cold run; with extras its page stays open for the warm runs
    (warm_interleaved) and instant navigation (site_navigation)."""
    context = browser.new_context()
    context.add_init_script(SITE_INIT)
    page, requests, out = cold_visit(context, base, BREAK_PAGE, is_block, dwell_ms)
    if not extras:
        context.close()
        return out
    out.update(context=context, page=page, requests=requests)
    return out


def site_navigation(page, base, requests):
    """Instant navigation back and forth from the tensor page, a Run on each visit."""
    page.evaluate("window.__marker = 'same document'")
    nav = []
    for i in range(2 * NAV_ROUNDS):
        target = NEXT_PAGE if i % 2 == 0 else BREAK_PAGE
        r = navigate_and_run(page, base, target)
        assert (EXPECTED_NEXT if target == NEXT_PAGE else EXPECTED_BLOCK.strip()) in r["text"], r
        nav.append({"page": target, "ms": r["ms"]})
    return {"nav": nav, "wasm_requests": sum(1 for r in requests if r.url.endswith("pyodide.asm.wasm"))}


def second_visit(playwright, conftest, base, wheel, served, bare):
    """A reader who comes back: a browser with a profile on disk (Playwright's ordinary
    contexts keep their HTTP cache in memory, which does not keep Pyodide's 9 MB wasm or the
    12 MB wheel, so nothing would be cached), a first visit (cold), the page closed, then a
    new page: Python boots again, its files from the HTTP cache (or revalidated). Times the
    second visit's first Run (site: from click; bare: cold()), and what reached the server."""
    profile = tempfile.mkdtemp(prefix="minigrad-bench-profile-")
    context = playwright.chromium.launch_persistent_context(profile, executable_path=CHROMIUM, args=conftest.CHROMIUM_FLAGS, headless=True)
    try:
        if bare:

            def visit():
                page = context.new_page()
                page.goto(f"{base}bare/?wheel={wheel}")
                r = page.evaluate("(code) => bare.cold(code)", BARE_COLD)
                assert r["error"] is None and r["text"].strip() == "3", r
                page.close()
                return {"from_click": r["done"]}

        else:
            context.add_init_script(SITE_INIT)

            def visit():
                page, _, r = cold_visit(context, base, BREAK_PAGE, is_block)
                page.close()
                return {k: r[k] for k in ("from_click", "from_intent", "cpu", "cross_origin_isolated")}

        first = visit()
        mark = len(served)
        out = visit()
    finally:
        context.close()
        shutil.rmtree(profile, ignore_errors=True)
    reached = served[mark:]
    return {
        **out,
        "first_visit": first["from_click"],
        "server_requests": len(reached),
        "server_bytes": sum(e["bytes"] for e in reached),
        "server_not_modified": sum(1 for e in reached if e["status"] == 304),
        "server_paths": sorted({e["path"] for e in reached if e["bytes"]}),
    }


def navigate_and_run(page, base, target):
    """Instant navigation (a nav link) to `target`, then Run its first block, timed in the page."""
    page.locator(f"nav a[href$='{target.split('/')[-2]}/']").first.click()
    page.wait_for_url(base + target)
    slug = target.split("/")[-2]
    page.wait_for_function("(slug) => document.querySelector('.mg-page')?.dataset.minigradBreak === slug && document.querySelector('.mg-runner')", arg=slug)
    assert page.evaluate("window.__marker") == "same document", "not an instant navigation"
    r = page.evaluate("window.__bench.run(0)")
    assert r["state"] == "done", r
    return r


def scalar_context(browser, base, served, wheel):
    """The scalar page (no NumPy): cold run, NumPy fetched meanwhile, warm runs of its
    block; then instant navigation to the tensor page and its first Run (NumPy loads)."""
    context = browser.new_context()
    context.add_init_script(SITE_INIT)
    mark = len(served)
    page, requests, out = cold_visit(context, base, NEXT_PAGE, is_next)
    page.wait_for_timeout(500)  # anything the run set going (a NumPy fetch would) has started
    out["cold_numpy_requests"] = sum(1 for r in requests if r.url.endswith(wheel))
    out["cold_numpy_server_requests"], out["cold_numpy_bytes"] = wheel_stats(served, mark, wheel)
    warm = []
    for _ in range(WARM):
        drawn(page)
        r = page.evaluate("window.__bench.run(0)")
        assert r["state"] == "done" and EXPECTED_NEXT in r["text"], r
        warm.append(r["ms"])
    drawn(page)
    page.evaluate("window.__marker = 'same document'")
    r = navigate_and_run(page, base, BREAK_PAGE)
    assert r["text"] == EXPECTED_BLOCK, r
    again = navigate_and_run(page, base, NEXT_PAGE)  # and back: no second interpreter, no second NumPy
    assert EXPECTED_NEXT in again["text"], again
    out.update(
        warm=warm,
        tensor_after_nav=r["ms"],
        nav_numpy_requests=sum(1 for q in requests if q.url.endswith(wheel)),
        nav_numpy_server=wheel_stats(served, mark, wheel),
        nav_wasm_requests=sum(1 for q in requests if q.url.endswith("pyodide.asm.wasm")),
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


def serve_on(conftest, site, port, served=None):
    """conftest's server (its handler: MIME types, no log), on a fixed port (a prebuilt site's
    sitemap names its port; 0 picks one), recording into `served` every GET that reaches it:
    {path, status, bytes of body}. What the HTTP cache answered never gets here."""
    served = [] if served is None else served
    lock = threading.Lock()

    class Handler(conftest._Handler):
        isolated = False

        def send_response(self, code, message=None):
            self.status_sent = code
            super().send_response(code, message)

        def copyfile(self, source, outputfile):
            try:
                while chunk := source.read(1 << 16):
                    outputfile.write(chunk)
                    self.bytes_sent += len(chunk)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the page went away mid-download (a context closed): what was sent is counted

        def do_GET(self):
            self.status_sent, self.bytes_sent = None, 0
            try:
                super().do_GET()
            finally:
                with lock:
                    served.append({"path": urllib.parse.urlsplit(self.path).path, "status": self.status_sent, "bytes": self.bytes_sent})

    server = ThreadingHTTPServer(("127.0.0.1", port), functools.partial(Handler, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


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
    served = []  # every GET that reached the server (see serve_on)
    if args.site:
        if not args.port:
            sys.exit("--site needs --port: the port the site was built for (instant navigation follows its sitemap)")
        site = Path(args.site)
        server, base = serve_on(conftest, site, args.port, served)
    else:
        tmp = tempfile.mkdtemp(prefix="minigrad-bench-site-")
        site = Path(tmp)
        server, base = serve_on(conftest, site, 0, served)
        conftest.build_site(site, base)
    bare_dir = site / "bare"
    if bare_dir.exists():
        shutil.rmtree(bare_dir)
    shutil.copytree(HERE / "bare", bare_dir)
    wheel = next((site / "_minigrad" / "pyodide").glob("numpy-*.whl")).name
    print(f"serving {site} at {base} ({time.monotonic() - started:.1f} s)", file=sys.stderr)

    R = {
        "bare": {
            "cold": [],
            "cold_cpu": [],
            "cold_first_output": [],
            "stages": [],
            "import_numpy_and_print": [],
            "warm": [],
            "warm_runPython": [],
            "second_visit": [],
        },
        "site": {
            "cold_from_click": [],
            "cold_from_intent": [],
            "cold_cpu": [],
            "cold_runs": [],
            "warm": [],
            "no_picture": [],
            "same_code": [],
            "same_code_details": [],
            "nav": [],
            "wasm_requests": [],
            "second_visit": [],
        },
        "scalar": {
            "cold_from_click": [],
            "cold_from_intent": [],
            "cold_cpu": [],
            "cold_runs": [],
            "cold_numpy_requests": [],
            "cold_numpy_server_requests": [],
            "cold_numpy_bytes": [],
            "warm": [],
            "tensor_after_nav": [],
            "nav_numpy_requests": [],
            "nav_numpy_server_requests": [],
            "nav_wasm_requests": [],
        },
        "order": [],
        "reader": {"from_click": [], "from_intent": []},
        "background_busy": [],
        "warm_rounds": [],  # per round, the median of each kind's warm runs
        "warm_python": {"bare": [], "site": [], "no_picture": [], "same_code": []},  # Python's share of each run (worker clock)
    }
    load_before = os.getloadavg()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=conftest.CHROMIUM_FLAGS, headless=True)
            info = versions(browser)

            by_url, requests = page_cost(browser, base + BREAK_PAGE, base, served)
            bare_by_url, bare_requests = page_cost(browser, f"{base}bare/?wheel={wheel}", base, served)
            home_by_url, home_requests = page_cost(browser, base, base, served)

            def runtime(u):
                # Pyodide, NumPy, bundle.json, the worker, and the live-picture renderer (picture.js,
                # picture-worker.js, _minigrad/viz/viz.js); a page's static pictures (_minigrad/pictures/) are content.
                static_picture = "_minigrad/pictures/" in u
                return u.startswith(base) and (
                    ("_minigrad/" in u and not static_picture) or u.endswith(("/worker.js", "/picture.js", "/picture-worker.js"))
                )

            def runner_assets(urls):
                # Everything of ours under assets/minigrad/ (runner, its styles, the editor's and the
                # matrix's styles, mystery.js) but what `runtime` counts.
                return {u.removeprefix(base): s for u, s in urls.items() if "/assets/minigrad/" in u and not runtime(u)}

            def pictures(urls):
                return sum(s for u, s in urls.items() if "_minigrad/pictures/" in u)

            R["cost"] = {
                "runner_assets": runner_assets(by_url),
                "runtime_bytes": sum(s for u, s in by_url.items() if runtime(u)),
                "runtime_requests": sum(1 for u in requests if runtime(u)),
                "pictures": pictures(by_url),
                "page_total": sum(by_url.values()),
                "home_runner_assets": sum(runner_assets(home_by_url).values()),
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

            kinds = {
                "bare": lambda: bare_context(browser, base, wheel),
                "site": lambda: site_context(browser, base),
                "scalar": lambda: scalar_context(browser, base, served, wheel),
            }
            order = list(kinds)
            for i in range(args.cold + 1):
                busy = others_busy()
                # Rotate who goes first, so a drift in the machine's load hits every kind alike.
                turn = order[i % 3 :] + order[: i % 3]
                got = {kind: kinds[kind]() for kind in turn}
                b, s, sc = got["bare"], got["site"], got["scalar"]
                warm = warm_interleaved(b.pop("page"), s["page"])
                b.pop("context").close()
                s.update(site_navigation(s.pop("page"), base, s.pop("requests")))
                s.pop("context").close()
                r = site_context(browser, base, dwell_ms=READER_DWELL_MS, extras=False)
                for bare in (i % 2 == 0, i % 2 == 1):
                    (b if bare else s)["second_visit"] = second_visit(p, conftest, base, wheel, served, bare)
                print(
                    f"round {i} ({', '.join(turn)}): others busy {busy:.0%}; bare cold {b['cold']:.0f} ms ({b['cold_cpu']:.0f} ms CPU), "
                    f"tensor page cold {s['from_click']:.0f} from click ({s['cpu']:.0f} ms CPU), scalar page cold {sc['from_click']:.0f} "
                    f"(NumPy {sc['cold_numpy_requests']} requests), tensor page after it {sc['tensor_after_nav']:.0f}, "
                    f"second visit: site {s['second_visit']['from_click']:.0f}, bare {b['second_visit']['from_click']:.0f}; "
                    f"reader {r['from_click']:.0f} from click ({time.monotonic() - started:.1f} s)",
                    file=sys.stderr,
                )
                if i == 0:
                    continue  # warms the machine, the browser and the server's file cache
                R["background_busy"].append(busy)
                R["warm_rounds"].append({k: med(v) for k, v in warm.items() if k != "same_code_details"})
                R["order"].append(turn)
                for k in ("cold", "cold_cpu", "cold_first_output", "stages", "import_numpy_and_print", "second_visit"):
                    R["bare"][k].append(b[k])
                for k in R["warm_python"]:
                    R["warm_python"][k] += warm[k + "_python"]
                R["bare"]["warm"] += warm["bare"]
                R["bare"]["warm_runPython"] += warm["bare_runPython"]
                R["site"]["cold_from_click"].append(s["from_click"])
                R["site"]["cold_from_intent"].append(s["from_intent"])
                R["site"]["cold_cpu"].append(s["cpu"])
                R["site"]["cold_runs"].append(
                    {k: s[k] for k in ("from_click", "from_intent", "intent_to_click", "cpu", "worker_boot_ms", "ready_from_intent", "cross_origin_isolated", "timeline")}
                )
                R["site"]["warm"] += warm["site"]
                R["site"]["no_picture"] += warm["no_picture"]
                R["site"]["same_code"] += warm["same_code"]
                R["site"]["same_code_details"] += warm["same_code_details"]
                R["site"]["nav"].append(s["nav"])
                R["site"]["wasm_requests"].append(s["wasm_requests"])
                R["site"]["second_visit"].append(s["second_visit"])
                R["scalar"]["cold_from_click"].append(sc["from_click"])
                R["scalar"]["cold_from_intent"].append(sc["from_intent"])
                R["scalar"]["cold_cpu"].append(sc["cpu"])
                R["scalar"]["cold_runs"].append(
                    {k: sc[k] for k in ("from_click", "from_intent", "intent_to_click", "cpu", "worker_boot_ms", "ready_from_intent", "cross_origin_isolated", "timeline")}
                )
                for k in ("cold_numpy_requests", "cold_numpy_server_requests", "cold_numpy_bytes", "tensor_after_nav", "nav_numpy_requests", "nav_wasm_requests"):
                    R["scalar"][k].append(sc[k])
                R["scalar"]["nav_numpy_server_requests"].append(sc["nav_numpy_server"][0])
                R["scalar"]["warm"] += sc["warm"]
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
        "load": {"loadavg_before": load_before, "loadavg_after": os.getloadavg(), "others_busy_before_each_round": R["background_busy"]},
        "config": {
            "cold": args.cold,
            "warm_per_context": WARM,
            "nav_rounds": NAV_ROUNDS,
            "reader_dwell_ms": READER_DWELL_MS,
            "break_page": BREAK_PAGE,
            "next_page": NEXT_PAGE,
            "goals": GOALS,
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
            "scalar_cold_from_click": summary(R["scalar"]["cold_from_click"]),
            "scalar_cold_from_intent": summary(R["scalar"]["cold_from_intent"]),
            "scalar_cold_cpu": summary(R["scalar"]["cold_cpu"]),
            "scalar_cold_ratios_from_click": [s / b for s, b in zip(R["scalar"]["cold_from_click"], R["bare"]["cold"])],
            "scalar_warm": summary(R["scalar"]["warm"]),
            "tensor_after_scalar_nav": summary(R["scalar"]["tensor_after_nav"]),
            "site_second_visit": summary([v["from_click"] for v in R["site"]["second_visit"]]),
            "bare_second_visit": summary([v["from_click"] for v in R["bare"]["second_visit"]]),
            "reader_from_click": summary(R["reader"]["from_click"]),
            "reader_from_intent": summary(R["reader"]["from_intent"]),
            "site_warm": summary(R["site"]["warm"]),
            "site_warm_no_picture": summary(R["site"]["no_picture"]),
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
