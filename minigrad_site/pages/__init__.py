"""Page transforms: each module's `transform(markdown, page)` returns the page's Markdown with its
part done; `minigrad_site.extension` runs them in order. No MkDocs here (tests/test_extension.py)."""
