"""Pictures in a real browser: static pictures on the pages that promise them,
live pictures from a Run (healthy, then broken) that agree with the printed
output, a hostile label that stays text, the renderer loaded only when a run
draws, and screenshots in both palettes at phone width."""

import re
from pathlib import Path

import pytest
from editing import replace_code
from playwright.sync_api import expect
from running import run_and_wait
from warm import visit

from minigrad import breaks

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "benchmarks/out/screenshots"  # looked at by hand; ignored by git
pytestmark = pytest.mark.browser


@pytest.fixture
def page(warm_page):
    """Python booted once for the module's tests (tests/browser/warm.py)."""
    return warm_page

PHASE_7 = [b.slug for b in breaks.catalogue() if b.phase == 7]
TRAINING = ["zero-grad-does-nothing", "sgd-sign-flipped", "zero-initialisation", "mean-forgets-n", "batchnorm-batch-stats-in-eval",
            # issue 11 breaks whose curve shows the failure (per step, or per eval pass for dropout)
            "bce-log-of-sigmoid", "clip-grad-norm-per-tensor", "adamw-decay-in-the-gradient", "dropout-on-in-eval"]
# issue 11 breaks whose picture is a graph, or a curve over something other than steps
OTHER_PICTURES = ["sgd-rebinds-the-parameter", "layernorm-stats-detached", "mse-loss-broadcasts", "softmax-over-the-batch"]
# phase-7 breaks whose broken run raises before it has a graph to draw: the healthy graph only
NO_BROKEN_GRAPH = {
    "no-reflected-add",  # sum() raises TypeError at its first 0 + Value
    "tanh-from-exp",  # tanh raises OverflowError in the forward pass
}


def live_picture(panel):
    """(alt, SVG text) of the picture the run drew under its block."""
    img = panel.locator(".mg-live-pictures img")
    expect(img).to_have_count(1, timeout=30_000)
    expect(img).to_have_js_property("complete", True)
    svg = img.evaluate("(img) => fetch(img.src).then((r) => r.text())")
    return img.get_attribute("alt"), svg


def static_images(page):
    if page.locator(".mg-folded").count():  # a break page folds its broken picture until the reader asks (test_fold.py)
        page.locator(".mg-fold-show").first.click()
    images = page.locator(".mg-pictures:not(.mg-live-pictures) img")
    for i in range(images.count()):
        images.nth(i).scroll_into_view_if_needed()  # loading="lazy"
        expect(images.nth(i)).to_have_js_property("complete", True)
        assert images.nth(i).evaluate("(img) => img.naturalWidth") > 0, f"picture {i} did not load"
    return images


def marked(svg):
    """The Graphviz node ids (n0, n3, ...) a broken picture draws as changed by the break."""
    return sorted(re.findall(r'<title>(n\d+)</title>\s*<path[^>]*stroke="#e65100"', svg))


def test_home_page_diamond_runs_broken_then_healthy_then_broken_and_draws_both(page, site_url, watch):
    """What the break changed is marked on the first run already, broken before any healthy one,
    as on the static picture and on a broken run after a healthy one (issue 24 item 2)."""
    visit(page, site_url)
    page.wait_for_load_state("networkidle")
    assert not [u for u in watch.requests if "viz.js" in u or "picture.js" in u], "the renderer loads before a run draws"
    shown = page.locator(".mg-pictures:not(.mg-live-pictures) img")
    assert "a: data 2, grad 4" in shown.nth(0).get_attribute("alt") and "a: data 2, grad -6" in shown.nth(1).get_attribute("alt")
    static_broken = shown.nth(1).evaluate("(img) => fetch(img.src).then((r) => r.text())")
    assert marked(static_broken) == ["n0", "n3"]  # a and c
    panel = page.locator(".mg-runner").first

    panel.locator(".mg-break").click()  # the block's own break: the home page has none of its own
    broken_out = run_and_wait(panel)
    first_alt, first_svg = live_picture(panel)
    assert "a.grad = -6.0, b.grad = -4.0, c.grad = -2.0" in broken_out
    assert "a: data 2, grad -6;" in first_alt and "c: data 4, grad -2;" in first_alt
    assert ">grad &#45;6</text>" in first_svg
    assert marked(first_svg) == marked(static_broken), "a broken run before any healthy one marks what the break changed"
    expect(panel.locator(".mg-live-pictures figcaption")).to_have_text("broken (overwrite-grad)")

    panel.locator(".mg-break").click()
    healthy_out = run_and_wait(panel, timeout=30_000)
    expect(panel.locator(".mg-live-pictures figcaption")).to_have_text("healthy")  # the new picture, not the last
    healthy_alt, healthy_svg = live_picture(panel)
    assert "a.grad = 4.0, b.grad = -4.0, c.grad = -12.0" in healthy_out
    assert "a: data 2, grad 4;" in healthy_alt and "c: data 4, grad -12;" in healthy_alt
    assert ">grad 4</text>" in healthy_svg and ">grad &#45;12</text>" in healthy_svg  # Graphviz writes - as &#45;
    assert "#e65100" not in healthy_svg

    panel.locator(".mg-break").click()
    run_and_wait(panel, timeout=30_000)
    expect(panel.locator(".mg-live-pictures figcaption")).to_have_text("broken (overwrite-grad)")
    _, again_svg = live_picture(panel)
    assert again_svg == first_svg  # the same marks, whatever ran before
    assert any(u.endswith("_minigrad/viz/viz.js") for u in watch.requests)
    # Graphviz lays the graph out in picture-worker.js, never on the page's main thread: the
    # page's own resource timing (its fetches, not its workers') has no viz.js.
    assert any(u.endswith("assets/minigrad/picture-worker.js") for u in watch.requests)
    fetched_by_page = page.evaluate("performance.getEntriesByType('resource').map((e) => e.name)")
    assert any(u.endswith("picture.js") for u in fetched_by_page), fetched_by_page
    assert not [u for u in fetched_by_page if u.endswith("viz.js")], fetched_by_page
    assert not watch.outside(), watch.outside()
    assert not watch.errors, watch.errors


def test_a_hostile_label_is_shown_as_text_and_runs_nothing(page, site_url, watch):
    dialogs = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    visit(page, site_url + "theory/02-graphs/")
    hostile = "<img src=x onerror=alert(1)>"
    replace_code(page, 0, f"from minigrad.scalar import Value; from minigrad.viz import draw; v = Value(1.0, label='{hostile}'); draw(v * 2); print('drawn')")
    panel = page.locator(".mg-runner").first
    assert "drawn" in run_and_wait(panel)
    alt, svg = live_picture(panel)
    assert alt.startswith(hostile + ": data 1, grad 0")  # the characters, as text
    assert "&lt;img src=x onerror=alert(1)&gt;" in svg and "<img" not in svg
    page.wait_for_timeout(500)  # time for an injected handler to fire, if there were one
    assert not dialogs, dialogs
    assert page.evaluate("document.querySelectorAll('img[onerror], img[src=\"x\"]').length") == 0
    assert not [u for u in watch.requests if u.rstrip("/").endswith("/x")], "the label's <img src=x> was requested"
    assert not watch.errors, watch.errors


@pytest.mark.parametrize("lang", ["", "es/"])
def test_static_pictures_on_theory_and_every_phase_7_page(page, site_url, watch, lang):
    for path in ["theory/02-graphs/", "theory/03-worked-backprop/"] + [f"breaks/{slug}/" for slug in PHASE_7]:
        visit(page, site_url + lang + path)
        images = static_images(page)
        assert images.count() >= 1, f"{lang}{path}: no picture"
        assert all(images.nth(i).get_attribute("alt") for i in range(images.count())), f"{lang}{path}: a picture without alt text"
        if path.startswith("breaks/") and path.split("/")[1] not in NO_BROKEN_GRAPH:
            expect(page.locator(".mg-pictures .mg-broken").first).to_be_attached()  # healthy beside broken
    for slug in OTHER_PICTURES:  # a curve with both runs on one plot, or one graph both runs draw alike
        visit(page, site_url + lang + f"breaks/{slug}/")
        images = static_images(page)
        assert images.count() >= 1 and all(images.nth(i).get_attribute("alt") for i in range(images.count())), slug
    visit(page, site_url + lang + "breaks/skip-unbroadcast/")
    assert "a: shape (3,), grad (3,)" in static_images(page).first.get_attribute("alt")
    for slug in TRAINING:
        visit(page, site_url + lang + f"breaks/{slug}/")
        curve = page.locator(".mg-curve img")
        expect(curve).to_have_count(1)
        assert re.search(r"(healthy|sano): .*; (broken|roto) \(", curve.get_attribute("alt")), slug
    assert not watch.outside(), watch.outside()
    assert not watch.errors, watch.errors


def test_a_training_block_draws_its_curve_live_beside_the_other_run(page, site_url, watch):
    visit(page, site_url + "breaks/zero-grad-does-nothing/")
    panel = page.locator(".mg-runner").nth(1)  # the (w - 3)**2 block
    run_and_wait(panel)
    alt, svg = live_picture(panel)
    assert alt.startswith("loss per step. healthy: from 5.76") and 'role="img"' in svg
    panel.locator(".mg-break").click()
    run_and_wait(panel, timeout=30_000)
    alt, svg = live_picture(panel)
    assert "healthy: from 5.76" in alt and "broken (zero-grad-does-nothing): from 5.76" in alt  # both runs, one plot
    assert "(log scale)" in svg  # as the static curve: the same minigrad.viz.curve_svg
    static, live = page.locator(".mg-pictures:not(.mg-live-pictures) .mg-curve img"), panel.locator(".mg-live-pictures .mg-curve img")
    assert live.bounding_box()["width"] == static.bounding_box()["width"]  # the column's width, live too
    assert not watch.errors, watch.errors


def test_a_curve_fills_its_column_with_round_ticks_and_a_log_axis_over_orders_of_magnitude(cold_page, new_context, site_url, watch):
    """Issue 24 item 4: zero-grad-does-nothing's loss, from 5.76 to 2e-11, was a 290 px plot in a
    688 px column labelled 9.378 and 2.114e-11. Now it is as wide as the column at any width, its
    text unscaled (the picture is as high as drawn), on a log axis that says so, with powers of ten;
    a curve over less than two orders of magnitude keeps a linear axis at round values.
    A page of its own: it loads pages in full and runs nothing, so the warm page keeps its Python."""
    page = cold_page
    page.set_viewport_size({"width": 1280, "height": 900})
    phone = new_context(viewport={"width": 390, "height": 844}, color_scheme="dark").new_page()  # Material keeps a visit's palette
    for tab, width, dark in [(page, 1280, False), (phone, 390, True)]:
        tab.goto(site_url + "breaks/zero-grad-does-nothing/")
        curve = tab.locator(".mg-curve img")
        curve.scroll_into_view_if_needed()
        expect(curve).to_have_js_property("complete", True)
        column = tab.locator(".md-content .md-typeset").evaluate("(e) => e.clientWidth")
        box = curve.bounding_box()
        assert column - 1 <= box["width"] <= column + 1 and box["x"] + box["width"] <= width, (width, box, column)
        assert box["height"] == 250, box  # drawn at its own height: the text is not scaled down on a phone
        labels = re.findall(r">([^<]*)</text>", curve.evaluate("(img) => fetch(img.src).then((r) => r.text())"))
        assert "loss per step (log scale)" in labels and "10⁻¹¹" in labels and "10¹" in labels, labels
        assert not [t for t in labels if re.search(r"\de[-+]", t)], labels  # no 2.114e-11
        assert ("invert(1)" in curve.evaluate("(img) => getComputedStyle(img).filter")) == dark  # light on slate
    visit(page, site_url + "breaks/sgd-sign-flipped/")  # 0.009 to 0.5
    labels = re.findall(r">([^<]*)</text>", page.locator(".mg-curve img").evaluate("(img) => fetch(img.src).then((r) => r.text())"))
    assert "loss per step" in labels and {"0", "0.1", "0.2", "0.3", "0.4", "0.5"} <= set(labels), labels
    assert not watch.errors, watch.errors


def test_a_live_broken_graph_whose_edges_changed_marks_no_node(page, site_url, watch):
    """layernorm-stats-detached drops the edges into the mean and variance: node ids no longer
    name the same node, so nothing is drawn as changed (as minigrad_site/pages/pictures.py does at build time)."""
    visit(page, site_url + "breaks/layernorm-stats-detached/")
    panel = page.locator(".mg-runner").first
    run_and_wait(panel)
    _, healthy_svg = live_picture(panel)
    panel.locator(".mg-break").click()
    run_and_wait(panel, timeout=60_000)
    _, broken_svg = live_picture(panel)
    assert broken_svg != healthy_svg and "grad None" in broken_svg
    assert "#e65100" not in broken_svg
    assert not watch.errors, watch.errors


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("path", ["theory/03-worked-backprop/", "breaks/overwrite-grad/", "es/breaks/overwrite-grad/"])
def test_pictures_fit_a_phone_in_both_palettes(new_context, site_url, scheme, path):
    context = new_context(viewport={"width": 390, "height": 844}, color_scheme=scheme)
    page = context.new_page()
    page.goto(site_url + path)
    images = static_images(page)
    width = page.evaluate("document.documentElement.clientWidth")
    for i in range(images.count()):
        box = images.nth(i).bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5, f"picture {i} is clipped at 390 px: {box}"
    inverted = images.first.evaluate("(img) => getComputedStyle(img).filter")
    assert ("invert(1)" in inverted) == (scheme == "dark"), inverted
    SHOTS.mkdir(parents=True, exist_ok=True)
    pictures = page.locator(".mg-pictures:not(.mg-live-pictures)").first
    pictures.scroll_into_view_if_needed()
    pictures.screenshot(path=str(SHOTS / f"{path.strip('/').replace('/', '-')}-{scheme}-390.png"))
    context.close()
