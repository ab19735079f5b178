"""Following a link as a reader does under instant navigation (used by the browser tests)."""

from playwright.sync_api import expect

SWAP_TIMEOUT = 30_000  # ms: fetching and parsing the next page, on a loaded machine
MATERIAL_CLOSES_AFTER_MS = 125  # Material closes search and the drawer this long after a new location


def follow(page, link, url, before_search=False):
    """Click `link` and return once the page it leads to is on screen (see `navigate`)."""
    navigate(page, link.click, url, before_search)


def navigate(page, action, url, before_search=False):
    """Do `action` (a click, the browser's Back then Forward) and return once the page
    at `url` is on screen.

    Material's instant navigation pushes the new URL at the click, and swaps the
    page's content (its `[data-md-component=container]`) only when the fetched
    page has arrived and been parsed (integrations/instant in mkdocs-material).
    So the URL alone does not say which page is shown: a test that acted at once
    could click a block of the page it was leaving. Under load (two browser tests
    at once, issue 11's CI trial) that fetch is slow enough for it: with 3 s of
    network latency added, test_reliability's navigation test clicked Run on the
    old page's third block (queued behind the endless loop, pruned with it) and
    waited in vain for the new page's third block. Here the old container is
    marked before the action, and this returns when no marked container is left.

    With `before_search`, it then waits out Material's close of the search and the drawer,
    which its bundle runs 125 ms after each new location (`merge(location$, target$).pipe(delay(125))`):
    a test that typed a query at once had it typed into a search that then closed under it (the
    results found, but hidden: test_search.py, 2 runs in 7 here). The wait is a timer in
    the page set after theirs with a longer delay, so it fires after theirs however busy
    the page's thread is. Only a test that opens the search or the drawer next needs it
    (test_search.py); for the others it was 130 ms of every navigation.
    """
    page.locator("[data-md-component=container]").evaluate("c => c.setAttribute('data-left-behind', '')")
    action()
    expect(page).to_have_url(url)
    expect(page.locator("[data-md-component=container][data-left-behind]")).to_have_count(0, timeout=SWAP_TIMEOUT)
    if before_search:
        page.evaluate(f"() => new Promise((done) => setTimeout(done, {MATERIAL_CLOSES_AFTER_MS + 5}))")
