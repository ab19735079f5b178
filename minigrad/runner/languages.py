"""Which language a page is in: one rule for the doc tests, the hooks and the runner.

The site has two, English (the default, at the root) and Spanish (`page.es.md`,
built under es/ by mkdocs-static-i18n); anything else reads as English.
"""

LANGUAGES = ("en", "es")


def page_language(path):
    """The language of a page from its file name: "es" for page.es.md, "en" otherwise."""
    return "es" if str(path).endswith(".es.md") else "en"


def build_language(page, config):
    """The language a page is built in, inside a MkDocs hook: the page's own locale
    (mkdocs-static-i18n's), else the build's theme language."""
    own = getattr(page.file, "locale_alternate_of", None) if page is not None else None
    lang = str(own or config.theme.get("language", "en"))[:2]
    return lang if lang in LANGUAGES else "en"
