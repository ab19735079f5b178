"""Predict before you see, measured in a real browser: on a break page, what gives an answer
away (every output block with the break applied, the broken picture, the Expected failure mode
and Diagnosis sections) is not visible on screen until the reader has committed the page's
predictions, run the broken code, or pressed "Show me anyway"; then all of it is. The page
remembers it (the progress record notes an unfold before predicting), healthy outputs and the
diff stay open, a setting kept in this browser turns the fold off for the whole site and back
on, and the HTML holds everything without scripts and in print. Both languages, desktop and
phone, light and dark."""

import json

import pytest
from playwright.sync_api import expect
from navigation import follow
from running import block_panel, run_and_wait, serious_violations
from warm import visit

from minigrad import breaks

pytestmark = pytest.mark.browser


@pytest.fixture
def page(warm_page):
    """Python booted once for the module's tests (tests/browser/warm.py); a test whose claim needs a cold
    start, a first load or another server takes `cold_page`."""
    return warm_page


PHONE = {"width": 390, "height": 844}
SLUG = "tanh-grad-from-input"  # a number question and two choices, six broken outputs, a broken picture
# The sections that give the answer away: everything after their heading up to Lesson's.
SECTIONS = ("//h2[@id='expected-failure-mode']/following-sibling::*[not(self::h2)]"
            "[not(contains(@class, 'mg-fold-note'))][following-sibling::h2[@id='lesson']]")

# The healthy outputs of the Procedure (the sections below hold some too, folded with them).
HEALTHY = ("//div[contains(concat(' ', @class, ' '), ' output ')][not(contains(@class, 'broken'))][not(ancestor::details)]"
           "[following::h2[@id='expected-failure-mode']]")


def giveaways(page):
    """Every element that gives an answer away, as locators: broken outputs, broken pictures,
    the two sections' contents."""
    found = []
    for selector in ("div.output.broken", "figure.mg-picture.mg-broken", f"xpath={SECTIONS}"):
        group = page.locator(selector)
        found += [group.nth(i) for i in range(group.count())]
    return found


def visible(page):
    return [g.is_visible() for g in giveaways(page)]


def assert_folded(page):
    shown = visible(page)
    assert page.locator("div.output.broken").count() > 0 and shown and not any(shown), shown
    for healthy in (page.locator(f"xpath={HEALTHY}"), page.locator("div.language-diff:not(details *)")):
        assert healthy.count() and all(healthy.nth(i).is_visible() for i in range(healthy.count()))


def assert_unfolded(page):
    shown = visible(page)
    assert shown and all(shown), shown
    expect(page.locator(".mg-fold-note").first).to_be_hidden()


def commit_right_answers(page, leave=0):
    """Commit the right answer to each question of the page but the last `leave`, as the page grades it."""
    forms = page.locator("form[data-mg='prediction']")
    for i in range(forms.count() - leave):
        form = forms.nth(i)
        if form.get_attribute("data-state"):
            continue  # committed already
        if form.get_attribute("data-kind") == "choice":
            form.locator("input[name=answer]").nth(int(form.get_attribute("data-right"))).check()
        else:
            form.locator("input[name=answer]").fill(form.get_attribute("data-value"))
        form.locator("input[name=confidence]").first.check()
        form.locator("button[type=submit]").click()
        expect(form).to_have_attribute("data-state", "right")


def entry(page, slug=SLUG):
    record = json.loads(page.evaluate("localStorage.getItem('minigrad:progress')") or "null") or {"breaks": {}}
    return record["breaks"].get(slug, {})


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_answers_stay_folded_until_every_prediction_is_committed(new_context, site_url, scheme):
    context = new_context(color_scheme=scheme)
    page = context.new_page()
    page.goto(site_url + f"breaks/{SLUG}/")
    assert_folded(page)
    expect(page.locator(".mg-fold-note").first).to_be_visible()
    commit_right_answers(page, leave=1)
    assert_folded(page)  # one question left: still folded
    commit_right_answers(page)
    assert_unfolded(page)
    assert "unfolded" not in entry(page), entry(page)  # predicted first: nothing to note
    page.reload()  # remembered for this page
    assert_unfolded(page)
    page.evaluate("window.__sameDocument = true")
    follow(page, page.locator("nav a[href$='breaks/overwrite-grad/']").first, site_url + "breaks/overwrite-grad/")
    assert page.evaluate("window.__sameDocument === true")  # instant navigation: the same script, a new page
    assert_folded(page)  # another page waits for its own predictions
    page.mouse.move(0, 0)  # off the link just clicked: its hover colour is Material's, not this page's
    assert not serious_violations(page)
    context.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_show_me_anyway_in_spanish_on_a_phone(new_context, site_url, scheme):
    context = new_context(viewport=PHONE, has_touch=True, is_mobile=True, color_scheme=scheme)
    page = context.new_page()
    page.goto(site_url + f"es/breaks/{SLUG}/")
    assert_folded(page)
    note = page.locator(".mg-fold-note").first
    expect(note).to_contain_text("Salida con la rotura aplicada: plegada hasta que fijes las predicciones")
    assert page.evaluate("document.scrollingElement.scrollWidth <= window.innerWidth"), "a note overflows a phone's width"
    assert not serious_violations(page)
    note.get_by_role("button", name="Muéstramelo de todos modos").click()
    assert_unfolded(page)
    unfolded = entry(page)["unfolded"]
    assert unfolded["by"] == "asked" and unfolded["at"], unfolded
    page.reload()
    assert_unfolded(page)
    page.goto(site_url + "es/progress/")  # the progress page says the answers were seen first
    expect(page.locator(f"[data-mg='progress'] li[data-break='{SLUG}']")).to_contain_text("respuestas vistas antes de predecir")
    context.close()


def test_running_the_broken_code_unfolds_the_page(page, site_url, watch):
    visit(page, site_url + f"breaks/{SLUG}/")
    assert_folded(page)
    panel = block_panel(page, 0)
    run_and_wait(panel, ends="done")  # healthy: the answers stay folded
    assert_folded(page)
    panel.locator(".mg-break").click()
    run_and_wait(panel, ends="done")
    assert_unfolded(page)
    assert entry(page)["unfolded"]["by"] == "ran"
    assert not watch.errors, watch.errors


@pytest.mark.parametrize(("viewport", "scheme"), [(None, "dark"), (PHONE, "light")])
def test_the_site_setting_turns_the_fold_off_everywhere_and_back_on(new_context, site_url, viewport, scheme):
    context = new_context(viewport=viewport, color_scheme=scheme) if viewport else new_context(color_scheme=scheme)
    page = context.new_page()
    page.goto(site_url + f"breaks/{SLUG}/")
    setting = page.get_by_label("Fold the answers on break pages until I predict (every page, in this browser)")
    expect(setting).to_be_checked()
    setting.uncheck()
    assert_unfolded(page)
    answer = page.locator(".mg-predict details").first
    answer.locator("summary").click()  # reading straight through: an answer opens without a prediction
    expect(answer).to_have_attribute("open", "")
    assert entry(page) == {}, "turning the fold off is a setting, not an unfold of this page"
    page.goto(site_url + "es/breaks/overwrite-grad/")  # the whole site, in both languages
    assert_unfolded(page)
    setting = page.get_by_label("Plegar las respuestas de las páginas de roturas hasta que prediga (en todas las páginas, en este navegador)")
    expect(setting).not_to_be_checked()
    setting.check()
    assert_folded(page)
    page.goto(site_url + f"breaks/{SLUG}/")
    assert_folded(page)
    context.close()


def test_without_scripts_and_in_print_the_page_holds_everything(new_context, page, site_url):
    context = new_context(java_script_enabled=False)
    bare = context.new_page()
    bare.goto(site_url + f"breaks/{SLUG}/")
    assert_unfolded(bare)
    context.close()
    visit(page, site_url + f"breaks/{SLUG}/")
    assert_folded(page)
    page.emulate_media(media="print")
    shown = visible(page)
    assert all(shown), shown
    expect(page.locator(".mg-fold-note").first).to_be_hidden()
    expect(page.locator(".mg-fold-setting")).to_be_hidden()


@pytest.mark.parametrize("prefix", ["", "es/"])
def test_every_break_page_folds_its_answers(page, site_url, prefix):
    """Before any prediction, no break page shows an answer on screen, in either language (read
    in one evaluation per page, by the browser's checkVisibility, as is_visible reads it). The
    pages are reached as a reader following links reaches them, by instant navigation (a first
    load folds them too: the tests above load the page)."""
    script = """([sections]) => {
      const found = [...document.querySelectorAll("div.output.broken, figure.mg-picture.mg-broken")];
      const r = document.evaluate(sections, document, null, XPathResult.ORDERED_NODE_SNAPSHOT_TYPE, null);
      for (let i = 0; i < r.snapshotLength; i++) found.push(r.snapshotItem(i));
      return found.map((e) => e.checkVisibility());
    }"""
    for b in breaks.catalogue():
        visit(page, site_url + f"{prefix}breaks/{b.slug}/")
        expect(page.locator(".mg-fold-note").first).to_be_visible()
        shown = page.evaluate(script, [SECTIONS])
        assert shown and not any(shown), (prefix, b.slug, shown)
