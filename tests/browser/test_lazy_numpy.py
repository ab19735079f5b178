"""NumPy only when a run needs it (issue 15): a scalar page's first Run fetches
no NumPy; a tensor block later in the visit loads it once, says so, and runs;
the wait shows its stage and how much has arrived, throttled for screen readers."""

import re

import pytest
from navigation import follow
from running import COLD, block_panel, run_and_wait, shown_output

from minigrad.runner import pins

pytestmark = pytest.mark.browser
NUMPY = pins.WHEEL_NAME  # the offline site's wheel (minigrad/runner/pins.json)

RECORD_STATUS = """(panel) => {
  window.__statuses = [];
  window.__meter = {value: 0, max: 0};
  const status = panel.querySelector('.mg-status');
  new MutationObserver(() => window.__statuses.push(status.textContent))
    .observe(status, {childList: true, characterData: true, subtree: true});
  const meter = panel.querySelector('.mg-progress');
  new MutationObserver(() => {
    window.__meter.value = Math.max(window.__meter.value, meter.value);
    window.__meter.max = Math.max(window.__meter.max, meter.max);
  }).observe(meter, {attributes: true});
}"""


def numpy_requests(watch):
    return [u for u in watch.requests if NUMPY in u]


def test_scalar_page_runs_without_numpy_then_a_tensor_page_loads_it_once(page, site_url, watch):
    page.goto(site_url + "breaks/overwrite-grad/")
    panel = block_panel(page, 0)
    panel.evaluate(RECORD_STATUS)
    healthy = run_and_wait(panel)
    assert healthy.strip() == shown_output(page, 0).strip()
    panel.locator(".mg-break").click()
    broken = run_and_wait(panel, timeout=20_000)  # applying a scalar break loads no NumPy either
    assert broken.strip() == shown_output(page, 0, broken=True).strip()
    assert numpy_requests(watch) == []
    statuses = page.evaluate("window.__statuses")
    assert "Downloading Python…" in " ".join(statuses), statuses
    assert "Starting Python…" in statuses, statuses
    meter = page.evaluate("window.__meter")  # the amount, shown: Pyodide's wasm and stdlib alone are over 5 MB
    assert meter["max"] > 5e6 and meter["value"] > 5e6, meter
    assert len(statuses) <= 10, statuses  # announced by stage (the amount at most every 4 s), not per chunk
    assert "Loading NumPy…" not in statuses

    page.evaluate("window.__marker = 'same document'")
    follow(page, page.locator("nav a[href$='skip-unbroadcast/']").first, re.compile(r"skip-unbroadcast/$"))
    assert page.evaluate("window.__marker") == "same document"  # instant navigation, one interpreter
    panel = block_panel(page, 0)
    panel.evaluate(RECORD_STATUS)
    assert run_and_wait(panel, timeout=COLD).strip() == shown_output(page, 0).strip()
    assert any(s.startswith("Loading NumPy…") for s in page.evaluate("window.__statuses"))
    panel.locator(".mg-break").click()
    assert shown_output(page, 0, broken=True).strip() in run_and_wait(panel, timeout=20_000)
    assert len(numpy_requests(watch)) == 1, numpy_requests(watch)
    assert len([u for u in watch.requests if u.endswith("pyodide.asm.wasm")]) == 1
    assert not watch.outside(), watch.outside()
    assert not watch.errors, watch.errors


def test_spanish_status_while_numpy_loads(page, site_url, watch):
    page.goto(site_url + "es/breaks/skip-unbroadcast/")
    panel = block_panel(page, 0)
    panel.evaluate(RECORD_STATUS)
    assert run_and_wait(panel).strip() == shown_output(page, 0).strip()
    statuses = page.evaluate("window.__statuses")
    assert any(s.startswith("Cargando NumPy…") for s in statuses), statuses
    assert any(s.startswith("Descargando Python…") for s in statuses), statuses
    assert len(numpy_requests(watch)) == 1


def test_intent_on_a_numpy_block_fetches_the_wheel_while_python_starts(page, site_url, watch):
    """skip-unbroadcast's first block imports NumPy, so the build marks it (data-numpy): the
    pointer on its Run starts the wheel's request before Python has started, and the Run
    then uses those bytes (one request), instead of fetching them after the boot."""
    page.goto(site_url + "breaks/skip-unbroadcast/")
    assert page.locator("div.language-python.highlight").first.get_attribute("data-numpy") == "1"
    panel = block_panel(page, 0)
    panel.locator(".mg-run").hover()
    for _ in range(300):
        if numpy_requests(watch):
            break
        page.wait_for_timeout(50)
    assert numpy_requests(watch), "no request for the NumPy wheel after intent"
    assert page.evaluate("window.__minigradRuntime.bootMs") is None  # Python is still loading
    assert run_and_wait(panel).strip() == shown_output(page, 0).strip()
    assert len(numpy_requests(watch)) == 1, numpy_requests(watch)
    assert not watch.errors, watch.errors
