"""The diagnostics matrix (minigrad_site/pages/catalogue.py, matrix.css) in a real browser:
details that open by keyboard and by touch (no title tooltips), caught and
missed told apart by marks that differ in shape and words, every column
readable at a phone's 390 px, no serious axe violation, and no English on the
Spanish page outside the diagnostics' own reports (shown as code, lang=en)."""

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect
from running import serious_violations
from warm import visit

from minigrad import breaks

ROOT = Path(__file__).resolve().parents[2]
MATRIX = breaks.matrix()
CELLS = sum(len(row) for row in MATRIX["breaks"].values())
CAUGHT = sum(cell["caught"] for row in MATRIX["breaks"].values() for cell in row.values())
PHONE = {"width": 390, "height": 844}
pytestmark = pytest.mark.browser


@pytest.fixture
def page(warm_page):
    """Python booted once for the module's tests (tests/browser/warm.py)."""
    return warm_page


# Words the Spanish page keeps in English on purpose: code identifiers in the
# catalogue's titles (ops and methods), names of things (PyTorch, LayerNorm,
# BatchNorm) and the translation guide's terms kept in English
# (docs/contributing/translation.es.md: backward, broadcasting, upstream);
# "eval" is the mode's name (model.eval()).
# And words spelled alike in both languages ("gradiente local", "a", N).
KEPT_IN_ENGLISH = {
    "_backward", "add", "backward", "broadcasting", "eval", "log_softmax", "matmul", "mean", "pow", "relu",
    "sum", "tanh", "unbroadcast", "upstream", "zero_grad", "BatchNorm", "LayerNorm", "PyTorch",
}
SPELLED_ALIKE = {"local", "a", "N"}


def _titles_kept_alike():
    """Words a translator kept in a break's Spanish title as in its English one
    (identifiers and names such as SGD or Dropout): the catalogue decides them,
    so a new break's title needs no edit here."""
    words = lambda text: set(re.findall(r"[A-Za-z_]+", text))
    return set().union(*(words(b.title["en"]) & words(b.title["es"]) for b in breaks.catalogue()))


KEPT_IN_ENGLISH |= _titles_kept_alike()

# Every word a reader meets in an element, attributes (title, aria-label, data-label) included, code left out.
WORDS_OUTSIDE_CODE = """(root) => {
  const out = [];
  const walk = (node) => {
    if (node.nodeType === Node.TEXT_NODE) { out.push(node.textContent); return; }
    if (node.nodeType !== Node.ELEMENT_NODE || node.matches("code, pre, script, style")) return;
    for (const name of ["title", "aria-label", "data-label", "alt"]) if (node.hasAttribute(name)) out.push(node.getAttribute(name));
    node.childNodes.forEach(walk);
  };
  walk(root);
  return out.join(" ");
}"""


def matrix(page):
    """The page's one table: the matrix (the tests do not depend on how it is wrapped)."""
    return page.locator(".md-content table").first


def test_details_open_by_keyboard_and_have_no_tooltips(page, site_url, watch):
    visit(page, site_url + "diagnostics/")
    assert matrix(page).locator("[title]").count() == 0  # nothing hides in a tooltip
    details = matrix(page).locator("td details")
    expect(details).to_have_count(CELLS)
    first = details.first
    first.locator("summary").focus()
    page.keyboard.press("Enter")
    expect(first).to_have_attribute("open", "")
    report = first.locator("code")
    expect(report).to_be_visible()
    row = MATRIX["breaks"][next(iter(MATRIX["breaks"]))]
    expect(report).to_have_text(row[MATRIX["diagnostics"][0]]["detail"])
    page.keyboard.press("Tab")  # the next cell's summary is the next stop
    expect(details.nth(1).locator("summary")).to_be_focused()
    page.keyboard.press("Space")
    expect(details.nth(1)).to_have_attribute("open", "")
    assert not watch.errors, watch.errors


def test_details_open_by_tap_on_a_phone(new_context, site_url):
    context = new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    page = context.new_page()
    page.goto(site_url + "es/diagnostics/")
    cell = matrix(page).locator("td details").nth(7)
    cell.locator("summary").tap()
    expect(cell).to_have_attribute("open", "")
    expect(cell.locator("code")).to_be_visible()
    expect(cell.locator("p")).to_contain_text("Informó")
    context.close()


def test_caught_and_missed_differ_in_shape_and_in_words(cold_page, site_url):
    """A page of its own: it crosses into Spanish, a full load that would throw away the warm page's
    Python, which this test never uses."""
    page = cold_page
    for path, caught, missed in [("diagnostics/", "caught", "missed"), ("es/diagnostics/", "lo detecta", "no lo detecta")]:
        visit(page, site_url + path)
        summaries = matrix(page).locator("td summary")
        texts = summaries.evaluate_all("(els) => els.map((e) => e.textContent.trim())")
        assert len(texts) == CELLS
        marks = {text.split()[0] for text in texts}
        words = {text.split(" ", 1)[1] for text in texts}
        assert marks == {"✓", "○"}, marks  # two shapes, each next to its own words
        assert words == {caught, missed}, words
        assert sum(text == f"✓ {caught}" for text in texts) == CAUGHT
        assert sum(text == f"○ {missed}" for text in texts) == CELLS - CAUGHT
        expect(matrix(page).locator("caption")).to_contain_text(f"✓ {caught}")  # the legend says which is which


@pytest.mark.parametrize("path", ["diagnostics/", "es/diagnostics/"])
def test_every_column_is_readable_on_a_phone(new_context, site_url, path):
    context = new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    page = context.new_page()
    page.goto(site_url + path)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]  # no sideways scrolling
    titles = matrix(page).locator("thead th").all_inner_texts()[1:]
    problems = matrix(page).locator("tbody td").evaluate_all(
        """(cells, width) => cells.flatMap((cell) => {
            window.scrollTo(0, cell.getBoundingClientRect().top + scrollY - 200); // down the page, never sideways
            const r = cell.getBoundingClientRect();
            const name = cell.dataset.label || `column ${cell.cellIndex}`;
            const out = [];
            if (r.left < 0 || r.right > width) out.push(`${name}: spans ${r.left}..${r.right} of ${width} px`);
            const hit = document.elementFromPoint(Math.min(r.right - 4, width - 4), r.top + r.height / 2);
            if (!hit || !cell.contains(hit)) out.push(`${name}: its right edge is covered or clipped`);
            const label = getComputedStyle(cell, "::before").content;
            if (label !== `"${cell.dataset.label}"`) out.push(`${name}: not labelled on screen (${label})`);
            return out;
        })""",
        PHONE["width"],
    )
    assert not problems, problems[:10]
    labels = set(matrix(page).locator("tbody td").evaluate_all("(cells) => cells.map((c) => c.dataset.label)"))
    assert labels == set(titles)  # every diagnostic's column is there, under its own name
    cell = matrix(page).locator("td details").nth(1)
    cell.locator("summary").tap()
    report = cell.locator("code")
    box = report.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    assert report.evaluate("(e) => e.scrollWidth <= e.clientWidth")  # the report wraps, nothing cut
    context.close()


@pytest.mark.parametrize("path, viewport", [("diagnostics/", None), ("es/diagnostics/", PHONE)])
def test_matrix_page_has_no_serious_axe_violation(page, site_url, path, viewport):
    if viewport:
        page.set_viewport_size(viewport)
    visit(page, site_url + path)
    matrix(page).locator("td summary").first.click()  # with a report open
    serious = serious_violations(page)
    assert not serious, json.dumps(serious, indent=1)


def test_spanish_matrix_has_no_english_outside_the_reports(page, site_url):
    """Words of the English matrix that come back in the Spanish one are English
    left behind, unless kept on purpose (KEPT_IN_ENGLISH). The reports are
    minigrad.checks' English output, shown as code marked lang=en."""
    visit(page, site_url + "diagnostics/")
    english = set(re.findall(r"[A-Za-z_]+", matrix(page).evaluate(WORDS_OUTSIDE_CODE)))
    visit(page, site_url + "es/diagnostics/")
    spanish = set(re.findall(r"[A-Za-zÀ-ÿ_]+", matrix(page).evaluate(WORDS_OUTSIDE_CODE)))
    left = sorted((english & spanish) - KEPT_IN_ENGLISH - SPELLED_ALIKE)
    assert not left, left
    reports = matrix(page).locator("td details code")
    expect(reports).to_have_count(CELLS)
    assert set(reports.evaluate_all("(els) => els.map((e) => e.lang)")) == {"en"}


@pytest.mark.parametrize("width", [960, 1280])
@pytest.mark.parametrize("path", ["diagnostics/", "es/diagnostics/"])
def test_the_table_fits_its_column_on_wider_screens(page, site_url, path, width):
    page.set_viewport_size({"width": width, "height": 900})
    visit(page, site_url + path)
    room = page.locator(".md-content .md-typeset").evaluate("(e) => e.clientWidth")
    assert matrix(page).evaluate("(t) => t.scrollWidth") <= room  # every column, no sideways scrolling
    expect(matrix(page).locator("thead")).to_be_visible()  # a real table here, not the phone's cards
