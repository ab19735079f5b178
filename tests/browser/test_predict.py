"""Predict first, in a real browser: a question's answer stays folded until the reader commits
an answer and a confidence (with the keyboard alone); then it unfolds beside the prediction, the
reader says whether they were right, and a confident miss is named. The prediction is stored in
this browser (localStorage), survives a reload, is listed under a broken run, and no request
carries it. Desktop and phone, light and dark, both languages."""

import json

import pytest
from playwright.sync_api import expect
from running import block_panel, run_and_wait, serious_violations

pytestmark = pytest.mark.browser

PAGE = "breaks/mean-forgets-n/"
ANSWER = "gradient 4× too big — ñ"
PHONE = {"width": 390, "height": 844}


def question(page, n):
    return page.locator(f"form[data-mg='prediction'][data-question='{n}']")


def answer_of(page, n):
    return page.locator(".mg-predict").nth(n - 1).locator("details")


def commit_with_the_keyboard(page, form, text, confidence_index):
    form.locator("input[name=answer]").focus()
    page.keyboard.insert_text(text)
    page.keyboard.press("Tab")  # into the confidence group: the first radio
    for _ in range(confidence_index):
        page.keyboard.press("ArrowRight")
    page.keyboard.press("Space")
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")  # the commit button


def stored(page):
    return json.loads(page.evaluate("localStorage.getItem('minigrad:progress')") or "null")


def test_the_answer_waits_for_a_committed_prediction_then_unfolds_beside_it(page, site_url, watch):
    page.goto(site_url + PAGE)
    form, details = question(page, 1), answer_of(page, 1)
    expect(form).to_be_visible()
    details.locator("summary").click()  # opening it first is refused, and says why
    expect(details).not_to_have_attribute("open", "")
    expect(form.locator(".mg-prediction-status")).to_have_text("First write your answer and choose how sure you are: then the answer unfolds.")
    expect(form.locator("input[name=answer]")).to_be_focused()
    details.locator("summary").focus()
    page.keyboard.press("Enter")  # nor with the keyboard
    expect(details).not_to_have_attribute("open", "")

    form.locator("button[type=submit]").click()  # nothing written: refused
    expect(form.locator(".mg-prediction-status")).to_have_text("Write your answer first.")
    commit_with_the_keyboard(page, form, ANSWER, 0)  # "Sure"
    expect(details).to_have_attribute("open", "")
    expect(form).to_have_attribute("data-state", "committed")
    expect(form.locator(".mg-predicted")).to_contain_text(f"You predicted “{ANSWER}” (sure). Were you right?")
    expect(form.locator(".mg-predicted button").first).to_be_focused()
    form.get_by_role("button", name="Wrong").click()
    expect(form.locator(".mg-predicted-feedback")).to_have_text(
        "You were sure, and it was wrong: that is the surprise worth keeping. Expected failure mode, below, says why.")
    entry = stored(page)["breaks"]["mean-forgets-n"]["predictions"]["1"]
    assert (entry["answer"], entry["confidence"], entry["verdict"]) == (ANSWER, "sure", "wrong")

    page.reload()  # kept: the same state, the answer open
    expect(question(page, 1)).to_have_attribute("data-state", "wrong")
    expect(question(page, 1).locator("input[name=answer]")).to_have_value(ANSWER)
    expect(answer_of(page, 1)).to_have_attribute("open", "")
    expect(question(page, 1).get_by_role("button", name="Wrong")).to_have_attribute("aria-pressed", "true")
    expect(answer_of(page, 2)).not_to_have_attribute("open", "")  # the others still wait

    panel = block_panel(page, 0)  # a broken run lists the predictions beside what happened
    panel.locator(".mg-break").click()
    run_and_wait(panel, ends="done")
    expect(panel.locator(".mg-predictions-beside")).to_contain_text(f"1. “{ANSWER}” (sure; Wrong)")
    assert not watch.outside() and not [u for u in watch.requests if "gradient" in u], watch.requests
    assert not watch.errors, watch.errors
    assert not serious_violations(page)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_spanish_on_a_phone(new_context, site_url, scheme):
    context = new_context(viewport=PHONE, has_touch=True, is_mobile=True, color_scheme=scheme)
    page = context.new_page()
    page.goto(site_url + "es/breaks/relu-gated-on-upstream/")
    form = question(page, 2)
    form.locator("input[name=answer]").fill("solo la que baja")
    form.get_by_label("Poco").check()
    form.get_by_role("button", name="Fijar mi predicción y ver la respuesta").click()
    expect(answer_of(page, 2)).to_have_attribute("open", "")
    expect(form.locator(".mg-predicted")).to_contain_text("Predijiste «solo la que baja» (poca confianza). ¿Acertaste?")
    form.get_by_role("button", name="Sí").click()
    expect(form.locator(".mg-predicted-feedback")).to_have_text("Acertaste: los bloques de abajo lo muestran.")
    assert page.evaluate("document.scrollingElement.scrollWidth <= window.innerWidth"), "the form overflows a phone's width"
    assert not serious_violations(page)
    context.close()
