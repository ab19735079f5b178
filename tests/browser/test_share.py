"""Copy link (runner/share.js) in a real browser: an edited block offers a link that
holds its code in the URL's fragment; opening that link, in a fresh tab, puts the code
back in the same block, marked, and Reset goes back; no request ever carries the code;
a link the page cannot read says so and loses nothing; both languages."""

import re

import pytest
from playwright.sync_api import expect
from running import serious_violations

pytestmark = pytest.mark.browser

PAGE = "breaks/skip-unbroadcast/"
EDIT = "# a reader's edit, ñ and → included\nprint(sum(range(4)))\n"


def block(page, index):
    return page.locator("div.language-python.highlight").nth(index)


def panel(page, index):
    return page.locator(".mg-runner").nth(index)


def copied_link(page, index, replace_code):
    replace_code(page, index, EDIT)
    share = panel(page, index).locator(".mg-share")
    expect(share).to_be_visible()
    share.click()
    expect(panel(page, index).locator(".mg-status")).to_have_text(re.compile("Link copied"))
    return page.evaluate("navigator.clipboard.readText()")


@pytest.fixture
def clipboard(context):
    context.grant_permissions(["clipboard-read", "clipboard-write"])


def test_a_link_carries_the_edit_to_a_fresh_tab_and_reset_goes_back(page, context, site_url, watch, clipboard, replace_code):
    page.goto(site_url + PAGE)
    expect(panel(page, 1).locator(".mg-share")).to_be_hidden()  # nothing edited, nothing to share
    link = copied_link(page, 1, replace_code)
    assert link.startswith(site_url + PAGE + "#mg-code=1."), link
    assert "print" not in link  # packed, not the code as text

    fresh = context.new_page()  # a new tab: its own sessionStorage, as for the person the link is sent to
    requests = []
    fresh.on("request", lambda r: requests.append(r.url))
    fresh.goto(link)
    code = block(fresh, 1).locator("code")
    expect(code).to_have_text(EDIT, use_inner_text=False)
    expect(block(fresh, 1).locator(".cm-content")).to_contain_text("a reader's edit, ñ and → included")
    expect(panel(fresh, 1)).to_have_attribute("data-edited", "")
    expect(panel(fresh, 1).locator(".mg-status")).to_have_text("Code from a link; Reset goes back to the page's code")
    expect(block(fresh, 0).locator(".cm-editor")).to_have_count(0)  # the other blocks are as the page has them
    assert "#" not in fresh.url  # the address bar is the page's own again; the visit keeps the edit
    assert not [u for u in requests if "mg-code" in u or "print" in u], requests
    assert not serious_violations(fresh)

    fresh.reload()  # the visit's copy (sessionStorage), like any edit
    expect(block(fresh, 1).locator("code")).to_have_text(EDIT, use_inner_text=False)
    expect(panel(fresh, 1).locator(".mg-share")).to_be_visible()

    panel(fresh, 1).locator(".mg-reset").click()
    expect(block(fresh, 1).locator("code")).not_to_have_text(EDIT, use_inner_text=False)
    expect(panel(fresh, 1).locator(".mg-share")).to_be_hidden()
    expect(panel(fresh, 1)).not_to_have_attribute("data-edited", "")
    assert not watch.errors, watch.errors


def test_a_link_finds_its_block_when_the_page_has_moved_it(page, context, site_url, clipboard, replace_code):
    page.goto(site_url + PAGE)
    link = copied_link(page, 2, replace_code)
    moved = link.replace("#mg-code=2.", "#mg-code=0.")  # as if a block had been added above it since
    fresh = context.new_page()
    fresh.goto(moved)
    expect(block(fresh, 2).locator("code")).to_have_text(EDIT, use_inner_text=False)
    expect(block(fresh, 0).locator(".cm-editor")).to_have_count(0)


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (lambda link: re.sub(r"(#mg-code=\d+\.)\w+", r"\1zzzz", link), "another version of this page"),
        (lambda link: link[:-12], "could not be read"),
        (lambda link: link.split("#")[0] + "#mg-code=1", "another version of this page"),
    ],
    ids=["unknown block", "cut short", "no code"],
)
def test_a_link_the_page_cannot_read_says_so_and_keeps_the_address(page, context, site_url, clipboard, replace_code, change, said):
    page.goto(site_url + PAGE)
    bad = change(copied_link(page, 1, replace_code))
    fresh = context.new_page()
    errors = []
    fresh.on("pageerror", lambda e: errors.append(str(e)))
    fresh.goto(bad)
    expect(fresh.locator(".mg-status").filter(has_text=said)).to_have_count(1)
    assert "#mg-code=" in fresh.url  # the link stays in the address bar: nothing the reader was sent is lost
    assert fresh.locator(".cm-editor").count() == 0
    assert not errors, errors


def test_where_the_clipboard_is_refused_the_link_waits_selected_in_a_field(page, site_url, replace_code):
    page.add_init_script("Object.defineProperty(navigator, 'clipboard', {value: {writeText: () => Promise.reject(new Error('denied'))}})")
    page.goto(site_url + PAGE)
    replace_code(page, 1, EDIT)
    panel(page, 1).locator(".mg-share").click()
    field = panel(page, 1).locator(".mg-share-field")
    expect(field).to_be_focused()
    assert field.input_value().startswith(site_url + PAGE + "#mg-code=1.")
    assert field.evaluate("(f) => f.selectionStart === 0 && f.selectionEnd === f.value.length")
    expect(panel(page, 1).locator(".mg-status")).to_have_text("Copy the link from the field below")
    panel(page, 1).locator(".mg-reset").click()
    expect(field).to_have_count(0)


def test_spanish_pages_say_it_in_spanish(page, context, site_url, clipboard, replace_code):
    page.goto(site_url + "es/" + PAGE)
    replace_code(page, 1, EDIT)
    share = panel(page, 1).locator(".mg-share")
    expect(share).to_have_text("Copiar enlace")
    share.click()
    expect(panel(page, 1).locator(".mg-status")).to_have_text(re.compile("Enlace copiado"))
    fresh = context.new_page()
    fresh.goto(page.evaluate("navigator.clipboard.readText()"))
    expect(panel(fresh, 1).locator(".mg-status")).to_have_text("Código de un enlace; Restablecer vuelve al código de la página")
