"""Editing a block as a reader does, through the CodeMirror editor (used by the browser tests)."""

from playwright.sync_api import expect


def replace_code(page, index, text):
    """Replace the index-th Python block's code as a reader would: click it
    (the code editor loads on that intent, once per block), select all, type the new text in
    one input (no auto-indent on the way), and wait until the runner sees it."""
    block = page.locator("div.language-python.highlight").nth(index)
    content = block.locator(".cm-content")
    if not content.count():  # the editor is not there yet: clicking the code loads it
        block.locator("code").click()
    content.wait_for()
    content.focus()
    page.keyboard.press("ControlOrMeta+a")
    page.keyboard.insert_text(text)
    expect(block.locator("code")).to_have_text(text.rstrip("\n") + "\n", use_inner_text=False)
