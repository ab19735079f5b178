"""The code editor (CodeMirror, runner/editor/codemirror.js, built into assets/minigrad/editor.bundle.js) in
a real browser: it loads only on intent and replaces the code view in place,
indents like a Python editor, lets the keyboard out (Escape then Tab), follows
typing with highlighting in the theme's colours, keeps edits for the visit,
Reset undoes them, Ctrl+Enter runs them, and it speaks the page's language."""

import re
from pathlib import Path

import pytest
from navigation import follow, navigate
from playwright.sync_api import expect
from running import COLD, serious_violations
from warm import visit

ROOT = Path(__file__).resolve().parents[2]
BUDGET = 50_000  # bytes of the runner's assets a page costs before intent
pytestmark = pytest.mark.browser


@pytest.fixture
def page(warm_page):
    """Python booted once for the module's tests (tests/browser/warm.py); a test whose claim needs a cold
    start, a first load or another server takes `cold_page`."""
    return warm_page


DERIVATIVES = "theory/01-derivatives/"  # block 0 starts "def f(x):"


def block(page, index):
    return page.locator("div.language-python.highlight").nth(index)


def open_editor(page, index):
    """Click the block's code, as a reader would, and wait for the editor to take focus."""
    block(page, index).locator("code").click()
    content = block(page, index).locator(".cm-content")
    expect(content).to_be_focused()
    return content


def open_at_the_end(page, index):
    """The editor open, the cursor after the block's last character: where a reader adds a line."""
    open_editor(page, index)
    page.keyboard.press("ControlOrMeta+End")


def page_box(locator):
    """Where an element sits on the page (not the viewport: focus scrolls)."""
    return locator.evaluate("(e) => { const r = e.getBoundingClientRect(); return {y: r.top + scrollY, height: r.height}; }")


def text_of(page, index):
    """The block's text as the runner reads it (the editor keeps the hidden <code> in step)."""
    return block(page, index).locator("code").evaluate("(code) => code.textContent")


def test_nothing_of_the_editor_loads_before_intent_and_the_budget_holds(cold_page, site_url, watch):
    page = cold_page
    sizes = {}
    page.on("response", lambda r: "/assets/minigrad/" in r.url and sizes.__setitem__(r.url, len(r.body())))
    page.goto(site_url + "breaks/skip-unbroadcast/")
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(500)
    assert not [u for u in watch.requests if "editor.bundle" in u]
    assert page.locator(".cm-editor").count() == 0
    before = sum(sizes.values())
    assert before < BUDGET, f"{before} bytes of runner assets before intent: {sizes}"
    code = block(page, 0).locator("code")
    box = page_box(code)
    code.focus()  # keyboard intent: the editor loads and takes over, focus included
    expect(block(page, 0).locator(".cm-content")).to_be_focused()
    assert [u for u in watch.requests if u.endswith("/assets/minigrad/editor.bundle.js")]
    assert not [u for u in watch.requests if "pyodide" in u]  # editing is not running
    expect(code).to_be_hidden()
    after = page_box(block(page, 0).locator(".cm-editor"))
    assert abs(after["y"] - box["y"]) < 1 and abs(after["height"] - box["height"]) <= 2, (box, after)  # no layout jump
    assert block(page, 1).locator(".cm-editor").count() == 0  # one block's intent opens one editor
    assert not watch.outside(), watch.outside()
    assert not watch.errors, watch.errors


def test_text_selected_before_the_editor_loads_stays_selected(cold_page, site_url, watch):
    page = cold_page
    page.goto(site_url + DERIVATIVES)
    code = block(page, 0).locator("code")
    assert code.evaluate("(c) => getComputedStyle(c).userSelect") != "none"
    box = code.bounding_box()
    page.mouse.move(box["x"] + 16, box["y"] + 20)  # on "def f(x):"
    page.mouse.down()
    page.mouse.move(box["x"] + 60, box["y"] + 20, steps=5)
    page.mouse.move(box["x"] + box["width"] - 20, box["y"] + 40, steps=5)  # into the next line
    page.mouse.up()
    expect(block(page, 0).locator(".cm-content")).to_be_focused()
    selected = page.evaluate("getSelection().toString()")
    assert selected.startswith("def f(x):") and "return" in selected, repr(selected)
    assert not watch.errors, watch.errors


def test_enter_after_a_colon_indents_and_tab_indents(page, site_url, watch):
    visit(page, site_url + DERIVATIVES)
    open_at_the_end(page, 0)
    page.keyboard.press("Enter")
    page.keyboard.type("if x:")
    page.keyboard.press("Enter")
    page.keyboard.type("pass")
    assert text_of(page, 0).endswith("\nif x:\n    pass\n")
    page.keyboard.press("Enter")
    page.keyboard.press("Backspace")  # back to column 0 (deleteCharBackward removes one indent unit)
    page.keyboard.press("Tab")
    page.keyboard.type("y = 1")
    assert text_of(page, 0).endswith("\nif x:\n    pass\n    y = 1\n")
    assert not watch.errors, watch.errors


def test_escape_then_tab_leaves_the_editor(page, site_url, watch):
    visit(page, site_url + DERIVATIVES)
    content = open_editor(page, 0)
    before = text_of(page, 0)
    page.keyboard.press("Tab")  # indents: Tab alone does not leave
    expect(content).to_be_focused()
    assert text_of(page, 0) != before
    page.keyboard.press("Escape")
    page.keyboard.press("Tab")  # CodeMirror's documented escape hatch
    expect(content).not_to_be_focused()
    assert page.evaluate("!document.activeElement.closest('.cm-editor') && document.activeElement !== document.body")
    hint = block(page, 0).locator(".mg-editor-hint")
    assert content.get_attribute("aria-describedby") == hint.get_attribute("id")
    expect(hint).to_have_text(re.compile(r"Esc then Tab: leave the editor"))
    assert not watch.errors, watch.errors


def test_highlighting_follows_typing_in_the_themes_colours(page, site_url, watch):
    visit(page, site_url + DERIVATIVES)
    open_editor(page, 0)
    keywords = block(page, 0).locator(".cm-editor .tok-keyword")
    expect(keywords.filter(has_text=re.compile(r"^while$"))).to_have_count(0)
    page.keyboard.press("ControlOrMeta+End")
    page.keyboard.press("Enter")
    page.keyboard.type("while False:")
    typed = keywords.filter(has_text=re.compile(r"^while$"))
    expect(typed).to_have_count(1)  # a token class for the keyword just typed
    page_keyword = block(page, 1).locator("code .k, code .kn").first  # Pygments, on the same page
    # the colours once the palette has switched, not halfway through Material's colour transitions
    page.add_style_tag(content="*, *::before, *::after { transition: none !important; }")
    for scheme in ("default", "slate"):
        page.evaluate(f"document.body.setAttribute('data-md-color-scheme', '{scheme}')")
        colour = typed.evaluate("(e) => getComputedStyle(e).color")
        assert colour == page_keyword.evaluate("(e) => getComputedStyle(e).color"), scheme
        editor_bg = block(page, 0).locator(".cm-editor").evaluate("(e) => getComputedStyle(e).backgroundColor")
        assert editor_bg == block(page, 1).locator("code").evaluate("(e) => getComputedStyle(e).backgroundColor"), scheme
    assert not watch.errors, watch.errors


def test_an_edit_survives_navigating_away_and_back(page, site_url, watch):
    visit(page, site_url + DERIVATIVES)
    open_at_the_end(page, 0)
    page.keyboard.type("\nprint('kept')")
    edited = text_of(page, 0)
    page.evaluate("window.__marker = 'same document'")
    follow(page, page.locator("nav a[href$='02-graphs/']").first, re.compile(r"02-graphs/$"))
    follow(page, page.locator("nav a[href$='01-derivatives/']").first, re.compile(r"01-derivatives/$"))
    assert page.evaluate("window.__marker") == "same document"  # instant navigation, no reload
    expect(block(page, 0).locator(".cm-content")).to_contain_text("print('kept')")
    assert text_of(page, 0) == edited
    assert block(page, 1).locator(".cm-editor").count() == 0  # unedited blocks stay plain
    navigate(page, lambda: (page.go_back(), page.go_forward()), re.compile(r"01-derivatives/$"))
    expect(block(page, 0).locator(".cm-content")).to_contain_text("print('kept')")
    assert not watch.errors, watch.errors


def test_reset_restores_the_pages_code_and_turns_the_break_off(page, site_url, watch):
    visit(page, site_url + "breaks/skip-unbroadcast/")
    original = text_of(page, 0)
    open_at_the_end(page, 0)
    page.keyboard.type("\nprint('mine')")
    assert text_of(page, 0) != original
    panel = page.locator(".mg-runner").nth(0)
    panel.locator(".mg-break").click()
    expect(panel.locator(".mg-break")).to_have_attribute("aria-pressed", "true")
    panel.locator(".mg-reset").click()
    assert text_of(page, 0) == original
    expect(block(page, 0).locator(".cm-content")).not_to_contain_text("mine")
    expect(panel.locator(".mg-break")).to_have_attribute("aria-pressed", "false")
    expect(panel.locator(".mg-break")).to_have_text("Break it")  # its action, the same in both states (issue 38)
    assert page.evaluate("Object.keys(sessionStorage).filter((k) => k.startsWith('minigrad:edit:'))") == []
    page.reload()  # nothing of the edit comes back, and the editor is not even loaded
    page.wait_for_load_state("networkidle")
    assert text_of(page, 0) == original
    assert page.locator(".cm-editor").count() == 0
    assert not watch.errors, watch.errors


def test_ctrl_enter_runs_the_edited_code(page, site_url, watch):
    visit(page, site_url + DERIVATIVES)
    panel = page.locator(".mg-runner").nth(0)
    shown = block(page, 0).locator("xpath=following-sibling::div[contains(@class,'output')]").first.inner_text()
    open_at_the_end(page, 0)
    page.keyboard.type("\nprint('edited', f(4))")
    page.keyboard.press("ControlOrMeta+Enter")
    expect(panel).to_have_attribute("data-state", re.compile("done|error"), timeout=COLD)
    expect(panel).to_have_attribute("data-state", "done")
    assert panel.locator(".mg-output").inner_text().strip() == shown.strip() + "\nedited 16"
    assert "print('edited', f(4))" in text_of(page, 0)  # Ctrl+Enter ran, it inserted no line
    assert not watch.errors, watch.errors


@pytest.mark.parametrize(
    "path, label, hint",
    [
        (DERIVATIVES, "Python code, editable", "Esc then Tab: leave the editor · Ctrl+Enter: run"),
        ("es/" + DERIVATIVES, "Código Python, editable", "Esc y luego Tab: salir del editor · Ctrl+Intro: ejecutar"),
    ],
)
def test_the_editor_speaks_the_pages_language(page, site_url, watch, path, label, hint):
    visit(page, site_url + path)
    expect(block(page, 0).locator("code")).to_have_attribute("aria-label", label)  # before intent
    content = open_editor(page, 0)
    expect(content).to_have_attribute("aria-label", label)
    expect(block(page, 0).locator(".mg-editor-hint")).to_have_text(hint)
    assert not watch.errors, watch.errors


def test_an_open_editor_on_a_spanish_page_has_no_serious_axe_violation(page, site_url):
    visit(page, site_url + "es/breaks/overwrite-grad/")
    open_editor(page, 0)
    page.keyboard.type("x = 1\n")
    serious = serious_violations(page)
    assert not serious, serious
