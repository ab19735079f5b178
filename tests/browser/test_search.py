"""Search and language labels: each language searches its own pages
(minigrad_site/build/search_per_language.py), Spanish pages navigate instantly among
themselves, a link into the other language lands on a correctly labelled
page, and the palette toggle speaks the page's language. The search index and
Material's search worker load on the first use of search, not with every page
(overrides/partials/search-on-use.html)."""

import json
import re

import pytest
from navigation import follow
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def search(page, query):
    """Type a query in Material's search box; the hrefs of every result shown.

    Typed key by key: Material reads the query on `keyup` (and when its
    worker has loaded the index), so `fill()` alone would search nothing."""
    box = page.locator("input.md-search__input")
    box.fill("")
    box.press_sequentially(query)
    links = page.locator(".md-search-result__list a.md-search-result__link")
    expect(links.first).to_be_visible(timeout=10_000)  # after a navigation: navigate(..., before_search=True) waits out Material's close
    return links.evaluate_all("(els) => els.map((a) => a.href)")


def test_english_search_finds_only_english_pages(page, site_url, watch):
    page.goto(site_url)
    hrefs = search(page, "broadcasting")
    assert len(hrefs) >= 3, hrefs
    assert not [h for h in hrefs if "/es/" in h], hrefs
    assert not watch.errors, watch.errors


def test_spanish_search_finds_only_spanish_pages(page, site_url, watch):
    page.goto(site_url + "es/")
    hrefs = search(page, "gradiente")
    assert len(hrefs) >= 3, hrefs
    assert all(h.startswith(site_url + "es/") for h in hrefs), hrefs
    assert not watch.errors, watch.errors


def test_a_spanish_result_opens_a_spanish_page_by_instant_navigation(page, site_url, watch):
    page.goto(site_url + "es/")
    page.evaluate("window.__sameDocument = true")
    search(page, "unbroadcast")
    page.locator(".md-search-result__list a.md-search-result__link").first.click()
    expect(page).to_have_url(re.compile(re.escape(site_url + "es/") + ".+"))
    expect(page.locator("html")).to_have_attribute("lang", "es")
    # es/sitemap.xml lists the Spanish pages, so Material navigated without a reload
    assert page.evaluate("window.__sameDocument === true")
    assert not watch.errors, watch.errors


def test_spanish_pages_navigate_instantly_and_fetch_their_own_index(page, site_url, watch):
    page.goto(site_url + "es/theory/01-derivatives/")
    page.evaluate("window.__sameDocument = true")
    # The swap, not just the URL: a search typed before it is closed by it (CI saw its results hidden).
    follow(page, page.locator("a.md-footer__link--next"), site_url + "es/theory/02-graphs/", before_search=True)
    assert page.evaluate("window.__sameDocument === true")
    search(page, "grafo")
    assert site_url + "es/search/search_index.json" in watch.requests
    assert site_url + "search/search_index.json" not in watch.requests
    assert not watch.errors, watch.errors


@pytest.mark.parametrize(
    "start, target, lang, run_label",
    [("breaks/skip-unbroadcast/", "es/breaks/overwrite-grad/", "es", "Ejecutar"),
     ("es/breaks/skip-unbroadcast/", "breaks/overwrite-grad/", "en", "Run")],
)
def test_a_link_into_the_other_language_lands_on_a_labelled_page(page, site_url, watch, start, target, lang, run_label):
    """Instant navigation keeps the old page's <html lang> and the runner's
    labels; a link that crosses languages must be a full load instead."""
    page.goto(site_url + start)
    expect(page.locator(".mg-run").first).to_be_visible()
    page.evaluate(
        """(href) => {
            const a = Object.assign(document.createElement("a"), {href, id: "cross", textContent: "other language"});
            document.querySelector(".md-content article").prepend(a);
        }""",
        site_url + target,
    )
    page.evaluate("window.__sameDocument = true")
    page.locator("#cross").click()
    expect(page).to_have_url(site_url + target)
    expect(page.locator("html")).to_have_attribute("lang", lang)
    expect(page.locator(".mg-run").first).to_contain_text(run_label)
    assert page.evaluate("window.__sameDocument === undefined")  # a full load
    assert not watch.errors, watch.errors


@pytest.mark.parametrize(
    "path, names",
    [("", ["Switch to dark mode", "Switch to light mode"]),
     ("es/", ["Cambiar al modo oscuro", "Cambiar al modo claro"])],
)
def test_palette_toggle_speaks_the_page_language(page, site_url, path, names):
    page.goto(site_url + path)
    titles = page.locator("form[data-md-component=palette] label[title]").evaluate_all("(els) => els.map((l) => l.title)")
    assert titles == names


def test_each_language_has_its_own_index_and_sitemap(offline_site, site_url):
    english = json.loads((offline_site / "search/search_index.json").read_text(encoding="utf-8"))
    spanish = json.loads((offline_site / "es/search/search_index.json").read_text(encoding="utf-8"))
    assert english["config"]["lang"] == ["en"] and spanish["config"]["lang"] == ["es"]
    assert not [d["location"] for d in english["docs"] if d["location"].startswith("es/")]
    assert {d["location"] for d in spanish["docs"]} >= {"", "glossary/", "breaks/skip-unbroadcast/"}
    assert len({d["location"].split("#")[0] for d in spanish["docs"]}) == len({d["location"].split("#")[0] for d in english["docs"]})
    root_map = (offline_site / "sitemap.xml").read_text(encoding="utf-8")
    es_map = (offline_site / "es/sitemap.xml").read_text(encoding="utf-8")
    es_locs = re.findall(r"<loc>(.*?)</loc>", es_map)
    assert es_locs and all(loc.startswith(site_url + "es/") for loc in es_locs)
    assert set(es_locs) < set(re.findall(r"<loc>(.*?)</loc>", root_map))  # the root map keeps both, for search engines


def search_requests(watch):
    return [u for u in watch.requests if "search_index.json" in u or "/workers/search." in u]


@pytest.mark.parametrize(("path", "query"), [("breaks/overwrite-grad/", "broadcasting"), ("es/breaks/overwrite-grad/", "gradiente")])
def test_the_index_loads_on_the_keyboard_shortcut_not_with_the_page(page, site_url, watch, path, query):
    page.goto(site_url + path)
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(500)
    assert not search_requests(watch), search_requests(watch)  # a page read, not searched: no index, no search worker
    page.keyboard.press("/")  # Material's shortcut: the query box takes focus
    expect(page.locator("input.md-search__input")).to_be_focused()
    page.keyboard.type(query)
    expect(page.locator(".md-search-result__list a.md-search-result__link").first).to_be_visible(timeout=20_000)
    index = [u for u in search_requests(watch) if "search_index.json" in u]
    assert index == [site_url + ("es/" if path.startswith("es/") else "") + "search/search_index.json"], index
    assert not watch.errors, watch.errors


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_on_a_phone_the_search_icon_loads_the_index(new_context, site_url, scheme):
    context = new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True, color_scheme=scheme)
    page = context.new_page()
    requests = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto(site_url + "breaks/skip-unbroadcast/")
    page.wait_for_load_state("networkidle")
    assert not [u for u in requests if "search_index.json" in u]
    page.locator("label.md-header__button[for='__search']").click()  # the magnifier in the header
    page.locator("input.md-search__input").press_sequentially("unbroadcast")
    expect(page.locator(".md-search-result__list a.md-search-result__link").first).to_be_visible(timeout=20_000)
    assert [u for u in requests if u.endswith("/search/search_index.json")] == [site_url + "search/search_index.json"]
    context.close()
