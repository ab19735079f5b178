"""The mystery break in a real browser: a seeded draw, the diagnostics block run
under the hidden break, a wrong guess, a right one, and the link to its page."""

import json
import re
import subprocess
from pathlib import Path

import pytest
from playwright.sync_api import expect
from running import COLD, serious_violations
from warm import visit

ROOT = Path(__file__).resolve().parents[2]
MYSTERY_JS = ROOT / "runner" / "pages" / "mystery.js"
pytestmark = pytest.mark.browser


@pytest.fixture
def page(warm_page):
    """Python booted once for the module's tests (tests/browser/warm.py)."""
    return warm_page



def expected_draw(options, seed):
    """What mystery.js draws first for `?seed=`, computed by the same file under Node."""
    script = """
    const { draw, mulberry32 } = require(process.argv[1]);
    const options = JSON.parse(require("fs").readFileSync(0, "utf8"));
    console.log(draw(options, "", mulberry32(Number(process.argv[2]))()).slug);
    """
    done = subprocess.run(["node", "-e", script, str(MYSTERY_JS), str(seed)], input=json.dumps(options), capture_output=True, text=True, check=True)
    return done.stdout.strip()


def options_of(form):
    return form.locator(".mg-mystery-guess option").evaluate_all(
        "os => os.map(o => ({slug: o.value, phase: o.dataset.phase, href: o.dataset.href, title: o.textContent}))"
    )


def test_a_seeded_mystery_runs_hidden_is_guessed_and_links_its_page(page, site_url, watch, replace_code):
    visit(page, site_url + "mystery/?seed=11")
    form = page.locator("form.mg-mystery")
    expect(form).to_have_attribute("data-state", "hidden")
    options = options_of(form)
    answer = expected_draw(options, 11)
    assert page.locator(".mg-break").count() == 0  # no toggle: the hidden break is always on
    hidden_form = form.evaluate("f => f.outerHTML")
    assert answer not in page.locator("body").inner_text()

    panel = page.locator(".mg-runner").nth(0)  # the standard diagnostics
    panel.locator(".mg-run").click()
    expect(panel).to_have_attribute("data-state", re.compile("done|error|stopped"), timeout=COLD)
    output = panel.locator(".mg-output").inner_text()
    assert " caught: " in output, output  # the hidden break, caught
    assert "caught" not in page.locator("div.output").first.inner_text()  # healthy, shown under the block, catches nothing

    # The broken copy's files are named "<broken by SLUG>/..." (tracebacks, anything printed): here the slug is masked.
    replace_code(page, 0, "import numpy as np\nfrom minigrad.tensor import Tensor\n\n"
                 "print('printed:', Tensor.__add__.__code__.co_filename)\n"
                 "Tensor(np.ones(3)) + Tensor(np.ones(4))  # raises inside minigrad/tensor.py\n")
    panel.locator(".mg-run").click()
    expect(panel).to_have_attribute("data-state", "error", timeout=COLD)
    output = panel.locator(".mg-output").inner_text()
    assert "printed: <broken by ?>/minigrad/tensor.py" in output, output
    assert 'File "<broken by ?>/minigrad/tensor.py"' in output, output
    assert answer not in output, output

    wrong = next(o for o in options if o["slug"] != answer)
    form.locator(".mg-mystery-guess").select_option(wrong["slug"])
    form.locator(".mg-mystery-check").click()
    expect(form).to_have_attribute("data-state", "wrong")
    expect(form.locator(".mg-mystery-verdict")).to_contain_text(wrong["title"])
    assert form.locator(".mg-mystery-link").count() == 0

    form.locator(".mg-mystery-guess").select_option(answer)
    form.locator(".mg-mystery-check").click()
    expect(form).to_have_attribute("data-state", "right")
    link = form.locator(".mg-mystery-link")
    expect(link).to_have_attribute("href", f"../breaks/{answer}/")
    link.click()
    expect(page).to_have_url(site_url + f"breaks/{answer}/")
    expect(page.locator(f'.md-content .mg-page[data-minigrad-break="{answer}"]')).to_have_count(1)  # the break's page is on screen
    assert page.evaluate("window.minigradMystery.hiddenBreak()") == ""  # off the mystery page, blocks run as the page says

    # Another seed draws another break, and the page looks the same: the answer is in no attribute.
    visit(page, site_url + "mystery/?seed=12")
    other = expected_draw(options, 12)
    assert other != answer, "pick seeds that draw different breaks"
    form = page.locator("form.mg-mystery")
    expect(form).to_have_attribute("data-state", "hidden")
    assert form.evaluate("f => f.outerHTML") == hidden_form
    form.locator(".mg-mystery-reveal").click()
    expect(form).to_have_attribute("data-state", "revealed")
    expect(form.locator(".mg-mystery-link")).to_have_attribute("href", f"../breaks/{other}/")
    assert not watch.outside(), watch.outside()
    assert not watch.errors, watch.errors


def test_the_spanish_pages_say_the_diagnostics_report_in_english(page, site_url):
    """Issue 24 item 5: the mystery page, as the matrix page, says before the diagnostics
    block's output that it is English (minigrad.checks reports in English, on every page)."""
    for path in ("es/mystery/", "es/diagnostics/"):
        visit(page, site_url + path)
        block = page.locator("div.language-python.highlight", has_text="DIAGNOSTICS.items()").first
        before = " ".join(block.evaluate("(b) => b.previousElementSibling.textContent").split())
        assert "en inglés, tal cual" in before, (path, before)
        shown = block.locator("xpath=following-sibling::div[contains(@class,'output')][1]").inner_text()
        assert "passed: " in shown, (path, shown)  # what the sentence announces


@pytest.mark.parametrize(("lang", "scheme"), [("", "light"), ("es/", "dark")])
def test_the_guess_list_reads_as_text_and_the_selects_fit_a_phone(new_context, site_url, lang, scheme):
    """Issue 38: the titles' Markdown showed raw in the guess list (No `__radd__`: ...), and on a
    phone the phase selector was small and unstyled."""
    context = new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True, color_scheme=scheme)
    page = context.new_page()
    page.goto(site_url + lang + "mystery/")
    form = page.locator("form.mg-mystery")
    titles = [o["title"] for o in options_of(form)]
    assert not [t for t in titles if "`" in t or re.search(r"\*\w[^*]*\w\*", t)], titles  # no code marks, no *emphasis* (p - lr * grad stays)
    radd = "No __radd__: sum() of Values raises" if not lang else "Sin __radd__: sum() de Values lanza un error"
    assert radd in titles, titles
    for select in (form.locator(".mg-mystery-phase"), form.locator(".mg-mystery-guess")):
        box = select.bounding_box()
        assert box["height"] >= 40 and box["x"] + box["width"] <= 390, box  # a thumb's target, within the screen
        style = select.evaluate("(s) => { const c = getComputedStyle(s); return [c.fontSize, c.color, c.backgroundColor]; }")
        body = page.evaluate("(() => { const c = getComputedStyle(document.querySelector('.md-typeset')); return [c.fontSize, c.color]; })()")
        assert style[0] == body[0] and style[1] == body[1], (style, body)  # the page's text, not the browser's small default
    assert page.evaluate("document.scrollingElement.scrollWidth <= window.innerWidth"), "the form overflows a phone's width"
    assert not serious_violations(page)
    context.close()


def test_a_mystery_loaded_first_still_sets_up_when_the_reader_comes_back(cold_page, site_url):
    """The mystery page opened directly (its script runs before Material's bundle), then left and
    reached again by instant navigation: the form is set up again. It was not (the warm page's
    order of tests found it: the script subscribed to no page after the first)."""
    page = cold_page
    page.goto(site_url + "mystery/?seed=11")
    expect(page.locator("form.mg-mystery")).to_have_attribute("data-state", "hidden")
    visit(page, site_url + "breaks/overwrite-grad/")
    visit(page, site_url + "mystery/?seed=12")
    expect(page.locator("form.mg-mystery")).to_have_attribute("data-state", "hidden")
    assert page.evaluate("window.minigradMystery.hiddenBreak()") != ""
