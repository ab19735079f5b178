"""Browser tests: the offline build, served on 127.0.0.1, in Debian's Chromium.

The site is built once per session with MINIGRAD_PYODIDE=local (Pyodide and
NumPy copied from node_modules), then served twice: plainly (Stop terminates
and restarts the worker) and cross-origin isolated (Stop uses Pyodide's
interrupt buffer). Chromium is told to resolve no host but 127.0.0.1, and a
listener (not a route, which would turn the HTTP cache off) records every
request, so a test can prove nothing left the machine.
"""

import functools
import os
import shutil
import subprocess
import sys
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import editing  # tests/browser is on sys.path (pytest's rootdir-relative import)
import warm
import pytest
from playwright.sync_api import expect

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
    "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
]


def _missing(reason):
    """Without Chromium or node_modules the browser tests cannot run; CI must not skip them."""
    if os.environ.get("CI"):
        pytest.fail(f"{reason} (CI installs it: see .ci/run)")
    pytest.skip(reason)


def _spanish(item):
    """A test that opens Spanish pages: by its name, or a parameter that is a Spanish path or language.
    It takes the Spanish warm page (`warm_page`). The tests used to be sorted by language within each
    file, to spare the one warm page a crossing; with a page per language the order changes nothing
    (tests/browser alone, one run each: 43 boots sorted, 44 not), so they run in the order written."""
    params = getattr(getattr(item, "callspec", None), "params", {})
    return "spanish" in item.name or any(isinstance(v, str) and (v == "es" or v.startswith("es/")) for v in params.values())


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    executable = shutil.which("chromium") or shutil.which("chromium-browser")
    if executable is None:
        _missing("Debian's chromium is not installed (apt-get install chromium)")
    return {**browser_type_launch_args, "executable_path": executable, "args": CHROMIUM_FLAGS}


PYODIDE_BOOT = "pyodide.asm.wasm"  # fetched once by every Python that boots in a page (from the HTTP cache or not)
_boots = []  # this worker's boots so far: the `count_boots` fixture reads how many a test added


@pytest.fixture(scope="session")
def browser(browser):
    """pytest-playwright's browser, whose every context (the `context` fixture's, a test's own,
    the warm tab's, test_isolation's) counts the Python boots its pages start."""
    open_context = browser.new_context

    def counted(*args, **kwargs):
        context = open_context(*args, **kwargs)
        context.on("request", lambda request: request.url.endswith(PYODIDE_BOOT) and _boots.append(request.url))
        return context

    browser.new_context = counted
    yield browser


@pytest.fixture(autouse=True)
def count_boots(request):
    """How many times Python booted for this test (its teardown, the warm page's renewal, included):
    a boot costs 3-4 s and about 6 CPU-seconds, the suite's largest single cost. Handed to the
    controller with the test's report; tests/suite_timing.py sums it per file (benchmarks/SUITE_TIMES.md)."""
    before = len(_boots)
    yield
    request.node.user_properties.append(("pyodide_boots", len(_boots) - before))


NO_SERVICE_WORKERS = "delete Navigator.prototype.serviceWorker"  # as in Firefox's private windows


@pytest.fixture
def new_context(new_context):
    """Every context (the `context` fixture's and a test's own phone-sized one) has no
    service workers: the site ships coi-serviceworker, which on a first visit reloads the
    page once to make the plain server cross-origin isolated, so a test could read a
    picture or a cell of the page being unloaded; and the tests of `site_url` mean a host
    without isolation (Stop restarts Python). Playwright's service_workers="block" is not
    used: its stub of register() resolves to undefined, which the library cannot handle,
    where a browser without service workers has no navigator.serviceWorker.
    test_isolation.py opens its own contexts from `browser`."""

    def without_service_workers(**kwargs):
        context = new_context(**kwargs)
        context.add_init_script(NO_SERVICE_WORKERS)
        return context

    return without_service_workers


class _Handler(SimpleHTTPRequestHandler):
    isolated = False
    extensions_map = {**SimpleHTTPRequestHandler.extensions_map, ".wasm": "application/wasm", ".mjs": "text/javascript"}

    def end_headers(self):
        if self.isolated:
            self.send_header("Cross-Origin-Opener-Policy", "same-origin")
            self.send_header("Cross-Origin-Embedder-Policy", "require-corp")
        super().end_headers()

    def log_message(self, *args):
        pass


def serve_site(directory, isolated):
    handler = type("Handler", (_Handler,), {"isolated": isolated})
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(handler, directory=str(directory)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_address[1]}/"


def build_site(site, site_url):
    """The offline build; site_url must be the served one (instant navigation follows the sitemap)."""
    if not (ROOT / "node_modules" / "pyodide" / "pyodide.js").exists():
        _missing("node_modules/pyodide is missing (npm ci)")
    # Without NO_MKDOCS_2_WARNING, as the README's `uv run mkdocs serve`: mkdocs.yml keeps Material's banner quiet.
    env = {k: v for k, v in os.environ.items() if k != "NO_MKDOCS_2_WARNING"} | {"MINIGRAD_PYODIDE": "local", "MINIGRAD_SITE_URL": site_url}
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(site)], cwd=ROOT, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "end of life" not in done.stderr, done.stderr[:500]


@pytest.fixture(scope="session")
def offline_site(tmp_path_factory):
    return tmp_path_factory.mktemp("site")


@pytest.fixture(scope="session")
def site_url(offline_site):
    server, url = serve_site(offline_site, isolated=False)
    build_site(offline_site, url)
    yield url
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="session")
def isolated_site_url(offline_site, site_url):
    server, url = serve_site(offline_site, isolated=True)
    yield url
    server.shutdown()
    server.server_close()


class Watch:
    """Every request, console error and page error of a page."""

    def __init__(self, page):
        self.requests, self.errors = [], []
        self._listeners = {
            "request": lambda r: self.requests.append(r.url),
            "console": lambda m: m.type == "error" and self.errors.append(f"console: {m.text}"),
            "pageerror": lambda e: self.errors.append(f"pageerror: {e}"),
            "response": lambda r: r.status >= 400 and self.errors.append(f"HTTP {r.status}: {r.url}"),
        }
        for event, listener in self._listeners.items():
            page.on(event, listener)

    def outside(self):
        return [u for u in self.requests if not u.startswith(("http://127.0.0.1:", "data:", "blob:"))]


    def stop(self, page):
        for event in ("request", "console", "pageerror", "response"):
            page.remove_listener(event, self._listeners[event])


@pytest.fixture
def watch(request):
    """A Watch of the test's page: its `cold_page` if it asks for one, else its `page`."""
    page = request.getfixturevalue("cold_page" if "cold_page" in request.fixturenames else "page")
    watched = Watch(page)
    yield watched
    if not page.is_closed():
        watched.stop(page)  # the warm page lives on: its next test has a watch of its own


@pytest.fixture(scope="session")
def warm_tabs(browser, browser_context_args):
    """One warm page per language (warm.py): a link into the other language is a full load, which
    boots Python again, so a Spanish test takes the page that stays in Spanish and an English test
    the one that stays in English. Each is in a context of its own, as a window of its own: two
    pages of one context are tabs, and the one behind is a hidden page whose frames and timers
    Chromium throttles (tried: a break-page test took 285 s, not 31 s). A page not yet used is
    blank and costs nothing."""
    tabs = {}
    for language in ("en", "es"):
        context = browser.new_context(**browser_context_args)
        context.add_init_script(NO_SERVICE_WORKERS)
        tabs[language] = warm.WarmTab(context)
    yield tabs
    for tab in tabs.values():
        tab.context.close()


@pytest.fixture(scope="session")
def warm_tab(warm_tabs):
    """The English warm page (test_warm_page.py checks its rules)."""
    return warm_tabs["en"]


@pytest.fixture
def warm_page(request, warm_tabs):
    """The session's page with Python booted (tests/browser/warm.py): open pages with warm.visit.
    A module whose tests mostly use it overrides `page` with it; its cold tests ask for `cold_page`.
    The page is the one of the language the test says it opens (`_spanish`); a test that opens the
    other one anyway only pays a boot."""
    tab = warm_tabs["es" if _spanish(request.node) else "en"]
    yield tab.prepare()
    tab.after()


@pytest.fixture
def cold_page(new_context):
    """A fresh page in a fresh context, as pytest-playwright's `page` (for a module that overrides `page`)."""
    return new_context().new_page()


@pytest.fixture
def replace_code():
    """replace_code(page, index, text): edit a block through the code editor."""
    return editing.replace_code
