"""The doctor's page in a real browser: paste an engine with a planted bug (with or without
the calling lines), Run, see the verdict first (the break named, with its match and evidence,
the report folded under it) and follow its link to the break's page, in both languages, on a
phone and a desktop, light and dark; load a learner's package folder (picker or drop) and get
the same verdict, with nothing sent anywhere, the running case shown, a recursion reported and
Stop working."""

import re
from pathlib import Path

import pytest
from editing import replace_code
from playwright.sync_api import expect
from running import AXE, COLD, run_and_wait
from warm import visit
from test_doctor_folder import learner_package  # tests/ is on sys.path (conftest.py)
from test_doctor_hostile import HOSTILE, engine_file

ENGINES = Path(__file__).resolve().parents[1] / "doctor_engines"
pytestmark = pytest.mark.browser


@pytest.fixture
def page(warm_page):
    """Python booted once for the module's tests (tests/browser/warm.py)."""
    return warm_page


# A learner's engine the page has never seen: the power rule off by one; pasted bare, or with the calling lines.
BARE = (ENGINES / "pow_off_by_one.py").read_text()
PASTED = BARE + "\n\nfrom minigrad.doctor import check_engine\n\ncheck_engine(Value)\n"
TITLE = {"en": "pow's exponent off by one", "es": "El exponente de pow desplazado en uno"}
VERDICT = {"en": "Verdict: one break explains what the checks caught.",
           "es": "Veredicto: una rotura explica lo que detectaron las comprobaciones."}
MATCH = {"en": "(match 100%; explains 2 of the failed cases)", "es": "(coincidencia 100%; explica 2 de los casos fallidos)"}
EVIDENCE = {"en": "Finite differences: a ** 3 - b ** -2: gradcheck MISMATCH", "es": "Diferencias finitas: a ** 3 - b ** -2: gradcheck NO COINCIDE"}
DETAILS = {"en": "Details, check by check", "es": "Detalles, comprobación por comprobación"}
PHONE, DESKTOP = {"width": 390, "height": 844}, {"width": 1280, "height": 800}


def report_text(run):
    """The report's text, check by check, folded under the verdict (text_content: a closed details is not rendered)."""
    return run.locator(".mg-output").text_content()


def verdict_violations(page):
    """axe-core's serious and critical findings in the verdict and the details' summary (the "Your run"
    label above them is the runner's, below the contrast on slate at 4.12:1: reported apart)."""
    page.add_script_tag(path=str(AXE))
    result = page.evaluate("axe.run({include: [['.mg-verdict'], ['details.mg-report > summary']]}, {resultTypes: ['violations']})")
    return [f"{v['id']}: {[n['target'] for n in v['nodes']][:3]}" for v in result["violations"] if v["impact"] in ("serious", "critical")]


def assert_verdict_first(run, lang, title, match):
    """The verdict sentence and its diagnoses lead the output, above the report folded under them;
    each diagnosis links to its page with its match, and no link is listed twice."""
    verdict = run.locator(".mg-live > .mg-verdict")
    expect(verdict).to_have_count(1)
    assert run.locator(".mg-live > :not(.mg-live-label)").first.evaluate("(e) => e.classList.contains('mg-verdict')")
    expect(verdict.locator(".mg-verdict-sentence")).to_have_text(VERDICT[lang])
    first = verdict.locator(".mg-diagnoses > li").first
    expect(first.locator("a")).to_have_text(title)
    expect(first.locator(".mg-match")).to_contain_text(match)
    details = run.locator(".mg-live > details.mg-report")
    expect(details.locator("summary")).to_have_text(DETAILS[lang])
    assert details.get_attribute("open") is None  # folded
    expect(details.locator(".mg-output")).to_be_hidden()
    expect(verdict).to_be_visible()
    assert run.locator(".mg-links").count() == 0  # the verdict's links only: not the same links twice


def record_checking(page):
    """Every text the doctor's "check: case" line shows from now on (window.mgChecking), and every case
    the page was handed to show (window.mgPending, its data-pending): a MutationObserver in the page.
    The line is painted once a frame, so a short run on a busy machine may end before any frame paints
    one; what was handed to it is there however loaded the machine is."""
    page.evaluate("""() => { window.mgChecking = []; window.mgPending = [];
        new MutationObserver(() => { for (const e of document.querySelectorAll('.mg-checking')) {
                if (e.textContent) window.mgChecking.push(e.textContent);
                if (e.dataset.pending && window.mgPending.at(-1) !== e.dataset.pending) window.mgPending.push(e.dataset.pending); } })
            .observe(document.querySelector('.md-content'), {subtree: true, childList: true, characterData: true,
                                                            attributes: true, attributeFilter: ['data-pending']}); }""")


def assert_cases_shown(page, case):
    """A folder's run (seconds long): `case` reached the line, and frames painted cases from the run
    (once a frame: which ones depends on the machine's load)."""
    pending, painted = page.evaluate("[window.mgPending, window.mgChecking]")
    assert case in pending, pending
    assert painted and set(painted) <= set(pending), (painted, pending)


CASE = re.compile(r"(Shape invariant|Finite differences|Diamond test|PyTorch reference|Training smoke test"
                  r"|Repeatable gradients|Losses against PyTorch|Module contracts): ")


def test_the_example_engine_reports_what_the_page_shows_and_the_running_case(page, site_url, watch):
    visit(page, site_url + "doctor/")
    panel = page.locator(".mg-runner").nth(0)
    record_checking(page)
    run_and_wait(panel, ends="done")
    text = report_text(panel)
    shown = page.locator("div.language-python.highlight").nth(0).locator(
        "xpath=following-sibling::div[contains(@class,'output')][1]").inner_text()
    assert text.strip() == shown.strip()
    expect(panel.locator(".mg-verdict .mg-diagnoses a").first).to_have_text("tanh's local gradient from the input")
    pending, painted = page.evaluate("[window.mgPending, window.mgChecking]")
    assert pending and all(CASE.match(c) for c in pending), pending  # each case reached the page, well formed
    assert set(painted) <= set(pending), (painted, pending)  # and what was painted was one of them (none, if no frame came)
    expect(panel.locator(".mg-checking")).to_have_text("")  # gone once the run is over
    assert not watch.errors, watch.errors


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_class_pasted_without_calling_lines_gets_its_break_named_and_linked(page, site_url, watch, lang):
    """The box finds the pasted class itself (minigrad/doctor/pasted.py): no "Done: no output"."""
    prefix = "es/" if lang == "es" else ""
    visit(page, f"{site_url}{prefix}doctor/")
    panel = page.locator(".mg-runner").nth(0)
    replace_code(page, 0, BARE)
    run_and_wait(panel, ends="done")
    text = report_text(panel)
    assert text.startswith("Motor bajo prueba: Value = Value." if lang == "es" else "Engine under test: Value = Value."), text[:200]
    assert "docs/breaks/" not in text, text  # on the page, the verdict's links only (issue 24 item 6)
    assert_verdict_first(panel, lang, TITLE[lang], MATCH[lang])
    expect(panel.locator(".mg-verdict .mg-evidence").first).to_contain_text(EVIDENCE[lang])
    links = panel.locator(".mg-verdict .mg-diagnoses a")
    href = links.first.get_attribute("href")
    assert href == f"{site_url}{prefix}breaks/pow-exponent-off-by-one/"
    assert "<" not in links.first.inner_html()  # text, never markup
    links.first.click()
    expect(page).to_have_url(href)
    expect(page.locator("h1").first).to_contain_text(TITLE[lang][:10])
    assert not watch.outside(), watch.outside()
    assert not watch.errors, watch.errors


@pytest.mark.parametrize("lang, viewport, scheme", [
    ("en", PHONE, "light"), ("en", DESKTOP, "dark"), ("es", PHONE, "dark"), ("es", DESKTOP, "light"),
], ids=["en-phone-light", "en-desktop-dark", "es-phone-dark", "es-desktop-light"])  # every pair of the three
def test_the_verdict_is_read_first_without_scrolling(new_context, site_url, lang, viewport, scheme):
    """A reader presses Run with the button mid-screen: when the run ends, the verdict is right under
    the toolbar, whole in the viewport, in no box that scrolls on its own and no wider than the
    screen; the report is folded under it. Nothing leaves 127.0.0.1, axe finds nothing serious."""
    context = new_context(viewport=viewport, color_scheme=scheme)
    page = context.new_page()
    sent, errors = record_requests(page), []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))
    page.goto(f"{site_url}{'es/' if lang == 'es' else ''}doctor/")
    assert page.evaluate("document.body.dataset.mdColorScheme") == ("slate" if scheme == "dark" else "default")
    panel = page.locator(".mg-runner").nth(0)
    replace_code(page, 0, PASTED)
    run = panel.locator(".mg-run")
    run.evaluate("(b) => b.scrollIntoView({block: 'center'})")
    scrolled = page.evaluate("scrollY")
    run.click()
    expect(panel).to_have_attribute("data-state", "done", timeout=COLD)
    assert_verdict_first(panel, lang, TITLE[lang], MATCH[lang])
    assert page.evaluate("scrollY") == scrolled  # the reader has not scrolled
    seen = panel.locator(".mg-verdict").evaluate("""(v) => {
        const r = v.getBoundingClientRect(), bar = v.closest('.mg-runner').querySelector('.mg-toolbar').getBoundingClientRect();
        let scroller = null;
        for (let e = v.parentElement; e && e !== document.body; e = e.parentElement) {
            const y = getComputedStyle(e).overflowY;
            if ((y === 'auto' || y === 'scroll') && e.scrollHeight > e.clientHeight) scroller = e.className;
        }
        return {top: r.top, bottom: r.bottom, below: r.top - bar.bottom, height: innerHeight, scroller,
                wide: v.scrollWidth > v.clientWidth};
    }""")
    assert seen["below"] < 60 and seen["top"] > 0 and seen["bottom"] <= seen["height"], seen
    assert seen["scroller"] is None and not seen["wide"], seen
    assert page.evaluate("document.scrollingElement.scrollWidth <= window.innerWidth"), "the page overflows the screen's width"
    assert not verdict_violations(page)
    assert_nothing_left(sent)
    assert not errors, errors
    context.close()


def test_a_pasted_tensor_on_the_spanish_page_with_a_bug_no_break_explains_lists_what_is_unexplained(page, site_url, watch):
    """Spanish page: minigrad's Tensor pasted bare with max's gradient sent to every element (no break
    of the catalogue does that): found as a Tensor, caught, nothing linked, the unexplained cases listed."""
    source = (Path(__file__).resolve().parents[2] / "minigrad" / "tensor.py").read_text()
    max_line = "            a.grad += winners * g / winners.sum(axis=axes, keepdims=True)\n"
    assert source.count(max_line) == 1
    broken = source.replace(max_line, "            a.grad += g + 0 * winners\n").replace("from .graph import", "from minigrad.graph import")
    visit(page, site_url + "es/doctor/")
    panel = page.locator(".mg-runner").nth(0)
    replace_code(page, 0, broken)
    run_and_wait(panel, ends="done")
    assert report_text(panel).startswith("Motor bajo prueba: Tensor = Tensor.")
    verdict = panel.locator(".mg-live > .mg-verdict")
    expect(verdict.locator(".mg-verdict-sentence")).to_have_text("Algo se detecta, pero ninguna rotura del catálogo coincide.")
    expect(verdict.locator(".mg-unexplained-title")).to_have_text("Detectado, y sin ninguna rotura del catálogo que lo explique (2):")
    expect(verdict.locator(".mg-unexplained li").first).to_contain_text("max en el eje 1 (3, 4): gradcheck NO COINCIDE")
    assert verdict.locator("a").count() == 0 and panel.locator(".mg-links").count() == 0
    assert not watch.outside(), watch.outside()
    assert not watch.errors, watch.errors


# ---- Load a folder -----------------------------------------------------------------------

SAFE = ("http://127.0.0.1:", "data:", "blob:")


def record_requests(page):
    """Every request of the page and its workers (a listener, not a route: routes turn the cache off)."""
    sent = []
    page.on("request", lambda r: sent.append((r.method, r.url, r.post_data_buffer)))
    return sent


def assert_nothing_left(sent):
    assert sent, "no request recorded at all"
    left = [url for _, url, _ in sent if not url.startswith(SAFE)]
    uploads = [(method, url) for method, url, body in sent if method != "GET" or body]
    assert not left and not uploads, (left, uploads)


def drop_folder(page, folder):
    """Drop a real folder on the zone, as a reader's drag from the file manager does (Chromium's own
    drag data, through CDP: the page gets directory entries, which a scripted DataTransfer cannot make)."""
    zone = page.locator(".mg-folder-zone")
    zone.scroll_into_view_if_needed()
    box = zone.bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    cdp = page.context.new_cdp_session(page)
    data = {"items": [], "files": [str(folder)], "dragOperationsMask": 1}
    for kind in ("dragEnter", "dragOver", "drop"):
        cdp.send("Input.dispatchDragEvent", {"type": kind, "x": x, "y": y, "data": data})
    cdp.detach()


def folder_report(page, state="done", timeout=COLD):
    run = page.locator(".mg-folder-run")
    expect(run).to_have_attribute("data-state", state, timeout=timeout)
    return report_text(run)


def one_folder(root, name, change):
    """A learner's scalar engine alone, in `root/name/engine.py`, with `change` made to its backward."""
    folder = root / name
    folder.mkdir()
    engine_file(folder, change)
    return folder


def test_a_folder_chosen_then_one_dropped_are_checked_here_and_stop_ends_a_loop(page, site_url, watch, tmp_path):
    """English page, one Python: the picker with a planted break, then a folder dropped on the zone
    whose backward never ends: the case it hangs in is shown, Stop ends it; nothing is sent anywhere."""
    sent = record_requests(page)
    visit(page, site_url + "doctor/")
    page.wait_for_load_state("networkidle")
    assert not [url for _, url, _ in sent if "pyodide" in url or "bundle.json" in url]  # nothing before intent
    package = learner_package(tmp_path / "pick", "sgd-sign-flipped")
    (package / "optim.py").write_text((package / "optim.py").read_text() + '\nprint("my optimizers, loaded")\n')
    record_checking(page)
    page.locator(".mg-folder-input").set_input_files(package.parent)  # src/, the folder above the package
    text = folder_report(page)
    assert text.startswith(f"Engine under test: Value = /home/pyodide/learner/src/{package.name}/scalar.py:Value")
    assert "1. SGD's update sign flipped (match 100%" in text and "docs/breaks" not in text
    assert_verdict_first(page.locator(".mg-folder-run"), "en", "SGD's update sign flipped", "(match 100%; explains ")
    assert "my optimizers, loaded" not in text  # what the engine prints is folded apart from the report
    printed = page.locator(".mg-folder-run details.mg-engine-output")
    expect(printed.locator("summary")).to_have_text("What your engine printed while it was checked")
    assert printed.locator("pre").text_content().startswith("my optimizers, loaded")
    link = page.locator(".mg-folder-run .mg-verdict a").first
    expect(link).to_have_text("SGD's update sign flipped")
    assert link.get_attribute("href") == f"{site_url}breaks/sgd-sign-flipped/"
    assert_cases_shown(page, "Training smoke test: XOR")

    looping = one_folder(tmp_path, "looping", HOSTILE["raises NotImplementedError"][0].replace("raise NotImplementedError", "while True: pass"))
    drop_folder(page, looping)
    checking = page.locator(".mg-folder-run .mg-checking")
    expect(checking).to_have_text("Finite differences: diamond (a*b + c) * (a - c)", timeout=COLD)  # where it hangs
    page.locator(".mg-folder-run .mg-stop").click()
    folder_report(page, "stopped", timeout=10_000)
    expect(page.locator(".mg-folder-run .mg-status")).to_have_text("Stopped; Python restarts on the next run")
    expect(checking).to_have_text("")
    assert_nothing_left(sent)
    assert not watch.errors, watch.errors


def test_the_spanish_page_checks_a_folder_from_the_keyboard_and_reports_a_recursion(page, site_url, watch, tmp_path):
    """Spanish page, one Python: the zone is a labelled button that opens the picker from the
    keyboard; the report is Spanish; an engine that recurses without end is told to fix that first,
    and Python lives on (no restart)."""
    sent = record_requests(page)
    visit(page, site_url + "es/doctor/")
    zone = page.get_by_role("button", name="Elige la carpeta de tu paquete, o suéltala aquí")
    expect(zone).to_have_attribute("aria-describedby", "mg-folder-note")
    package = learner_package(tmp_path / "pick", "dropout-on-in-eval")
    record_checking(page)
    zone.focus()
    with page.expect_file_chooser() as chooser:
        zone.press("Enter", delay=50)  # a key held as a person holds it: released at once, Chromium opens no picker
    chooser.value.set_files(package)
    text = folder_report(page)
    assert text.startswith("Motor bajo prueba: Value = /home/pyodide/learner/minigrad/scalar.py:Value")
    assert "1. Dropout activo en modo eval (coincidencia 100%" in text, text
    assert_verdict_first(page.locator(".mg-folder-run"), "es", "Dropout activo en modo eval", "(coincidencia 100%; explica ")
    link = page.locator(".mg-folder-run .mg-verdict a").first
    assert link.get_attribute("href") == f"{site_url}es/breaks/dropout-on-in-eval/"
    assert_cases_shown(page, "Prueba de humo de entrenamiento: XOR")

    change, _ = HOSTILE["recurses in __neg__"]
    drop_folder(page, one_folder(tmp_path, "recursive", change))
    text = folder_report(page, timeout=30_000)
    assert "Tu motor lanzó RecursionError en todos los casos que se ejecutaron" in text and "arregla eso primero." in text
    verdict = page.locator(".mg-folder-run .mg-verdict")  # fix this first, with its trace; no diagnosis
    expect(verdict.locator(".mg-verdict-sentence")).to_contain_text("Tu motor lanzó RecursionError en todos los casos")
    expect(verdict.locator("pre.mg-fix-first")).to_contain_text("RecursionError")
    assert verdict.locator(".mg-diagnoses").count() == 0 and page.locator(".mg-folder-run .mg-links").count() == 0
    assert page.evaluate("window.__minigradRuntime.lastRestart") is None  # the same Python throughout
    assert_nothing_left(sent)
    assert not watch.errors, watch.errors
