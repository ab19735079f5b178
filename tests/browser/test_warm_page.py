"""The warm page the browser tests share (tests/browser/warm.py): what a test leaves behind is
forgotten, Python is kept, and a page left running is given up for a new one."""

import pytest
from playwright.sync_api import expect
from running import block_panel, run_and_wait
from warm import VIEWPORT, booted, visit

pytestmark = pytest.mark.browser


def test_the_next_test_gets_python_warm_and_nothing_else_of_the_last(warm_tab, site_url):
    page = warm_tab.prepare()
    visit(page, site_url + "theory/01-derivatives/")
    run_and_wait(block_panel(page, 0), ends="done")
    page.evaluate("localStorage.setItem('left', 'behind'); sessionStorage.setItem('left', 'behind')")
    page.set_viewport_size({"width": 390, "height": 844})
    page.emulate_media(media="print", color_scheme="dark")
    warm_tab.after()
    again = warm_tab.prepare()
    assert again is page and booted(again)  # the same page, Python up: the next run boots nothing
    assert again.evaluate("[localStorage.getItem('left'), sessionStorage.getItem('left')]") == [None, None]
    assert again.viewport_size == VIEWPORT
    assert again.evaluate("[matchMedia('print').matches, matchMedia('(prefers-color-scheme: dark)').matches]") == [False, False]
    visit(again, site_url + "theory/02-graphs/")  # on by instant navigation: the same document
    assert booted(again)
    warm_tab.after()


def test_a_page_left_with_a_run_going_is_replaced(warm_tab, site_url, replace_code):
    page = warm_tab.prepare()
    visit(page, site_url + "theory/01-derivatives/")
    replace_code(page, 0, "while True:\n    pass\n")
    panel = block_panel(page, 0)
    panel.locator(".mg-run").click()
    expect(panel).to_have_attribute("data-state", "running")
    warm_tab.after()
    assert page.is_closed() and warm_tab.page is not page
    fresh = warm_tab.prepare()
    visit(fresh, site_url + "theory/01-derivatives/")
    assert run_and_wait(block_panel(fresh, 0), ends="done")
    warm_tab.after()


def test_each_language_keeps_a_python_of_its_own_in_a_visible_page(warm_tabs, site_url):
    """A link into the other language is a full load: each language has its warm page, each in a
    context of its own, so neither is a tab left behind (hidden, its frames and timers throttled)."""
    en, es = warm_tabs["en"].prepare(), warm_tabs["es"].prepare()
    assert en.context is not es.context
    visit(en, site_url + "theory/01-derivatives/")
    run_and_wait(block_panel(en, 0), ends="done")
    visit(es, site_url + "es/theory/01-derivatives/")
    run_and_wait(block_panel(es, 0), ends="done")
    assert booted(en) and booted(es)
    assert en.evaluate("document.visibilityState") == es.evaluate("document.visibilityState") == "visible"
    warm_tabs["en"].after()
    warm_tabs["es"].after()


def test_a_spanish_test_takes_the_spanish_page(warm_page, warm_tabs):
    assert warm_page is warm_tabs["es"].page


def test_another_test_takes_the_english_page(warm_page, warm_tabs):
    assert warm_page is warm_tabs["en"].page
