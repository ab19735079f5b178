"""Running a page's block as a reader does, for every browser test: one way to find a
block's runner, click Run, wait for the run's end and read what the page shows."""

import re
from pathlib import Path

from playwright.sync_api import expect

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
COLD = 90_000  # ms: a cold Pyodide + NumPy boot takes 3-4 s here idle, 6-8 s on a loaded machine; CI may be slower
FINISHED = re.compile("done|error|stopped")  # the states a run ends in (the panel's data-state)


def block_panel(page, index):
    """The runner panel under the index-th Python block of the page (0-based)."""
    return page.locator(".mg-runner").nth(index)


def run_and_wait(panel, timeout=COLD, ends="any"):
    """Click Run and wait for the run's end, which must be `ends` ("done", "error", ...) unless
    "any"; returns the run's output as the page shows it."""
    panel.locator(".mg-run").click()
    expect(panel).to_have_attribute("data-state", FINISHED, timeout=timeout)
    if ends != "any":
        expect(panel).to_have_attribute("data-state", ends)
    return panel.locator(".mg-output").inner_text()


def shown_output(page, index, broken=False):
    """The output block CI verified, under the index-th Python block (healthy, or the broken run's)."""
    kind = ".output.broken" if broken else ".output:not(.broken)"
    return page.locator("div.language-python.highlight").nth(index).locator("xpath=following-sibling::div[contains(@class,'output')]").filter(has=page.locator("code")).evaluate_all(
        f"(els) => els.filter(e => e.matches('{kind}')).map(e => e.innerText)"
    )[0]


def serious_violations(page):
    """axe-core's serious and critical findings on the page as it is now, one line each.
    It waits for running transitions to end first: a focus that scrolls the page fades Material's
    header title in, and axe measured its contrast half-faded once on a busy machine."""
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    page.wait_for_function("""document.getAnimations().every(a => a.playState !== 'running'
        || (a.effect && a.effect.getComputedTiming().iterations === Infinity))""", timeout=5_000)  # a spinner never ends
    result = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes']][:3]}"
        for v in result["violations"]
        if v["impact"] in ("serious", "critical")
    ]
