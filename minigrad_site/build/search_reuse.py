"""Material's search entries of a page, reused while the page is unchanged.

Every save under `mkdocs serve` rebuilds every page, and Material's search plugin parses
each page's HTML again (html.parser) to cut it into sections: over a third of a rebuild,
for pages that did not change. What it adds to the index is a function of the page's
HTML, its table of contents, its address, title and metadata (Material's
`SearchIndex.add_entry_from_context`), so those are the key, and a page seen before gets
the entries it got then. Material offers no option for this (its incremental mode is
`--dirty`, which `strict` refuses), so the plugin wraps that one method of the build's
index: the index it writes is the same (tests/test_rebuild_reuse.py compares them).
"""

import copy

LIMIT = 2_000  # pages remembered; the site has about 120 (both languages)
_entries = {}


def reuse_entries(config):
    """Wrap the current build's search index (Material makes a new one each time it is configured)."""
    search = config.plugins.get("material/search") or config.plugins.get("search")
    index = getattr(search, "search_index", None)
    if index is None or getattr(index, "reuses_entries", False):
        return
    index_page = index.add_entry_from_context

    def add_entry_from_context(page):
        key = _key(page)
        if key not in _entries:
            before = len(index.entries)
            index_page(page)
            if len(_entries) >= LIMIT:
                _entries.clear()
            _entries[key] = copy.deepcopy(index.entries[before:])
        else:
            index.entries.extend(copy.deepcopy(_entries[key]))

    index.add_entry_from_context = add_entry_from_context
    index.reuses_entries = True


def _key(page):
    return repr((page.url, page.title, page.meta, _anchors(page.toc), page.content))


def _anchors(toc):
    return [(item.id, item.url, item.title, _anchors(item.children)) for item in toc]
