"""One booted Python for many browser tests: a page that moves from test to test by instant
navigation, as a reader who follows links does, so Pyodide boots once, not once per test.

A cold boot costs a test 3-4 s and about 6 CPU-seconds here (Pyodide's own start, measured
with Chromium's V8 flags for lazy and Liftoff-only compilation too: they change nothing),
and a shared browser context's HTTP cache saves nothing of it: the time is Python starting,
not the download. So the suite keeps a page per language (conftest.py's `warm_tabs`: a link into
the other language is a full load), not one context per test: `visit` follows a link to the
next test's page, and the runner keeps its worker across instant navigation (what
test_runner.py's test_instant_navigation_keeps_the_interpreter proves).

Between tests the page forgets what a test could leave behind: the site's storage (the
reader's record, settings), the viewport and colour scheme; a test that leaves a run going
(an endless loop, a queued run) or the page off the site gets a new page, whose Python boots
again. A test whose claim is about a cold start, a first load or a page's own start keeps
pytest-playwright's `page`, fresh in a fresh context; so does a test that loads pages in full
and runs nothing (it would throw away a booted Python that it never uses).
"""

from urllib.parse import urlsplit

from navigation import navigate

VIEWPORT = {"width": 1280, "height": 720}  # pytest-playwright's default context viewport
BUSY = """() => { const r = window.__minigradRuntime;
  return !!document.querySelector(".mg-runner[data-state=running]") || (!!r && (!!r.active || r.queue.length > 0)); }"""
BOOTED = "() => { const r = window.__minigradRuntime; return !!r && !!r.worker && r.bootMs !== null; }"
SETTLE_MS = 3_000  # a run a test left going may end by itself (a keyboard test's run) before the page is given up
FORGET = "() => { localStorage.clear(); sessionStorage.clear(); }"
FOLLOW = "url => { const a = document.createElement('a'); a.href = url; document.body.append(a); a.click(); a.remove(); }"


class WarmTab:
    """The session's page, renewed when a test left it unusable."""

    def __init__(self, context):
        self.context = context
        self.page = context.new_page()

    def prepare(self):
        """Before a test: the page as a new reader's, Python kept."""
        page = self.page
        page.set_viewport_size(VIEWPORT)
        page.emulate_media(media="null", color_scheme="light", reduced_motion="no-preference")  # a fresh context's
        if _on_site(page):
            page.evaluate(FORGET)
        return page

    def after(self):
        """After a test: a page with a run still going, or off the site, is replaced."""
        page = self.page
        if page.is_closed() or not _on_site(page) or not _settles(page):
            if not page.is_closed():
                page.close()
            self.page = self.context.new_page()


def _settles(page):
    try:
        page.wait_for_function(f"() => !({BUSY})()", timeout=SETTLE_MS)
        return True
    except Exception:  # playwright's TimeoutError, or a page gone wrong: either way, a new page
        return False


def booted(page):
    """Python is up in this page's worker: a run now boots nothing (0 Pyodide downloads)."""
    return page.evaluate(BOOTED)


def _on_site(page):
    return urlsplit(page.url).scheme in ("http", "https")


def visit(page, url):
    """Open `url` as a reader following a link: by instant navigation when the page is on the
    same site already (Python stays booted), else by loading it. The same page again is
    reached through the home page, since a link to the page itself swaps nothing."""
    here, there = urlsplit(page.url), urlsplit(url)
    if (here.scheme, here.netloc) != (there.scheme, there.netloc):
        page.goto(url)
        return
    if here.path == there.path:
        home = f"{there.scheme}://{there.netloc}/"
        navigate(page, lambda: page.evaluate(FOLLOW, home), home)
    navigate(page, lambda: page.evaluate(FOLLOW, url), url)
    # A link into the other language is a full page load (runner/languages.js): then the old page is gone
    # before the new one is parsed, and a test reading the page at once found half of it (CI, test_matrix).
    page.wait_for_load_state()
