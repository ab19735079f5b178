"""A break page on a phone (390 px), as a reader meets it, in both languages and palettes: a
block's toolbar keeps its buttons on one row (the Spanish "Restablecer" wrapped alone onto a
second), a committed prediction's "(the right answer)" reads in its choice's text (it was a
narrow three-line column), and Repair it's copy button sits above the editor, not over its
first line (the header that says which function goes where)."""

import pytest
from playwright.sync_api import expect
from running import serious_violations

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
SLUG = "relu-gated-on-upstream"
ROW = """(toolbar) => [...toolbar.querySelectorAll('.md-button')].filter((b) => b.offsetParent)
    .map((b) => { const r = b.getBoundingClientRect(); return {text: b.textContent, name: b.getAttribute('aria-label'),
                  middle: r.top + r.height / 2, height: r.height, right: r.right}; })"""


@pytest.mark.parametrize(("prefix", "scheme"), [("es/", "light"), ("es/", "dark"), ("", "light")])
def test_a_break_page_on_a_phone(new_context, site_url, prefix, scheme):
    context = new_context(viewport=PHONE, has_touch=True, is_mobile=True, color_scheme=scheme)
    page = context.new_page()
    page.goto(site_url + f"{prefix}breaks/{SLUG}/")

    buttons = page.locator(".mg-toolbar").first.evaluate(ROW)
    assert len(buttons) == 4, buttons  # run, the break toggle, stop, reset
    assert max(b["middle"] for b in buttons) - min(b["middle"] for b in buttons) < buttons[0]["height"] / 2, buttons  # one row
    assert all(b["right"] <= PHONE["width"] for b in buttons), buttons
    reset = page.locator(".mg-toolbar .mg-reset").first
    expect(reset).to_have_accessible_name("Restablecer" if prefix else "Reset")  # ↺ on screen, its word to a screen reader

    form = page.locator("form[data-mg='prediction']").nth(1)
    form.locator("input[name=answer]").nth(int(form.get_attribute("data-right"))).check()
    form.locator("input[name=confidence]").first.check()
    form.locator("button[type=submit]").click()
    marker = form.locator(".mg-right-choice")
    expect(marker).to_have_text(" (la respuesta correcta)" if prefix else " (the right answer)")
    rows = marker.evaluate("""(m) => { const line = parseFloat(getComputedStyle(m).lineHeight);
        return [...m.getClientRects()].map((r) => Math.round(r.height / line)); }""")
    assert rows and all(r == 1 for r in rows) and len(rows) <= 2, rows  # inline text that wraps, not a column of its own

    pre = page.locator("[data-mg='repair'] div.language-python pre").first
    nav, code = pre.locator(".md-code__nav"), pre.locator("code")
    assert nav.bounding_box()["y"] + nav.bounding_box()["height"] <= code.bounding_box()["y"] + 1, (nav.bounding_box(), code.bounding_box())
    code.click()  # the editor takes the block's place
    first = pre.locator(".cm-line").first
    expect(first).to_be_visible()
    assert nav.bounding_box()["y"] + nav.bounding_box()["height"] <= first.bounding_box()["y"] + 1, (nav.bounding_box(), first.bounding_box())
    assert page.evaluate("document.scrollingElement.scrollWidth <= window.innerWidth"), "the page overflows a phone's width"
    assert not serious_violations(page)
    context.close()
