"""A built site served at another address than the one it was built for (a classroom's laptop
on another port, a course's sub-folder) keeps Python warm across pages: Material's instant
navigation follows the sitemap's links, which name the build's address, and
overrides/partials/sitemap-here.html answers the sitemap with the address the site is at now.
Before it, every page was a full load there and Python booted again on each (issue 38 part 3).
Both languages."""

import re

import pytest
from conftest import serve_site
from navigation import follow
from running import block_panel, run_and_wait

pytestmark = pytest.mark.browser

# The second page's first Run, timed in the page from the click to its end (issue 38: under 1 s).
TIMED_RUN = """() => new Promise((resolve) => {
  const panel = document.querySelectorAll(".mg-runner")[0];
  const observer = new MutationObserver(() => {
    if (/^(done|error)$/.test(panel.dataset.state || "")) { observer.disconnect(); resolve(performance.now() - start); }
  });
  observer.observe(panel, { attributes: true, attributeFilter: ["data-state"] });
  const start = performance.now();
  panel.querySelector(".mg-run").click();
})"""


@pytest.fixture(scope="module")
def elsewhere(offline_site, site_url, tmp_path_factory):
    """The same built site (built for site_url) served on another port, at / and under /course/."""
    root = tmp_path_factory.mktemp("elsewhere")
    (root / "course").symlink_to(offline_site, target_is_directory=True)
    (plain, at_root), (nested, at_course) = serve_site(offline_site, isolated=False), serve_site(root, isolated=False)
    yield [at_root, at_course + "course/"]
    for server in (plain, nested):
        server.shutdown()
        server.server_close()


@pytest.mark.parametrize(("where", "prefix"), [(0, ""), (1, "es/")])
def test_python_stays_warm_across_pages_wherever_the_site_is_served(page, site_url, elsewhere, watch, where, prefix):
    url = elsewhere[where] + prefix
    assert not url.startswith(site_url)
    page.goto(url + "breaks/tanh-grad-from-input/")
    run_and_wait(block_panel(page, 0))  # Python boots here, once
    page.evaluate("window.__sameDocument = true")
    follow(page, page.locator("nav a[href$='breaks/overwrite-grad/']").first, re.compile(re.escape(url) + "breaks/overwrite-grad/$"))
    assert page.evaluate("window.__sameDocument === true"), "a full page load: instant navigation did not follow the link"
    ms = page.evaluate(TIMED_RUN)
    assert ms < 1000, f"the second page's first Run took {ms:.0f} ms"
    assert len([u for u in watch.requests if u.endswith("pyodide.asm.wasm")]) == 1
    assert not [u for u in watch.requests if u.startswith(site_url)], "a request to the address the site was built for"
    assert not watch.outside(), watch.outside()
    assert not watch.errors, watch.errors
