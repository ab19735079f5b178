"""The doctor's page in a real browser: paste an engine with a planted bug, Run,
see the right break named, and follow its link to the break's page, in both languages."""

import re
from pathlib import Path

import pytest
from editing import replace_code
from playwright.sync_api import expect

ENGINES = Path(__file__).resolve().parents[1] / "doctor_engines"
COLD = 90_000  # ms: a cold Pyodide + NumPy boot (see test_runner.py)
pytestmark = pytest.mark.browser

# A learner's engine the page has never seen: the power rule off by one.
PASTED = (ENGINES / "pow_off_by_one.py").read_text() + "\n\nfrom minigrad.doctor import check_engine\n\ncheck_engine(Value)\n"
TITLE = {"en": "pow's exponent off by one", "es": "El exponente de pow desplazado en uno"}
HEADING = {"en": "Likely breaks, most likely first", "es": "Roturas probables, la más probable primero"}


def run_and_wait(panel, timeout=COLD):
    panel.locator(".mg-run").click()
    expect(panel).to_have_attribute("data-state", re.compile("done|error|stopped"), timeout=timeout)
    expect(panel).to_have_attribute("data-state", "done")
    return panel.locator(".mg-output").inner_text()


def test_the_example_engine_reports_what_the_page_shows(page, site_url, watch):
    page.goto(site_url + "doctor/")
    panel = page.locator(".mg-runner").nth(0)
    text = run_and_wait(panel)
    shown = page.locator("div.language-python.highlight").nth(0).locator(
        "xpath=following-sibling::div[contains(@class,'output')][1]").inner_text()
    assert text.strip() == shown.strip()
    expect(panel.locator(".mg-links a").first).to_have_text("tanh's local gradient from the input")
    assert not watch.errors, watch.errors


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_pasted_engine_gets_its_break_named_and_linked(page, site_url, watch, lang):
    prefix = "es/" if lang == "es" else ""
    page.goto(f"{site_url}{prefix}doctor/")
    panel = page.locator(".mg-runner").nth(0)
    replace_code(page, 0, PASTED)
    text = run_and_wait(panel)
    assert HEADING[lang] in text
    assert f"1. {TITLE[lang]} (100%)" in text
    assert "docs/breaks/" not in text, text  # on the page, the links below only (issue 24 item 6)
    links = panel.locator(".mg-links a")
    expect(links.first).to_have_text(TITLE[lang])
    href = links.first.get_attribute("href")
    assert href == f"{site_url}{prefix}breaks/pow-exponent-off-by-one/"
    assert "<" not in links.first.inner_html()  # text, never markup
    links.first.click()
    expect(page).to_have_url(href)
    expect(page.locator("h1").first).to_contain_text(TITLE[lang][:10])
    assert not watch.outside(), watch.outside()
    assert not watch.errors, watch.errors
