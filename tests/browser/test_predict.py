"""Predict first, in a real browser: a question's answer stays folded until the reader commits
an answer (a choice, or a number) and a confidence, with the keyboard alone; then it unfolds,
the page grades the prediction against what the Markdown marks right and says plainly when a
confident prediction was wrong. The prediction is stored in this browser (localStorage),
survives a reload, is listed under a broken run, and no request carries it. Desktop and phone,
light and dark, both languages. The right answers are read from the pages' Markdown, as the
build reads them (minigrad.runner.predictions)."""

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect
from running import block_panel, run_and_wait, serious_violations
from warm import visit

from minigrad.runner.predictions import parse, section

pytestmark = pytest.mark.browser


@pytest.fixture
def page(warm_page):
    """Python booted once for the module's tests (tests/browser/warm.py)."""
    return warm_page


DOCS = Path(__file__).resolve().parents[2] / "docs"
PHONE = {"width": 390, "height": 844}
CONFIDENCE = {"sure": 0, "unsure": 1, "guessing": 2}  # the order of the radios


def questions(slug, lang="en"):
    text = (DOCS / "breaks" / f"{slug}{'.es' if lang == 'es' else ''}.md").read_text(encoding="utf-8")
    start, end = section(text)
    return parse(text[start:end].split("\n"))[0]


def plain(markdown):
    """A choice as the page shows it: its Markdown without backticks or emphasis."""
    return re.sub(r"[`*]", "", markdown).strip()


def question(page, n):
    return page.locator(f"form[data-mg='prediction'][data-question='{n}']")


def answer_of(page, n):
    return page.locator(".mg-predict").nth(n - 1).locator("details")


def stored(page):
    return json.loads(page.evaluate("localStorage.getItem('minigrad:progress')") or "null")


def commit_with_the_keyboard(page, form, choice, confidence):
    """Arrow keys within each radio group, Tab between them, Enter on the commit button."""
    form.locator("input[name=answer]").first.focus()
    page.keyboard.press("Space")  # the first choice
    for _ in range(choice):
        page.keyboard.press("ArrowDown")
    page.keyboard.press("Tab")  # into the confidence group: its first radio
    page.keyboard.press("Space")
    for _ in range(CONFIDENCE[confidence]):
        page.keyboard.press("ArrowRight")
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")


def test_a_confident_wrong_choice_is_graded_stored_and_listed_beside_the_broken_run(page, site_url, watch):
    slug = "mean-forgets-n"
    first = questions(slug)[0]
    assert first.kind == "choice", "this test predicts on a choice question"
    wrong = next(i for i, (right, _) in enumerate(first.choices) if not right)
    visit(page, site_url + f"breaks/{slug}/")
    form, details = question(page, 1), answer_of(page, 1)
    expect(form.locator("input[name=answer]")).to_have_count(len(first.choices))
    expect(form.locator(".mg-choices label")).to_have_text([plain(text) for _, text in first.choices])
    details.locator("summary").click()  # opening it first is refused, and says why
    expect(details).not_to_have_attribute("open", "")
    expect(form.locator(".mg-prediction-status")).to_have_text("First give your answer and choose how sure you are: then the answer unfolds.")
    expect(form.locator("input[name=answer]").first).to_be_focused()
    details.locator("summary").focus()
    page.keyboard.press("Enter")  # nor with the keyboard
    expect(details).not_to_have_attribute("open", "")

    form.locator("button[type=submit]").click()  # nothing chosen: refused
    expect(form.locator(".mg-prediction-status")).to_have_text("Choose an answer first.")
    form.locator("input[name=answer]").nth(wrong).check()
    form.locator("button[type=submit]").click()
    expect(form.locator(".mg-prediction-status")).to_have_text("Choose how sure you are.")
    commit_with_the_keyboard(page, form, wrong, "sure")
    expect(details).to_have_attribute("open", "")
    expect(form).to_have_attribute("data-state", "wrong")
    said = form.locator(".mg-predicted p").first
    expect(said).to_have_text(f"You predicted “{plain(first.choices[wrong][1])}” (sure): wrong.")
    expect(form.locator(".mg-predicted")).to_be_focused()  # read whole: the verdict and what it means
    expect(form.locator(".mg-predicted-feedback")).to_have_text(
        "You were sure, and it was wrong: that is the surprise worth keeping. Expected failure mode, below, says why.")
    expect(form.locator(".mg-choices label").nth(first.right)).to_have_text(f"{plain(first.choices[first.right][1])} (the right answer)")
    expect(form.locator(".mg-right-choice")).to_have_count(1)
    entry = stored(page)["breaks"][slug]["predictions"]["1"]
    assert (entry["choice"], entry["confidence"], entry["verdict"]) == (wrong, "sure", "wrong")

    page.reload()  # kept: the same state, the answer open, the choices locked
    expect(question(page, 1)).to_have_attribute("data-state", "wrong")
    expect(question(page, 1).locator("input[name=answer]").nth(wrong)).to_be_checked()
    expect(question(page, 1).locator("input[name=answer]:disabled")).to_have_count(len(first.choices) - 1)
    expect(answer_of(page, 1)).to_have_attribute("open", "")
    expect(answer_of(page, 2)).not_to_have_attribute("open", "")  # the others still wait

    panel = block_panel(page, 0)  # a broken run lists the predictions beside what happened
    panel.locator(".mg-break").click()
    run_and_wait(panel, ends="done")
    expect(panel.locator(".mg-predictions-beside")).to_contain_text(f"1. “{plain(first.choices[wrong][1])}” (sure; wrong)")
    assert not watch.outside() and not [u for u in watch.requests if "predict" in u.lower() and "mean" in u], watch.requests
    assert not watch.errors, watch.errors
    assert not serious_violations(page)


def value_question():
    """A break page's question graded as a number, if any page asks one: (slug, question)."""
    for path in sorted((DOCS / "breaks").glob("*.md")):
        if path.name.endswith(".es.md"):
            continue
        found = [q for q in questions(path.stem) if q.kind == "value"]
        if found:
            return path.stem, found[0]
    return None


@pytest.mark.skipif(value_question() is None, reason="no break page asks for a number today: every question is a choice")
def test_a_number_is_graded_within_the_tolerance_and_a_non_number_refused_on_a_spanish_page(page, site_url):
    slug, asked = value_question()
    visit(page, site_url + f"es/breaks/{slug}/")
    form = question(page, int(asked.number))
    field = form.locator("input[name=answer]")
    field.fill("alrededor de diez")
    form.get_by_label("Nada: adivino").check()
    form.locator("button[type=submit]").click()
    expect(form.locator(".mg-prediction-status")).to_have_text("Escribe un número (como 2, -0.5 o 1e-3).")
    near = float(asked.value) * 1.004  # within 1 %, written with a decimal comma as Spanish does
    field.fill(f"{near:.6g}".replace(".", ","))
    form.locator("button[type=submit]").click()
    expect(form).to_have_attribute("data-state", "right")
    expect(form.locator(".mg-predicted-feedback")).to_have_text("Acertaste, aunque adivinabas: los bloques de abajo muestran por qué es así.")
    expect(field).to_have_attribute("readonly", "")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_spanish_on_a_phone(new_context, site_url, scheme):
    slug = "relu-gated-on-upstream"
    second = questions(slug, "es")[1]
    assert second.kind == "choice"
    context = new_context(viewport=PHONE, has_touch=True, is_mobile=True, color_scheme=scheme)
    page = context.new_page()
    page.goto(site_url + f"es/breaks/{slug}/")
    form = question(page, 2)
    form.locator("input[name=answer]").nth(second.right).check()
    form.get_by_label("Poco").check()
    form.get_by_role("button", name="Fijar mi predicción y ver la respuesta").click()
    expect(answer_of(page, 2)).to_have_attribute("open", "")
    expect(form.locator(".mg-predicted p").first).to_have_text(f"Predijiste «{plain(second.choices[second.right][1])}» (poca confianza): acertaste.")
    expect(form.locator(".mg-choices label").nth(second.right)).to_contain_text("(la respuesta correcta)")
    expect(form.locator(".mg-predicted-feedback")).to_have_text("Acertaste: los bloques de abajo lo muestran.")
    assert page.evaluate("document.scrollingElement.scrollWidth <= window.innerWidth"), "the form overflows a phone's width"
    assert not serious_violations(page)
    context.close()
