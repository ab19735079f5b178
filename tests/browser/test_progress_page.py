"""Your progress, in a real browser: what a reader did on a break page shows on the progress
page (predictions and how they went, repairs, mysteries), the record is exported to a file,
reset only after a confirmation, imported back and merged with what is there, and a file that
is not a record changes nothing. The mystery page draws from the breaks left to review and
keeps a break found. Nothing leaves the browser. Both languages, desktop and phone, light and dark."""

import json

import pytest
from playwright.sync_api import expect
from running import serious_violations
from test_predict import questions

from minigrad import breaks

pytestmark = pytest.mark.browser

SLUGS = [b.slug for b in breaks.catalogue()]
KEY = "minigrad:progress"
PHONE = {"width": 390, "height": 844}


def stored(page):
    return json.loads(page.evaluate(f"localStorage.getItem('{KEY}')") or "null")


def store(page, record):
    page.evaluate("([key, value]) => localStorage.setItem(key, value)", [KEY, json.dumps(record)])


def predict(page, slug, n, confidence, verdict):
    """Commit the right choice of question n, or a wrong one, as `verdict` says."""
    asked = next(q for q in questions(slug) if q.number == str(n))
    choice = asked.right if verdict == "right" else next(i for i, (right, _) in enumerate(asked.choices) if not right)
    form = page.locator(f"form[data-mg='prediction'][data-question='{n}']")
    form.locator("input[name=answer]").nth(choice).check()
    form.locator(f"input[name=confidence][value={confidence}]").check()
    form.locator("button[type=submit]").click()
    expect(form).to_have_attribute("data-state", verdict)
    return asked.choices[choice][1]


def item(page, slug):
    return page.locator(f"[data-mg='progress'] li[data-break='{slug}']")


def choose_file(page, button, path):
    with page.expect_file_chooser() as chooser:
        button.click()
    chooser.value.set_files(str(path))


def test_predictions_show_on_the_progress_page_which_exports_resets_and_imports(page, site_url, watch, tmp_path):
    page.goto(site_url + "breaks/mean-forgets-n/")
    predict(page, "mean-forgets-n", 1, "sure", "wrong")
    predict(page, "mean-forgets-n", 2, "unsure", "right")

    page.locator(".md-nav__link", has_text="Your progress").first.click()  # in the navigation, on every page
    expect(page).to_have_url(site_url + "progress/")
    expect(page.locator("[data-mg='progress'] li")).to_have_count(len(SLUGS))
    mean = item(page, "mean-forgets-n")
    expect(mean).to_have_attribute("data-predicted", "wrong")
    expect(mean).to_have_attribute("data-review", "yes")
    expect(mean.locator(".mg-progress-state")).to_have_text("Predicted 2 of 3: question 1 wrong (sure), question 2 right (unsure)")
    expect(item(page, "overwrite-grad").locator(".mg-progress-state")).to_have_text("Not started")
    expect(page.locator(".mg-progress-summary")).to_contain_text(f"Predictions on 1 of {len(SLUGS)} breaks (1 with a wrong")
    assert mean.locator("a").evaluate("a => a.href") == site_url + "breaks/mean-forgets-n/"
    # The pointer and focus leave the navigation link just clicked: Material paints a hovered or
    # focused link in the accent colour, below 4.5:1 on white, on every page (noted, not ours).
    page.mouse.move(900, 5)
    page.locator(".mg-progress-summary").evaluate("(p) => { p.tabIndex = -1; p.focus(); }")
    assert not serious_violations(page)

    with page.expect_download() as download:  # Export: a file made in the page, nothing sent
        page.get_by_role("button", name="Export to a file").click()
    saved = tmp_path / download.value.suggested_filename
    download.value.save_as(saved)
    assert saved.name.startswith("minigrad-progress-") and saved.suffix == ".json"
    assert json.loads(saved.read_text(encoding="utf-8")) == stored(page)
    expect(page.locator(".mg-progress-message")).to_have_text(f"Saved {saved.name}: it holds 1 break.")

    reset = page.get_by_role("button", name="Reset")
    reset.click()  # asks first; Escape keeps everything
    expect(page.get_by_role("button", name="Erase")).to_be_focused()
    page.keyboard.press("Escape")
    expect(page.locator(".mg-progress-message")).to_have_text("Nothing was erased.")
    expect(reset).to_be_focused()
    assert stored(page)["breaks"]["mean-forgets-n"]["predictions"]["1"]["verdict"] == "wrong"
    reset.click()
    page.get_by_role("button", name="Erase").click()
    expect(page.locator(".mg-progress-message")).to_have_text("Erased: this browser keeps no progress now.")
    assert stored(page) is None
    expect(mean.locator(".mg-progress-state")).to_have_text("Not started")

    for name, text, why in [("notes.json", "{\"breaks\": [1, 2]}", "not the shape this site writes"),
                            ("notes.txt", "predicted: wrong", "not JSON")]:
        bad = tmp_path / name
        bad.write_text(text, encoding="utf-8")
        choose_file(page, page.get_by_role("button", name="Import a file"), bad)
        expect(page.locator(".mg-progress-message")).to_have_text(f"{name} is not a progress file of this site ({why}): nothing changed.")
        assert stored(page) is None

    store(page, {"version": 1, "breaks": {"overwrite-grad": {"repaired": "2026-12-01T10:00:00.000Z", "checks": 3}}})
    choose_file(page, page.get_by_role("button", name="Import a file"), saved)  # merged with what is here
    expect(page.locator(".mg-progress-message")).to_have_text(f"Imported {saved.name}: 1 break, merged with what this browser had.")
    expect(mean.locator(".mg-progress-state")).to_have_text("Predicted 2 of 3: question 1 wrong (sure), question 2 right (unsure)")
    expect(item(page, "overwrite-grad").locator(".mg-progress-state")).to_have_text("Repaired")
    expect(item(page, "overwrite-grad")).to_have_attribute("data-review", "no")
    assert set(stored(page)["breaks"]) == {"mean-forgets-n", "overwrite-grad"}

    elsewhere = tmp_path / "from-another-version.json"  # a break this site does not have: set aside, named
    elsewhere.write_text(json.dumps({"version": 1, "breaks": {
        "no-such-break": {"repaired": "2026-12-01T10:00:00.000Z"}, "sgd-sign-flipped": {"checks": 1}}}))
    choose_file(page, page.get_by_role("button", name="Import a file"), elsewhere)
    expect(page.locator(".mg-progress-message")).to_have_text(
        f"Imported {elsewhere.name}: 1 break, merged with what this browser had. "
        "Set aside, not stored (this site has no such break): no-such-break.")
    assert set(stored(page)["breaks"]) == {"mean-forgets-n", "overwrite-grad", "sgd-sign-flipped"}

    page.goto(site_url + "breaks/mean-forgets-n/")  # the imported prediction is the page's again
    expect(page.locator("form[data-mg='prediction'][data-question='1']")).to_have_attribute("data-state", "wrong")
    assert not watch.outside(), watch.outside()
    assert not watch.errors, watch.errors


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_spanish_on_a_phone(new_context, site_url, scheme, tmp_path):
    context = new_context(viewport=PHONE, has_touch=True, is_mobile=True, color_scheme=scheme)
    page = context.new_page()
    page.goto(site_url + "es/progress/")
    store(page, {"version": 1, "breaks": {
        "relu-gated-on-upstream": {"predictions": {"2": {"answer": "la de abajo", "choice": 0, "confidence": "guessing", "verdict": "wrong"}},
                                   "repaired": "2026-12-02T09:00:00.000Z", "checks": 2},
        "softmax-over-the-batch": {"mystery": {"found": "2026-12-03T09:00:00.000Z"}}}})
    page.reload()
    expect(item(page, "relu-gated-on-upstream").locator(".mg-progress-state")).to_have_text("1 de 3 predicciones: pregunta 2 fallada (adivinando) · Reparada")
    expect(item(page, "softmax-over-the-batch").locator(".mg-progress-state")).to_have_text("Encontrada como misterio")
    assert item(page, "relu-gated-on-upstream").locator("a").evaluate("a => a.href") == site_url + "es/breaks/relu-gated-on-upstream/"
    expect(page.get_by_role("button", name="Exportar a un archivo")).to_be_visible()
    elsewhere = tmp_path / "otro.json"
    elsewhere.write_text(json.dumps({"version": 1, "breaks": {"no-such-break": {}, "old-break": {}}}))
    choose_file(page, page.get_by_role("button", name="Importar un archivo"), elsewhere)
    expect(page.locator(".mg-progress-message")).to_have_text(
        "Importado otro.json: 0 roturas, combinadas con lo que tenía este navegador. "
        "Apartadas, sin guardar (este sitio no tiene esas roturas): no-such-break, old-break.")
    assert not {"no-such-break", "old-break"} & set(stored(page)["breaks"])
    assert page.evaluate("document.scrollingElement.scrollWidth <= window.innerWidth"), "the list overflows a phone's width"
    assert not serious_violations(page)
    context.close()


def test_the_mystery_draws_from_what_is_left_to_review_and_keeps_a_find(page, site_url, watch):
    page.goto(site_url + "mystery/?seed=3")
    left = ["mean-forgets-n", "sgd-sign-flipped"]  # not repaired; a third is repaired but was predicted wrong
    record = {slug: {"repaired": "2026-12-01T10:00:00.000Z"} for slug in SLUGS if slug not in left}
    record["overwrite-grad"]["predictions"] = {"1": {"answer": "fine", "choice": 0, "confidence": "sure", "verdict": "wrong"}}
    store(page, {"version": 1, "breaks": record})
    page.reload()
    form = page.locator("form.mg-mystery")
    form.get_by_label("Only breaks to review").check()
    expect(form.locator(".mg-mystery-status")).to_contain_text("drawn among 3 breaks to review")
    review = set(left) | {"overwrite-grad"}
    for _ in range(6):  # every draw stays among them
        form.locator(".mg-mystery-draw").click()
        assert page.evaluate("window.minigradMystery.hiddenBreak()") in review
    hidden = page.evaluate("window.minigradMystery.hiddenBreak()")
    form.locator(".mg-mystery-guess").select_option(hidden)
    form.locator(".mg-mystery-check").click()
    expect(form).to_have_attribute("data-state", "right")
    assert stored(page)["breaks"][hidden]["mystery"]["found"]

    form.locator(".mg-mystery-phase").select_option("10")  # every phase-10 break is repaired and none predicted wrong
    expect(form.locator(".mg-mystery-status")).to_contain_text("Nothing to review here")
    page.goto(site_url + "progress/")
    expect(item(page, hidden).locator(".mg-progress-state")).to_contain_text("Found as a mystery")
    assert not watch.outside() and not watch.errors, (watch.outside(), watch.errors)
