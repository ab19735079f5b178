"""The runner in a real browser: healthy and broken runs, tracebacks, Stop,
instant navigation with one interpreter, Spanish, the language switcher,
no request off the machine, no console error, no serious axe violation."""

import json
import re
from pathlib import Path

import pytest
from editing import replace_code
from markdown_blocks import parse_page  # tests/ is on sys.path (the root conftest.py)
from navigation import follow
from playwright.sync_api import expect
from running import COLD, block_panel, run_and_wait, serious_violations, shown_output
from warm import booted, visit

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.browser


@pytest.fixture
def page(warm_page):
    """Python booted once for the module's tests (tests/browser/warm.py); a test whose claim needs a cold
    start, a first load or another server takes `cold_page`."""
    return warm_page


def test_break_page_runs_healthy_then_broken(page, site_url, watch):
    visit(page, site_url + "breaks/skip-unbroadcast/")
    panel = block_panel(page, 0)
    healthy = run_and_wait(panel)
    assert healthy.strip() == shown_output(page, 0).strip()
    panel.locator(".mg-break").click()
    expect(panel.locator(".mg-break")).to_have_attribute("aria-pressed", "true")
    broken = run_and_wait(panel, timeout=20_000)
    assert expect(panel).to_have_attribute("data-state", "error") is None
    assert shown_output(page, 0, broken=True).strip() in broken
    assert "a.grad += out.grad" in broken  # the traceback shows the broken line
    assert not watch.outside(), watch.outside()
    assert not watch.errors, watch.errors



def test_a_block_that_raises_shows_its_traceback(page, site_url, watch):
    visit(page, site_url + "theory/04-broadcasting/")
    panel = block_panel(page, 3)  # Tensor(ones((3, 2))) + Tensor(ones(4)): declared to raise
    text = run_and_wait(panel)
    expect(panel).to_have_attribute("data-state", "error")
    assert "Traceback (most recent call last):" in text
    assert 'File "<block 4>", line 4, in <module>' in text  # the reader's block and line
    assert "ValueError: shapes (3, 2) and (4,) cannot be broadcast together" in text
    assert "blocks.py" not in text  # the runner's own frames are left out
    assert not watch.errors, watch.errors


def test_stop_ends_an_endless_loop_and_python_runs_again(page, site_url, watch, replace_code):
    visit(page, site_url + "theory/01-derivatives/")
    panel = block_panel(page, 0)
    run_and_wait(panel)  # boot once
    replace_code(page, 0, "print('start', flush=True)\nwhile True:\n    pass\n")
    panel.locator(".mg-run").click()
    expect(panel.locator(".mg-output")).to_contain_text("start", timeout=10_000)
    assert page.evaluate("1 + 1") == 2  # the page's main thread is free while Python spins
    panel.locator(".mg-stop").click()
    expect(panel).to_have_attribute("data-state", "stopped", timeout=1_500)  # within a second or so
    page.locator(".mg-reset").nth(0).click()
    assert run_and_wait(panel).strip() == shown_output(page, 0).strip()  # a new worker, same answer
    assert not watch.errors, watch.errors


def test_stop_uses_the_interrupt_buffer_when_isolated(cold_page, isolated_site_url, watch, replace_code):
    page = cold_page
    page.goto(isolated_site_url + "theory/01-derivatives/")
    assert page.evaluate("self.crossOriginIsolated")
    panel = block_panel(page, 0)
    run_and_wait(panel)
    replace_code(page, 0, "x = 0\nwhile True:\n    x += 1\n")
    panel.locator(".mg-run").click()
    expect(panel).to_have_attribute("data-state", "running")
    page.wait_for_timeout(300)
    panel.locator(".mg-stop").click()
    expect(panel).to_have_attribute("data-state", "stopped", timeout=1_500)
    expect(panel.locator(".mg-status")).to_have_text("Stopped")  # interrupted, not restarted
    page.locator(".mg-reset").nth(0).click()
    assert run_and_wait(panel, timeout=5_000).strip() == shown_output(page, 0).strip()  # same worker, warm
    assert not watch.errors, watch.errors


def test_runaway_print_loop_is_bounded(page, site_url, watch, replace_code):
    visit(page, site_url + "theory/01-derivatives/")
    panel = block_panel(page, 0)
    replace_code(page, 0, "for i in range(10**6):\n    print(i)\n")
    text = run_and_wait(panel)
    assert "[output truncated: only the first 100,000 characters are shown]" in text
    assert len(text) < 120_000
    assert not watch.errors, watch.errors


def test_instant_navigation_keeps_the_interpreter(cold_page, site_url, watch):
    page = cold_page
    page.goto(site_url + "theory/01-derivatives/")
    run_and_wait(block_panel(page, 0))
    page.evaluate("window.__marker = 'same document'")
    follow(page, page.locator("nav a[href$='02-graphs/']").first, re.compile(r"02-graphs/$"))
    assert page.evaluate("window.__marker") == "same document"  # instant navigation, no reload
    panel = block_panel(page, 2)
    text = run_and_wait(panel, timeout=5_000)  # warm: no second boot
    assert "x.grad = 1.0" in text
    pyodide_loads = [u for u in watch.requests if u.endswith("pyodide.asm.wasm")]
    assert len(pyodide_loads) == 1, pyodide_loads
    assert not watch.errors, watch.errors


def test_spanish_break_page_and_labels(page, site_url, watch):
    visit(page, site_url + "es/breaks/overwrite-grad/")
    boots = 0 if booted(page) else 1
    panel = block_panel(page, 0)
    expect(panel.locator(".mg-run")).to_have_text("Ejecutar")
    healthy = run_and_wait(panel)
    assert healthy.strip() == shown_output(page, 0).strip()
    expect(panel.locator(".mg-status")).to_have_text(re.compile(r"^Listo: \d+ líneas de salida$"))
    panel.locator(".mg-break").click()
    expect(panel.locator(".mg-break")).to_have_text("Romperlo")
    expect(panel.locator(".mg-break")).to_have_attribute("aria-pressed", "true")
    broken = run_and_wait(panel, timeout=20_000)
    assert broken.strip() == shown_output(page, 0, broken=True).strip()
    follow(page, page.locator("nav a[href$='skip-unbroadcast/']").first, re.compile(r"/es/breaks/skip-unbroadcast/$"))
    # skip-unbroadcast's block needs NumPy, which loads now (seconds on a loaded machine):
    # the interpreter is the same one, shown by one Pyodide download, not by a time limit.
    assert run_and_wait(block_panel(page, 0), timeout=20_000).strip() == shown_output(page, 0).strip()
    pyodide_loads = [u for u in watch.requests if u.endswith("pyodide.asm.wasm")]
    assert len(pyodide_loads) == boots, pyodide_loads
    assert not watch.outside(), watch.outside()
    assert not watch.errors, watch.errors


def test_language_switcher_lands_on_the_same_page_after_instant_navigation(cold_page, site_url, watch):
    """A page of its own: the switch is a full load, and on the warm page it would throw away a
    booted Python that this test never uses (the next test paid the boot)."""
    page = cold_page
    visit(page, site_url + "theory/01-derivatives/")
    follow(page, page.locator("nav a[href$='03-worked-backprop/']").first, re.compile(r"03-worked-backprop/$"))
    page.goto(page.url + "#diamond-test")  # same document: only the hash changes
    link = page.locator("a.md-select__link[hreflang='es']")
    # the runner rewrites the switcher's links once its module has run: waited for, not read at once (CI read them first, loaded)
    expect(link).to_have_attribute("href", re.compile(r"/es/theory/03-worked-backprop/#diamond-test$"))
    page.locator(".md-header__option .md-select").first.hover()
    link.click()
    expect(page).to_have_url(re.compile(r"/es/theory/03-worked-backprop/#diamond-test$"))
    expect(page.locator("h1")).to_have_text(re.compile("diamante", re.I))
    back = page.locator("a.md-select__link[hreflang='en']")
    expect(back).to_have_attribute("href", re.compile(r"(?<!/es)/theory/03-worked-backprop/#diamond-test$"))
    assert "/es/" not in back.get_attribute("href")
    assert not watch.errors, watch.errors


def test_nothing_of_pyodide_loads_before_intent(cold_page, site_url, watch):
    page = cold_page
    page.goto(site_url + "breaks/skip-unbroadcast/")
    page.wait_for_load_state("networkidle")
    assert not [u for u in watch.requests if "pyodide" in u or "bundle.json" in u]
    runner_bytes = page.evaluate("""performance.getEntriesByType('resource')
        .filter(e => e.name.includes('/assets/minigrad/')).reduce((n, e) => n + e.decodedBodySize, 0)""")
    assert 0 < runner_bytes < 50_000, runner_bytes  # the runner's own JS and CSS, before intent
    page.locator(".mg-run").first.focus()  # intent: loading starts now
    page.wait_for_function("window.__minigradRuntime && window.__minigradRuntime.bootMs !== null", timeout=COLD)
    assert any(u.endswith("pyodide.asm.wasm") for u in watch.requests)


@pytest.mark.parametrize("path", ["", "breaks/skip-unbroadcast/", "es/breaks/overwrite-grad/"])
def test_accessibility_scan_finds_no_serious_violation(page, site_url, path):
    visit(page, site_url + path)
    page.locator(".mg-run").first.focus()
    serious = serious_violations(page)
    page.locator(".mg-reset").first.focus()  # Material fills a focused button with the accent colour
    serious += serious_violations(page)
    assert not serious, json.dumps(serious, indent=1)


@pytest.mark.parametrize("path", ["breaks/skip-unbroadcast/", "es/breaks/skip-unbroadcast/"])
def test_accessibility_scan_after_runs_finds_no_serious_violation(page, site_url, path):
    """The page as a reader leaves it: one run done, one broken run with a traceback, one stopped."""
    visit(page, site_url + path)
    run_and_wait(block_panel(page, 0))
    block_panel(page, 1).locator(".mg-break").click()
    run_and_wait(block_panel(page, 1), timeout=20_000)
    expect(block_panel(page, 1)).to_have_attribute("data-state", "error")
    replace_code(page, 2, "while True:\n    pass\n")
    block_panel(page, 2).locator(".mg-run").click()
    block_panel(page, 2).locator(".mg-stop").click()
    expect(block_panel(page, 2)).to_have_attribute("data-state", "stopped")
    serious = serious_violations(page)
    assert not serious, json.dumps(serious, indent=1)


def test_buttons_are_keyboard_usable(page, site_url):
    visit(page, site_url + "breaks/overwrite-grad/")
    toggle = page.locator(".mg-break").first
    toggle.focus()
    page.keyboard.press("Enter")
    expect(toggle).to_have_attribute("aria-pressed", "true")
    page.keyboard.press("Space")
    expect(toggle).to_have_attribute("aria-pressed", "false")
    run = page.locator(".mg-run").first
    run.focus()
    page.keyboard.press("Enter")
    expect(page.locator(".mg-status").first).to_have_text(re.compile("(Loading|Downloading|Starting) Python|Running|Done"))


def after_a_raise(slug):
    """The blocks of a break's page that continue blocks the break makes raise, each with those
    blocks (CI holds every raise to its declaration, so the declarations find them all)."""
    page = parse_page(ROOT / f"docs/breaks/{slug}.md")
    found = []
    for block in page.blocks:
        raised = [b for b in page.chain(block)[:-1] if b.broken[0] == "raises"] if block.continuation else []
        if raised and not block.notest:
            found.append((block, raised, block.output(True) or block.output(False)))
    return found


def check_a_block_after_a_raise(page, block, raised, shown):
    """Issue 24 item 1: run broken, the block shows its own result as the page does (what it printed,
    then its own traceback ending in the page's error line), and one line, folded, names the earlier
    blocks that raised, whose tracebacks unfold under it."""
    blocks = page.locator("div.language-python.highlight")
    codes = [c.strip() for c in blocks.evaluate_all("(els) => els.map((e) => e.querySelector('code').textContent)")]
    name = lambda b: f"<block {codes.index(b.code.strip()) + 1}>"  # noqa: E731 (as runner.js names blocks)
    panel = blocks.nth(codes.index(block.code.strip())).locator("xpath=following-sibling::div[contains(@class,'mg-runner')][1]")
    panel.locator(".mg-break").click()
    got = run_and_wait(panel, timeout=COLD)
    where = f"{name(block)} (line {block.line})"
    assert set(re.findall(r"<block \d+>", got)) <= {name(block)}, f"{where}: the output names other blocks:\n{got}"
    printed, _, last = shown.text.rstrip("\n").rpartition("\n")
    if panel.get_attribute("data-state") == "error":
        assert got.startswith(printed) and got.rstrip("\n").endswith(last), f"{where}: not the page's\n{shown.text}\nbut\n{got}"
    else:
        assert got.strip() == shown.text.strip(), f"{where}: not the page's\n{shown.text}\nbut\n{got}"
    earlier = panel.locator("details.mg-earlier")
    line = earlier.locator("summary").inner_text()
    assert "\n" not in line and all(name(b) in line for b in raised), f"{where}: {line!r}"
    assert earlier.get_attribute("open") is None  # folded: one line until the reader opens it
    folded = earlier.locator("pre").text_content()
    assert folded.count("Traceback (most recent call last):") == len(raised), folded


def test_every_break_page_shows_its_documented_failure_in_the_browser(page, site_url, watch):
    """One interpreter for the whole tour: each break page is reached by instant
    navigation, and its first block that the break changes is run broken; so is
    every block that continues blocks the break makes raise (issue 24 item 1)."""
    from minigrad import breaks

    walked = 0
    visit(page, site_url)
    boots = 0 if booted(page) else 1
    for entry in breaks.catalogue():
        slug = entry.slug
        page.locator(f"nav a[href$='breaks/{slug}/']").first.click()
        expect(page).to_have_url(re.compile(rf"breaks/{slug}/$"))
        expect(page.locator(".mg-page")).to_have_attribute("data-minigrad-break", slug)  # content replaced
        flags = page.locator("div.language-python.highlight").evaluate_all("(els) => els.map(e => e.dataset.broken || '')")
        index = next((i for i, flag in enumerate(flags) if flag), None)
        assert index is not None, f"{slug}: no block declares what the break does ({flags})"
        panel = block_panel(page, index)
        panel.locator(".mg-break").click()
        got = run_and_wait(panel, timeout=COLD)
        shown = shown_output(page, index, broken=True)
        missing = [line for line in shown.strip().splitlines() if line not in got]
        assert not missing, f"{slug}: the browser's broken run lacks {missing!r}; it printed:\n{got}"
        for block, raised, shown_block in after_a_raise(slug):
            check_a_block_after_a_raise(page, block, raised, shown_block)
            walked += 1
    assert walked >= 2, "skip-unbroadcast's blocks 2 and 3 continue blocks its break makes raise"
    assert len([u for u in watch.requests if u.endswith("pyodide.asm.wasm")]) == boots
    assert not watch.outside(), watch.outside()
    assert not watch.errors, watch.errors


def test_stdout_and_stderr_are_told_apart_and_never_parsed_as_html(page, site_url, watch, replace_code):
    visit(page, site_url + "theory/01-derivatives/")
    panel = block_panel(page, 0)
    replace_code(page, 0, 'import sys\nprint("<b>out</b>")\nprint("err line", file=sys.stderr)\n')
    run_and_wait(panel)
    expect(panel.locator(".mg-output .mg-stdout")).to_contain_text("<b>out</b>")  # shown as text
    assert panel.locator(".mg-output b").count() == 0  # no element was created from it
    expect(panel.locator(".mg-output .mg-stderr")).to_contain_text("err line")
    assert not watch.errors, watch.errors
