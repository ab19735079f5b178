"""Stop that keeps Python alive on a static host (issue 12 item 3): the site's own
coi-serviceworker makes a server that sends no COOP/COEP headers cross-origin
isolated after one reload, so Stop interrupts `while True: pass` through Pyodide's
interrupt buffer and the next Run is warm. Without service workers, the runner
falls back to terminating and restarting Python.

The plain server of conftest (`site_url`) sends no such headers; each test opens a
fresh context, so the service worker is not registered yet."""

import re

import pytest
from playwright.sync_api import expect
from running import COLD, block_panel, run_and_wait, shown_output

from conftest import NO_SERVICE_WORKERS, Watch

pytestmark = pytest.mark.browser
LOOP = "x = 0\nwhile True:\n    x += 1\n"


@pytest.fixture
def fresh_page(browser):
    context = browser.new_context()
    yield context.new_page()
    context.close()


def wasm_loads(watch):
    return [u for u in watch.requests if u.endswith("pyodide.asm.wasm")]


def test_header_less_server_is_isolated_after_one_reload(fresh_page, site_url, replace_code):
    page = fresh_page
    watch = Watch(page)
    page.goto(site_url + "theory/01-derivatives/")
    page.wait_for_function("self.crossOriginIsolated === true", timeout=60_000)  # install + one reload; slow when the machine is shared
    assert page.evaluate("navigator.serviceWorker.controller.scriptURL") == site_url + "coi-serviceworker.js"
    page.wait_for_timeout(1_000)
    loads = [u for u in watch.requests if u == site_url + "theory/01-derivatives/"]
    assert len(loads) == 2, loads  # the first visit reloads once, no loop

    panel = block_panel(page, 0)
    run_and_wait(panel, timeout=COLD)
    replace_code(page, 0, LOOP)
    panel.locator(".mg-run").click()
    expect(panel.locator(".mg-status")).to_have_text("Running…")
    page.wait_for_timeout(300)
    panel.locator(".mg-stop").click()
    expect(panel).to_have_attribute("data-state", "stopped", timeout=1_000)
    expect(panel.locator(".mg-status")).to_have_text("Stopped")  # interrupted, not "Python restarts"
    page.locator(".mg-reset").nth(0).click()
    assert run_and_wait(panel, timeout=5_000).strip() == shown_output(page, 0).strip()
    assert len(wasm_loads(watch)) == 1, wasm_loads(watch)  # the next Run was warm

    page.goto(site_url + "es/breaks/overwrite-grad/")  # another page, the other language: still isolated
    assert page.evaluate("self.crossOriginIsolated")
    assert not watch.outside(), watch.outside()
    assert not watch.errors, watch.errors


def test_without_service_workers_stop_restarts_python(browser, site_url, replace_code):
    """A private window (or a browser) without service workers: no reload, no isolation, the old fallback."""
    context = browser.new_context()
    context.add_init_script(NO_SERVICE_WORKERS)
    page = context.new_page()
    watch = Watch(page)
    page.goto(site_url + "theory/01-derivatives/")
    panel = block_panel(page, 0)
    run_and_wait(panel, timeout=COLD)
    assert page.evaluate("self.crossOriginIsolated") is False
    loads = [u for u in watch.requests if u == site_url + "theory/01-derivatives/"]
    assert len(loads) == 1, loads  # no service worker: no reload
    replace_code(page, 0, LOOP)
    panel.locator(".mg-run").click()
    expect(panel.locator(".mg-status")).to_have_text("Running…")
    panel.locator(".mg-stop").click()
    expect(panel.locator(".mg-status")).to_have_text(re.compile("Python restarts"), timeout=3_000)
    assert not watch.errors, watch.errors
    context.close()


def test_the_service_worker_answers_documents_and_workers_only(fresh_page, site_url):
    """minigrad_site/build/sw_documents_and_workers_only.js: Python's files reach the page as the server sent
    them (V8 reuses compiled wasm only for those), while the page and the runner's worker still
    get the isolation headers (the page is isolated; Stop's interrupt buffer reaches the worker)."""
    page = fresh_page
    answered = {}
    page.on("response", lambda r: answered.__setitem__(r.url, r.from_service_worker))
    page.goto(site_url + "theory/01-derivatives/")
    page.wait_for_function("self.crossOriginIsolated === true", timeout=60_000)
    run_and_wait(block_panel(page, 0), timeout=COLD)
    assert answered[site_url + "theory/01-derivatives/"] is True  # the document, after the one reload
    assert answered[site_url + "assets/minigrad/worker.js"] is True  # a worker's script needs COEP too
    python = {u: sw for u, sw in answered.items() if "/_minigrad/pyodide/" in u}
    assert any(u.endswith("pyodide.asm.wasm") for u in python), sorted(answered)
    assert not any(python.values()), python


# Holds the service worker's registration until the test lets it go, so the reader's
# intent surely comes first (a first visit registers within a second of loading).
HELD_REGISTRATION = """
(() => {
  const register = ServiceWorkerContainer.prototype.register;
  let release;
  const gate = new Promise((resolve) => { release = resolve; });
  window.__releaseRegistration = release;
  ServiceWorkerContainer.prototype.register = function (...args) { return gate.then(() => register.apply(this, args)); };
})();
"""


def test_a_reader_who_pointed_at_run_is_not_reloaded_under(browser, site_url):
    """coi-serviceworker reloads a first visit once; not once the reader has pointed at a Run:
    Python is loading then, and a reload would throw that away. The run goes on, without
    isolation on this page (Stop restarts Python), and the next page loaded is isolated."""
    context = browser.new_context()
    context.add_init_script(HELD_REGISTRATION)
    page = context.new_page()
    watch = Watch(page)
    documents = []
    page.on("request", lambda r: r.resource_type == "document" and documents.append(r.url))
    page.goto(site_url + "theory/01-derivatives/")
    panel = block_panel(page, 0)
    panel.locator(".mg-run").hover()  # intent: Python starts loading
    assert page.evaluate("Boolean(window.__minigradRuntime && window.__minigradRuntime.worker)")
    page.evaluate("window.__releaseRegistration()")
    page.wait_for_function("navigator.serviceWorker.ready.then(() => true)", timeout=30_000)
    page.wait_for_timeout(1_000)  # a reload would have started by now
    assert documents == [site_url + "theory/01-derivatives/"], documents
    assert run_and_wait(panel, timeout=COLD).strip() == shown_output(page, 0).strip()
    assert page.evaluate("self.crossOriginIsolated") is False
    page.goto(site_url + "es/breaks/overwrite-grad/")  # the next page loaded: the service worker answers it
    assert page.evaluate("self.crossOriginIsolated") is True
    assert not watch.errors, watch.errors
    context.close()


# Holds navigator.serviceWorker.ready (the service worker being active) until the test lets
# it go, as on a slow machine where installing takes a while.
HELD_ACTIVATION = """
(() => {
  const ready = Object.getOwnPropertyDescriptor(ServiceWorkerContainer.prototype, "ready").get;
  let release;
  const gate = new Promise((resolve) => { release = resolve; });
  window.__releaseActivation = release;
  Object.defineProperty(ServiceWorkerContainer.prototype, "ready", {
    get() { const real = ready.call(this); return gate.then(() => real); },
  });
})();
"""


def test_the_first_visit_reloads_once_its_service_worker_is_active(browser, site_url):
    """coi-serviceworker asks for its reload as soon as its worker starts installing; a page
    reloaded before the worker is active loads unisolated, and the one reload is spent. The
    site reloads once `navigator.serviceWorker.ready` says the worker is active."""
    context = browser.new_context()
    context.add_init_script(HELD_ACTIVATION)
    page = context.new_page()
    documents = []
    page.on("request", lambda r: r.resource_type == "document" and documents.append(r.url))
    page.goto(site_url + "theory/01-derivatives/")
    page.wait_for_function("navigator.serviceWorker.getRegistration().then((r) => Boolean(r && r.active))", timeout=30_000)
    page.wait_for_timeout(1_000)  # the library has asked for its reload by now
    assert len(documents) == 1, documents
    page.evaluate("window.__releaseActivation()")
    page.wait_for_function("self.crossOriginIsolated === true", timeout=30_000)
    assert len(documents) == 2, documents
    context.close()
