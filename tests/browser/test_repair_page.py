"""Repair it, in a real browser: on a phase-7 and a phase-10 break page, in both languages,
Check refuses the broken code the page starts with and accepts the healthy code (the diff
reversed), as minigrad.repair decides in Pyodide; the section says so in data-state,
the repair is kept in this browser's progress, and nothing leaves the machine."""

import json
import re

import pytest
from playwright.sync_api import expect
from running import COLD, serious_violations
from warm import visit

from minigrad.repair.units import healthy_text, units

pytestmark = pytest.mark.browser


@pytest.fixture
def page(warm_page):
    """Python booted once for the module's tests (tests/browser/warm.py)."""
    return warm_page


CASES = [("relu-gated-on-upstream", "en", "Not repaired yet", "Repaired: every check passes."),
         ("layernorm-stats-detached", "es", "Aún no está reparado", "Reparado: todas las comprobaciones pasan.")]


def repair_index(page):
    """The repair block's index among the page's Python blocks (what replace_code counts)."""
    return page.locator("div.language-python.highlight").evaluate_all("(blocks) => blocks.findIndex((b) => b.dataset.repair)")


def check_and_wait(page, section):
    panel = section.locator(".mg-runner")
    section.locator(".mg-run").click()
    expect(panel).to_have_attribute("data-state", re.compile("done|error|stopped"), timeout=COLD)
    expect(section).to_have_attribute("data-state", re.compile("repaired|not-repaired"))
    return panel.locator(".mg-output").inner_text()


@pytest.mark.parametrize("slug, lang, refused, accepted", CASES)
def test_check_refuses_the_broken_code_and_accepts_the_fix(page, site_url, watch, replace_code, slug, lang, refused, accepted):
    visit(page, site_url + ("es/" if lang == "es" else "") + f"breaks/{slug}/")
    section = page.locator("[data-mg='repair']")
    expect(section).to_have_attribute("data-break", slug)
    expect(section.locator(".mg-run")).to_have_text("Check" if lang == "en" else "Comprobar")
    expect(section.locator(".mg-break")).to_have_count(0)  # no healthy/broken toggle: the reader's code is what runs

    output = check_and_wait(page, section)
    assert refused in output, output
    expect(section).to_have_attribute("data-state", "not-repaired")
    assert "✗" in output, output
    verdict = next(line for line in output.splitlines() if line.startswith(refused))
    expect(section.locator(".mg-status")).to_have_text(verdict)  # the verdict, not "Done: 13 lines of output"

    replace_code(page, repair_index(page), healthy_text(units(slug)))
    output = check_and_wait(page, section)
    assert accepted in output and "✗" not in output, output
    expect(section).to_have_attribute("data-state", "repaired")
    expect(section.locator(".mg-status")).to_have_text(accepted)
    stored = json.loads(page.evaluate("localStorage.getItem('minigrad:progress')"))
    assert stored["breaks"][slug]["repaired"] and stored["breaks"][slug]["checks"] == 2

    section.locator(".mg-reset").click()  # the broken code again: no longer repaired on screen, still in the progress
    expect(section).not_to_have_attribute("data-state", "repaired")
    page.reload()  # the page says it was repaired before, and judges only what the editor holds
    expect(page.locator(".mg-repair-earlier")).to_contain_text("You repaired this break on" if lang == "en" else "Reparaste esta rotura el")
    expect(page.locator("[data-mg='repair']")).not_to_have_attribute("data-state", "repaired")
    assert not watch.outside() and not watch.errors, (watch.outside(), watch.errors)
    assert not serious_violations(page)


def test_an_edit_that_raises_or_does_not_compile_is_said_plainly(page, site_url, replace_code):
    slug = "relu-gated-on-upstream"
    visit(page, site_url + f"breaks/{slug}/")
    section = page.locator("[data-mg='repair']")
    replace_code(page, repair_index(page), "def relu(self):\n    return (\n")
    output = check_and_wait(page, section)
    assert "Your code does not compile (line 2 of the editor)" in output, output
    expect(section.locator(".mg-status")).to_have_text(re.compile(r"^Your code does not compile \(line 2 of the editor\): SyntaxError"))
    replace_code(page, repair_index(page), "def relu(self):\n    raise ValueError('half done')\n")
    output = check_and_wait(page, section)
    assert "ValueError: half done" in output and "Not repaired yet" in output, output
    expect(section).to_have_attribute("data-state", "not-repaired")

    replace_code(page, repair_index(page), "def relu(self):\n    while True:\n        pass\n")  # a loop: Stop ends it
    panel = section.locator(".mg-runner")
    section.locator(".mg-run").click()
    expect(panel).to_have_attribute("data-state", "running")
    page.wait_for_timeout(300)
    section.locator(".mg-stop").click()
    expect(panel).to_have_attribute("data-state", "stopped", timeout=5_000)
    expect(section).not_to_have_attribute("data-state", "repaired")
    section.locator(".mg-reset").click()  # the page's broken code again, checked by a fresh Python
    assert "Not repaired yet" in check_and_wait(page, section)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_section_on_a_phone_with_the_keyboard(new_context, site_url, scheme):
    """The hints open from the keyboard, the third holds the fix; nothing overflows; axe, light and dark."""
    context = new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True, color_scheme=scheme)
    page = context.new_page()
    page.goto(site_url + "es/breaks/batchnorm-running-var-biased/")
    section = page.locator("[data-mg='repair']")
    expect(section.locator(".mg-run")).to_have_text("Comprobar")
    hints = section.locator("details")
    expect(hints).to_have_count(3)
    for n in range(3):
        hints.nth(n).locator("summary").focus()
        page.keyboard.press("Enter")
        expect(hints.nth(n)).to_have_attribute("open", "")
    expect(hints.nth(2)).to_contain_text("El código sano, como un diff desde el roto")
    assert page.evaluate("document.scrollingElement.scrollWidth <= window.innerWidth"), "the section overflows a phone's width"
    assert not serious_violations(page)
    context.close()


def test_on_a_phone_the_check_lines_wrap_under_their_own_start(new_context, site_url):
    """A wrong fix's report, at 390 px: no line is cut at the right edge (the output does not
    scroll sideways), a long check line wraps, and its rest starts past the ✓/✗ mark."""
    context = new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    page = context.new_page()
    page.goto(site_url + "breaks/relu-gated-on-upstream/")
    section = page.locator("[data-mg='repair']")
    output = check_and_wait(page, section)
    expect(section.locator(".mg-status")).to_have_text(re.compile(r"^Not repaired yet: \d+ of \d+ checks fail\.$"))
    shown = section.locator(".mg-output")
    assert shown.evaluate("(e) => e.scrollWidth <= e.clientWidth + 1"), "a check line is cut at the right edge"
    lines = shown.locator("span").evaluate_all("""(spans) => spans.map((s) => {
        const height = parseFloat(getComputedStyle(s).lineHeight);
        const rects = [...s.getClientRects()], range = document.createRange();
        range.selectNodeContents(s);
        const boxes = [...range.getClientRects()].filter((r) => r.width > 0);
        return {text: s.textContent, rows: Math.round(s.getBoundingClientRect().height / height),
                first: boxes.length ? boxes[0].left : null, rest: boxes.length > 1 ? Math.min(...boxes.slice(1).map((r) => r.left)) : null};
    })""")
    checks = [line for line in lines if line["text"].lstrip().startswith(("✓", "✗"))]
    assert checks and len(checks) == output.count("✓") + output.count("✗"), lines
    wrapped = [line for line in checks if line["rows"] > 1]
    assert wrapped, f"no check line is long enough to wrap at 390 px: {checks}"
    assert all(line["rest"] > line["first"] for line in wrapped), wrapped  # hanging: the rest starts past the mark
    assert all(line["rows"] == 1 for line in lines if len(line["text"].strip()) < 20), lines  # a short line is one row, no blank after it
    context.close()
