"""The runner as a new reader meets it (issue 13, items 1-7, 9 and the toggle of
12): Stop at any moment, whose run Stop ends, what an error says, a runaway
print, the keyboard and screen readers, long lines, and labels in both
languages. Tests that need Python share one boot where they can (a cold boot
is the slow part)."""

import re

import pytest
from editing import replace_code
from navigation import follow
from playwright.sync_api import expect
from running import COLD, FINISHED, shown_output
from warm import visit
from running import block_panel as panel

pytestmark = pytest.mark.browser


@pytest.fixture
def page(warm_page):
    """Python booted once for the module's tests (tests/browser/warm.py); a test whose claim needs a cold
    start, a first load or another server takes `cold_page`."""
    return warm_page



def code(page, index):
    return page.locator("div.language-python.highlight code").nth(index)


def run(page, index, source=None, timeout=COLD):
    """Run block `index` (with `source` typed in first) and return its live output."""
    if source is not None:
        replace_code(page, index, source)
    panel(page, index).locator(".mg-run").click()
    expect(panel(page, index)).to_have_attribute("data-state", FINISHED, timeout=timeout)
    return panel(page, index).locator(".mg-output").inner_text()


def status(page, index):
    return panel(page, index).locator(".mg-status")


def test_stop_while_python_loads_leaves_the_block_usable_then_a_runaway_print_says_it_still_runs(cold_page, site_url, watch):
    """Items 1 and 6 (plain hosting: Stop terminates the worker)."""
    page = cold_page
    page.goto(site_url + "theory/01-derivatives/")
    first = panel(page, 0)
    first.locator(".mg-run").click()
    expect(status(page, 0)).to_have_text(re.compile("^(Loading|Downloading|Starting) Python…"))  # the stage (issue 15)
    page.wait_for_timeout(1000)
    first.locator(".mg-stop").click()
    expect(first).to_have_attribute("data-state", "stopped", timeout=2_000)
    expect(first.locator(".mg-run")).to_have_attribute("aria-disabled", "false")
    assert page.evaluate("window.__minigradRuntime.bootMs") is None  # it really was still loading
    text = run(page, 0)  # the next Run works: it waits for the same boot
    expect(first).to_have_attribute("data-state", "done")
    assert text.strip() == shown_output(page, 0).strip()

    # Item 6: the output is cut, the program goes on, and the page says so with Stop at hand.
    page.evaluate("""() => {
        const s = document.querySelectorAll('.mg-status')[1];
        window.__statusChanges = 0;
        new MutationObserver(() => window.__statusChanges++).observe(s, {childList: true, characterData: true, subtree: true});
    }""")
    replace_code(page, 1, "while True:\n    print('x' * 99)\n")
    panel(page, 1).locator(".mg-run").click()
    expect(panel(page, 1).locator(".mg-output")).to_contain_text("[output truncated", timeout=30_000)
    expect(status(page, 1)).to_have_text(
        "Output truncated at 100,000 characters; the program is still running. Stop ends it.")
    expect(panel(page, 1)).to_have_attribute("data-state", "running")
    expect(panel(page, 1).locator(".mg-stop")).to_have_attribute("aria-disabled", "false")
    page.wait_for_timeout(1500)
    assert page.evaluate("window.__statusChanges") <= 4  # announced once per state, never per line printed
    panel(page, 1).locator(".mg-stop").click()
    expect(panel(page, 1)).to_have_attribute("data-state", "stopped", timeout=3_000)
    assert len(panel(page, 1).locator(".mg-output").inner_text()) < 101_000
    assert not watch.errors, watch.errors


def test_errors_show_only_the_readers_code_and_say_what_to_do(page, site_url, watch):
    """Items 2, 4 and 5: one boot, several kinds of error."""
    visit(page, site_url + "theory/02-graphs/")  # block 2 continues block 1
    original = code(page, 0).text_content()

    text = run(page, 2, "def f(:\n    pass\n")
    assert text.strip() == 'File "<block 3>", line 1\n    def f(:\n          ^\nSyntaxError: invalid syntax'.strip(), text
    expect(panel(page, 2)).to_have_attribute("data-state", "error")

    text = run(page, 2, "import sys\nprint('bye')\nsys.exit(3)\n", timeout=20_000)
    assert text == "bye\nSystemExit: the program exited with code 3\n", text
    expect(status(page, 2)).to_have_text("Exited with code 3")

    text = run(page, 2, "def g():\n    return {}['k']\ng()\n", timeout=20_000)
    assert 'File "<block 3>", line 3, in <module>' in text and 'File "<block 3>", line 2, in g' in text
    expect(status(page, 2)).to_have_text("Raised an error: KeyError: 'k'")
    for runner_frame in ("worker.py", "<exec>", "blocks.py", "/home/pyodide"):
        assert runner_frame not in text, text

    text = run(page, 2, "name = input('Your name? ')\n", timeout=20_000)
    assert "EOFError: input() cannot read here" in text and "Assign the value in the code instead" in text, text
    assert "Errno 29" not in text
    text = run(page, 2, "import matplotlib.pyplot as plt\n", timeout=20_000)
    assert "No module named 'matplotlib'" in text
    assert "These blocks can import numpy, minigrad and Python's standard library" in text, text

    # Item 4: the chain's first block fails; its continuation says so in one line above its own
    # NameError, with the earlier traceback folded under that line (issue 24 item 1).
    replace_code(page, 0, "1 / 0\n" + original)
    text = run(page, 1, timeout=20_000)
    earlier = panel(page, 1).locator("details.mg-earlier")
    expect(earlier.locator("summary")).to_have_text("Earlier blocks that raised: <block 1> (ZeroDivisionError)")
    assert "ZeroDivisionError: division by zero" in earlier.locator("pre").text_content()
    assert "<block 1>" not in text and "NameError" in text, text  # the output is this block's own
    expect(status(page, 1)).to_contain_text("an earlier block raised an error")
    assert not watch.errors, watch.errors


def test_stop_on_a_queued_run_leaves_the_running_one_alone(page, site_url, watch):
    """Item 3: Stop on block 1 (queued) only dequeues it; Stop on block 0 ends block 0,
    and the queue goes on in a new worker."""
    visit(page, site_url + "theory/01-derivatives/")
    run(page, 0)  # boot
    replace_code(page, 0, "print('spinning', flush=True)\nwhile True:\n    pass\n")
    replace_code(page, 2, "print('third ran')\n")
    panel(page, 0).locator(".mg-run").click()
    expect(panel(page, 0).locator(".mg-output")).to_contain_text("spinning", timeout=10_000)
    panel(page, 1).locator(".mg-run").click()
    panel(page, 2).locator(".mg-run").click()
    expect(status(page, 1)).to_have_text("Waiting for the run before…")
    panel(page, 1).locator(".mg-stop").click()
    expect(panel(page, 1)).to_have_attribute("data-state", "stopped")
    expect(status(page, 1)).to_have_text("Stopped")
    page.wait_for_timeout(1500)
    expect(panel(page, 0)).to_have_attribute("data-state", "running")  # block 0 was not touched
    expect(status(page, 2)).to_have_text("Waiting for the run before…")
    panel(page, 0).locator(".mg-stop").click()
    expect(panel(page, 0)).to_have_attribute("data-state", "stopped", timeout=2_000)
    expect(panel(page, 2)).to_have_attribute("data-state", "done", timeout=COLD)  # in a new worker
    assert panel(page, 2).locator(".mg-output").inner_text() == "third ran\n"
    assert not watch.errors, watch.errors


def test_stop_on_a_queued_run_when_isolated(cold_page, isolated_site_url, watch):
    """Item 3 with the interrupt buffer: the interrupt must reach block 0's run only."""
    page = cold_page
    page.goto(isolated_site_url + "theory/01-derivatives/")
    run(page, 0)
    replace_code(page, 0, "print('spinning', flush=True)\nwhile True:\n    pass\n")
    panel(page, 0).locator(".mg-run").click()
    expect(panel(page, 0).locator(".mg-output")).to_contain_text("spinning", timeout=10_000)
    panel(page, 1).locator(".mg-run").click()
    panel(page, 1).locator(".mg-stop").click()
    expect(panel(page, 1)).to_have_attribute("data-state", "stopped")
    page.wait_for_timeout(1500)
    expect(panel(page, 0)).to_have_attribute("data-state", "running")
    panel(page, 0).locator(".mg-stop").click()
    stopped_in_place(page, 0)
    assert run(page, 1, timeout=10_000)  # warm: no second boot
    assert not watch.errors, watch.errors


def stopped_in_place(page, index):
    """Stop interrupted the run and Python lives on; if it was restarted, say why (runner.js's lastRestart)."""
    try:
        expect(status(page, index)).to_have_text("Stopped", timeout=5_000)
    except AssertionError as failure:
        why = page.evaluate("window.__minigradRuntime.lastRestart")
        raise AssertionError(f"{failure}\nPython was restarted: {why} (heard: whether its SIGINT handler ran)") from None


SLOW_CLEAN_UP = """import time
print('spinning', flush=True)
try:
    while True:
        pass
finally:
    began = time.perf_counter()
    while time.perf_counter() - began < 1.5:
        pass
    print('cleaned up')
"""

CATCHES_STOP = """while True:
    try:
        while True:
            pass
    except KeyboardInterrupt:
        print('caught, going on', flush=True)
"""


def test_stop_when_isolated_outlasts_a_lost_interrupt_and_a_slow_clean_up(cold_page, isolated_site_url, watch):
    """Pyodide (0.28, 0.29) reads its interrupt buffer, then clears it: a Stop written between the two
    is lost (CPython gh-157548), rarely, and mostly under load. Here the first press is lost on
    purpose (it goes to a decoy buffer, leaving the real one as the race leaves it, at 0):
    the page presses again, and Python stops in place instead of being restarted.
    Once Python has heard it, a `finally` longer than the 1 s grace finishes, uninterrupted,
    in the same worker; code that catches KeyboardInterrupt and goes on is ended by a restart."""
    page = cold_page
    page.goto(isolated_site_url + "theory/01-derivatives/")
    run(page, 0)
    replace_code(page, 0, "print('spinning', flush=True)\nwhile True:\n    pass\n")
    panel(page, 0).locator(".mg-run").click()
    expect(panel(page, 0).locator(".mg-output")).to_contain_text("spinning", timeout=10_000)
    page.evaluate("""() => {
        const rt = window.__minigradRuntime, stop = rt.stop.bind(rt);
        rt.stop = (job) => { const real = rt.interrupt; rt.interrupt = new Uint8Array(1); stop(job); rt.interrupt = real; rt.stop = stop; };
    }""")
    panel(page, 0).locator(".mg-stop").click()
    stopped_in_place(page, 0)
    assert panel(page, 0).locator(".mg-output").inner_text() == "spinning\n"
    assert page.evaluate("window.__minigradRuntime.lastRestart") is None

    replace_code(page, 0, SLOW_CLEAN_UP)
    panel(page, 0).locator(".mg-run").click()
    expect(panel(page, 0).locator(".mg-output")).to_contain_text("spinning", timeout=10_000)
    panel(page, 0).locator(".mg-stop").click()
    stopped_in_place(page, 0)
    assert panel(page, 0).locator(".mg-output").inner_text() == "spinning\ncleaned up\n"
    assert page.evaluate("window.__minigradRuntime.lastRestart") is None  # the same Python throughout

    replace_code(page, 0, CATCHES_STOP)
    panel(page, 0).locator(".mg-run").click()
    expect(panel(page, 0)).to_have_attribute("data-state", "running")
    page.wait_for_timeout(300)
    panel(page, 0).locator(".mg-stop").click()
    expect(panel(page, 0).locator(".mg-output")).to_contain_text("caught, going on")
    page.wait_for_timeout(1500)
    expect(panel(page, 0)).to_have_attribute("data-state", "running")  # it heard the interrupt: not cut at 1 s
    expect(status(page, 0)).to_have_text("Stopped; Python restarts on the next run", timeout=5_000)
    assert page.evaluate("window.__minigradRuntime.lastRestart.heard") is True
    assert run(page, 1, timeout=COLD).strip() == shown_output(page, 1).strip()  # a new Python
    assert not watch.errors, watch.errors


def _contrast(rgb_a, rgb_b):
    def luminance(rgb):
        channels = []
        for c in rgb[:3]:
            c /= 255
            channels.append(c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4)
        return 0.2126 * channels[0] + 0.7152 * channels[1] + 0.0722 * channels[2]

    hi, lo = sorted((luminance(rgb_a), luminance(rgb_b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def _rgb(css):
    return [float(x) for x in re.findall(r"[\d.]+", css)[:3]]


def test_keyboard_focus_stays_in_the_toolbar_and_the_end_is_announced(cold_page, site_url, watch):
    """Item 7 (and the English toggle of item 12, and the live output's label of item 9). Cold: a
    warm Python ends the run before its status could be read."""
    page = cold_page
    page.goto(site_url + "breaks/overwrite-grad/")
    toolbar = panel(page, 0).locator(".mg-toolbar")
    runner = panel(page, 0).locator(".mg-run")
    page.locator("div.language-python.highlight code").first.focus()  # the editor opens on focus
    expect(page.locator(".cm-content").first).to_be_focused()  # else a Tab would race its loading
    page.keyboard.press("Escape")  # the editor's hint: Esc then Tab leaves it
    page.keyboard.press("Tab")  # keyboard focus: :focus-visible applies
    expect(runner).to_be_focused()
    ring = runner.evaluate("""b => { const s = getComputedStyle(b);
        return {style: s.outlineStyle, width: parseFloat(s.outlineWidth), color: s.outlineColor}; }""")
    page_bg = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert ring["style"] != "none" and ring["width"] >= 2, ring
    assert _contrast(_rgb(ring["color"]), _rgb(page_bg)) >= 3, (ring, page_bg)  # WCAG 1.4.11

    page.keyboard.press("Enter")
    expect(status(page, 0)).to_have_text(re.compile("(Loading|Downloading|Starting) Python…|Running…"))
    assert toolbar.evaluate("t => t.contains(document.activeElement)"), page.evaluate("document.activeElement.outerHTML")
    expect(panel(page, 0)).to_have_attribute("data-state", FINISHED, timeout=COLD)
    expect(runner).to_be_focused()
    lines = panel(page, 0).locator(".mg-output").inner_text().count("\n")
    expect(status(page, 0)).to_have_text(f"Done: {lines} lines of output")
    expect(status(page, 0)).to_have_attribute("role", "status")  # a polite live region
    assert panel(page, 0).locator(".mg-output").get_attribute("aria-live") is None  # the output itself is not read out

    # The toggle names its action (issue 38), its visible text; its state is aria-pressed, and a ✓ on screen.
    toggle = panel(page, 0).locator(".mg-break")
    expect(toggle).to_have_text("Break it")
    expect(toggle).to_have_accessible_name("Break it")
    expect(toggle).to_have_attribute("aria-pressed", "false")
    toggle.click()
    expect(toggle).to_have_accessible_name("Break it")  # the same name: the state is announced as "pressed"
    expect(toggle).to_have_attribute("aria-pressed", "true")
    assert toggle.evaluate("(b) => getComputedStyle(b, '::before').content").startswith('"✓ "')

    # Stop by keyboard: focus stays on Stop when the run ends.
    replace_code(page, 1, "while True:\n    pass\n")
    panel(page, 1).locator(".mg-run").click()
    expect(panel(page, 1)).to_have_attribute("data-state", "running")
    panel(page, 1).locator(".mg-stop").focus()
    page.keyboard.press("Enter")
    expect(panel(page, 1)).to_have_attribute("data-state", "stopped", timeout=2_000)
    expect(panel(page, 1).locator(".mg-stop")).to_be_focused()

    # The live output carries its own label and looks like the page's output blocks.
    live = panel(page, 0).locator(".mg-live")
    expect(live.locator(".mg-live-label")).to_have_text("Your run")
    expect(panel(page, 0).locator(".mg-output")).to_have_accessible_name("Your run")
    shown_bg = page.locator("div.output").first.evaluate("e => getComputedStyle(e).backgroundColor")
    assert live.evaluate("e => getComputedStyle(e).backgroundColor") == shown_bg
    assert not watch.errors, watch.errors


def test_spanish_labels_agree_with_the_prose(page, site_url, watch):
    """Item 12 (the toggle) and the Spanish side of items 7 and 9."""
    visit(page, site_url + "es/breaks/overwrite-grad/")
    expect(page.locator(".md-content")).to_contain_text("interruptor sano/roto")  # how the prose names it
    toggle = panel(page, 0).locator(".mg-break")
    expect(toggle).to_have_text("Romperlo")
    expect(toggle).to_have_accessible_name("Romperlo")
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "true")
    text = run(page, 0)
    expect(status(page, 0)).to_have_text(f"Listo: {text.count(chr(10))} líneas de salida")
    expect(panel(page, 0).locator(".mg-live-label")).to_have_text("Tu ejecución")
    replace_code(page, 1, "import sys\nsys.exit(2)\n")
    run(page, 1, timeout=20_000)
    expect(status(page, 1)).to_have_text("Terminó con código 2")
    replace_code(page, 2, "while True:\n    print('x' * 99)\n")
    panel(page, 2).locator(".mg-run").click()
    expect(panel(page, 2).locator(".mg-output")).to_contain_text("[salida truncada", timeout=30_000)
    expect(status(page, 2)).to_have_text(
        "Salida truncada a 100.000 caracteres; el programa sigue ejecutándose. Detener lo termina.")
    panel(page, 2).locator(".mg-stop").click()
    expect(panel(page, 2)).to_have_attribute("data-state", "stopped", timeout=3_000)
    assert not watch.errors, watch.errors


# Each line of a block's text on one line box (its pieces' tops within a few pixels), else its start.
WRAPPED_LINES = """(blocks) => blocks.flatMap((block) => {
    const pieces = [];
    let offset = 0;
    const walker = document.createTreeWalker(block, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) { pieces.push([node, offset]); offset += node.length; }
    const at = (i) => { const [node, from] = pieces.findLast(([, from]) => from <= i); return [node, i - from]; };
    const wrapped = [];
    let start = 0;
    for (const line of block.textContent.split("\\n")) {
        if (line.trim()) {
            const range = document.createRange();
            range.setStart(...at(start));
            range.setEnd(...at(start + line.length));
            const tops = [...range.getClientRects()].filter((r) => r.width > 0).map((r) => r.top);
            if (Math.max(...tops) - Math.min(...tops) > 4) wrapped.push(line.trim().slice(0, 60));
        }
        start += line.length + 1;
    }
    return wrapped;
})"""


def test_code_and_outputs_never_wrap_on_a_phone_they_scroll(new_context, site_url):
    """Issue 24 item 3 (issue 13's item 9 had them wrap): at 390 px a wrapped line began at
    column 0 and read as code of its own, as a diff line without its +/- or a dedented line.
    Code, diffs, outputs (the doctor's report columns), the live output and the editor keep
    each line on one line and scroll sideways; a block that scrolls shows a shadow at its right
    edge (a phone's scrollbar shows only while scrolling), and its right padding lets every
    line's end scroll clear of the copy button, which hides what runs under it."""
    context = new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    page = context.new_page()
    for path in ("breaks/batchnorm-batch-stats-in-eval/", "breaks/matmul-without-transpose/", "es/doctor/"):
        page.goto(site_url + path)
        page.wait_for_selector(".md-code__nav", state="attached")
        blocks = page.locator(".md-typeset pre > code, pre.mg-output:not(.mg-repair *)")  # Repair it's report wraps (test_repair_page.py)
        assert set(blocks.evaluate_all("(els) => els.map((e) => getComputedStyle(e).whiteSpace)")) == {"pre"}, path
        assert not blocks.evaluate_all(WRAPPED_LINES), (path, blocks.evaluate_all(WRAPPED_LINES)[:5])
        problems = page.evaluate("""() => [...document.querySelectorAll('.md-typeset pre > code')]
            .filter((code) => code.scrollWidth > code.clientWidth + 1).flatMap((code) => {
                const style = getComputedStyle(code), nav = code.parentElement.querySelector('.md-code__nav');
                const out = [];
                if (!style.backgroundAttachment.includes('local')) out.push('no shadow at its right edge');
                const over = nav && getComputedStyle(nav).position !== 'static';  // Repair it's has a row of its own (runner.css)
                if (over && parseFloat(style.paddingRight) < nav.getBoundingClientRect().width) out.push('a line end stays under the copy button');
                if (nav && !/^rgb\\(/.test(getComputedStyle(nav).backgroundColor)) out.push('text shows through the copy button');
                return out.map((p) => `${p}: ${code.textContent.slice(0, 40)}`);
            })""")
        assert not problems, (path, problems[:5])
        scrolled = page.locator(".md-typeset pre > code").evaluate_all("(els) => els.filter((e) => e.scrollWidth > e.clientWidth + 1).length")
        assert scrolled, f"{path}: nothing wide enough to scroll at 390 px; pick a page that has"
    page.locator("div.language-python.highlight code").first.click()  # the editor, on the doctor's long engine
    editor = page.locator(".cm-content").first
    expect(editor).to_be_visible()
    assert editor.evaluate("(e) => getComputedStyle(e).whiteSpace") == "pre"
    assert not editor.evaluate(  # each line the editor has drawn, one line high
        "(e) => [...e.querySelectorAll('.cm-line')].filter((l) => l.offsetHeight > 1.5 * parseFloat(getComputedStyle(l).lineHeight)).length")
    context.close()


def test_a_run_left_behind_by_navigation_does_not_hold_the_next_page(page, site_url, watch):
    """Instant navigation during an endless loop: its Stop is gone with its page, so the
    runner ends it, and the new page's block runs (in a new worker: plain hosting)."""
    visit(page, site_url + "theory/01-derivatives/")
    run(page, 0)
    replace_code(page, 0, "print('spinning', flush=True)\nwhile True:\n    pass\n")
    panel(page, 0).locator(".mg-run").click()
    expect(panel(page, 0).locator(".mg-output")).to_contain_text("spinning", timeout=10_000)
    page.evaluate("window.__marker = 'same document'")
    follow(page, page.locator("nav a[href$='02-graphs/']").first, re.compile(r"02-graphs/$"))
    assert page.evaluate("window.__marker") == "same document"  # instant navigation
    assert run(page, 2).strip() == shown_output(page, 2).strip()
    assert not watch.errors, watch.errors


@pytest.mark.parametrize("lang, prefix", [("en", ""), ("es", "es/")])
def test_the_home_page_names_the_toggle_as_it_reads(page, site_url, lang, prefix):
    """Item 12, and issue 38: the instructions name the toggle by its text, the action it does
    ("Break it", not the state "Code: healthy"), in the sentence that says to press it."""
    visit(page, site_url + prefix + "breaks/overwrite-grad/")
    label = panel(page, 0).locator(".mg-break").inner_text()
    visit(page, site_url + prefix)
    expect(page.locator(".md-content strong", has_text=label)).to_have_count(2)  # press it; what it does
    first = page.locator(".md-content p", has=page.locator("strong", has_text=label)).first
    expect(first).to_contain_text(f"{'Press' if lang == 'en' else 'Pulsa'} ")
    toggle = page.locator(".mg-break").first  # the home page's diamond: the same words
    expect(toggle).to_have_text(label)
