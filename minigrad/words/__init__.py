"""Every word minigrad and its site say to a reader, one table per language: en.toml and es.toml.

The site's pages, the doctor, the checks, Repair it, the pictures and the breaks CLI read their
words here by section (`section("site.repair", "es")`); the page's scripts get theirs as JSON
(`page_scripts`, handed to the page by minigrad_site). A translator edits one file per language;
tests/test_words.py holds the two to the same keys and the same {placeholders}.
"""

import functools
from collections.abc import Mapping
from pathlib import Path

LANGUAGES = ("en", "es")


def table(lang):
    """The whole table of one language, read again when its file changed (a translator under `mkdocs serve`)."""
    if lang not in LANGUAGES:
        raise ValueError(f"no words in {lang!r}: {LANGUAGES}")
    source = Path(__file__).with_name(f"{lang}.toml")
    stamp = source.stat().st_mtime_ns if source.exists() else None
    return _read(source, stamp)


@functools.lru_cache(maxsize=8)
def _read(source, stamp):
    if stamp is None:  # in the browser: the site ships the table as JSON (minigrad_site/build/runtime.py)
        import json

        return json.loads(source.with_suffix(".json").read_text(encoding="utf-8"))
    import tomllib  # here, not above: nothing reads words before they are needed

    return tomllib.loads(source.read_text(encoding="utf-8"))


def section(path, lang):
    """The words under a dotted path ("site.repair") in one language."""
    found = table(lang)
    for part in path.split("."):
        found = found[part]
    return found


class by_language(Mapping):  # noqa: N801 (used as the dict it stands for)
    """{language: its words under the path}, read when first asked: the shape the tables had inside each module."""

    def __init__(self, path):
        self.path = path

    def __getitem__(self, lang):
        if lang not in LANGUAGES:
            raise KeyError(lang)
        return section(self.path, lang)

    def __iter__(self):
        return iter(LANGUAGES)

    def __len__(self):
        return len(LANGUAGES)
