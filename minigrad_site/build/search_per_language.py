"""One search index (and one sitemap) per language.

mkdocs-static-i18n 1.3 builds each language into the same site, stacks every
language's pages into one root `search/search_index.json`, and renders the
Spanish pages with Material's `base` pointing at the site root, so a Spanish
reader searches the English pages too (its issue #31; Material's maintainer
advises a build per language, squidfunk/mkdocs-material#867). Neither offers
an option for this, so the plugin does the split after the build:

- `search/search_index.json` keeps the default language's entries, and
  `<lang>/search/search_index.json` gets each other language's, with
  locations made relative to `<lang>/` and lunr's `lang` set to that language
  (Material's search worker loads the matching stemmer);
- each translated page's `#__config` gets `base` pointing at `<lang>/`:
  Material reads the index from `new URL("search/search_index.json", base)`
  and resolves result links against the same base;
- `<lang>/sitemap.xml` lists that language's pages: Material's instant
  navigation reads `sitemap.xml` beside `base` and only follows links it
  lists, so Spanish pages navigate instantly among Spanish pages, and a link
  into the other language is a full page load (right `lang`, header, index).

The root sitemap keeps every language (with its hreflang alternates) for
search engines. Nothing is dropped as a "duplicate": `reconfigure_search:
false` in mkdocs.yml keeps every language's entries (the plugin's dedup
would remove a Spanish entry identical to its English one from the
Spanish index).
"""

import json
import posixpath
import re
from pathlib import Path


CONFIG_SCRIPT = re.compile(r'(<script id="__config" type="application/json">)(.*?)(</script>)', re.S)
SITEMAP_URL = re.compile(r"[ \t]*<url>.*?</url>\n?", re.S)
SITEMAP_LOC = re.compile(r"<loc>(.*?)</loc>")


def translated_languages(config):
    """The locales built under their own folder (`es` for `site/es/`)."""
    i18n = config.plugins.get("i18n")
    if i18n is None:
        return []
    return [lang.locale for lang in i18n.config.languages if not lang.default and lang.build]


def default_language(config):
    """The locale built at the site root (not theme.language: that is the last language built)."""
    i18n = config.plugins.get("i18n")
    return next((lang.locale for lang in i18n.config.languages if lang.default), "en") if i18n else "en"


def _language_of(dest_uri, languages):
    return next((lang for lang in languages if dest_uri.startswith(f"{lang}/")), None)


def rebase_search(output, dest_uri, config):
    lang = _language_of(dest_uri, translated_languages(config))
    if lang is None:
        return output
    base = posixpath.relpath(lang, posixpath.dirname(dest_uri))

    def rebase(match):
        data = json.loads(match.group(2))
        data["base"] = base
        text = json.dumps(data)
        for char in "<>&'":  # escaped as Jinja's tojson does, so the JSON is safe inside <script>
            text = text.replace(char, f"\\u{ord(char):04x}")
        return match.group(1) + text + match.group(3)

    return CONFIG_SCRIPT.sub(rebase, output, count=1)


def split(config):
    """After mkdocs-static-i18n's on_post_build (-100) has built every language and merged the index."""
    languages = translated_languages(config)
    site = Path(config.site_dir)
    index_path = site / "search" / "search_index.json"
    if not languages or not index_path.exists():
        return
    split_search_index(index_path, site, languages, default=default_language(config))
    split_sitemap(site / "sitemap.xml", site, languages, config.site_url or "")


def split_search_index(index_path, site, languages, default):
    index = json.loads(index_path.read_text(encoding="utf-8"))
    docs = {lang: [] for lang in [default, *languages]}
    for doc in index["docs"]:
        lang = _language_of(doc["location"], languages)
        if lang is None:
            docs[default].append(doc)
        else:
            docs[lang].append({**doc, "location": doc["location"][len(lang) + 1 :]})
    for lang, entries in docs.items():
        path = index_path if lang == default else site / lang / "search" / "search_index.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        part = {**index, "config": {**index["config"], "lang": [lang]}, "docs": entries}
        path.write_text(json.dumps(part, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")


def split_sitemap(sitemap_path, site, languages, site_url):
    if not sitemap_path.exists():
        return
    text = sitemap_path.read_text(encoding="utf-8")
    entries = SITEMAP_URL.findall(text)
    head = text[: text.index(entries[0])] if entries else text
    tail = text[text.rindex(entries[-1]) + len(entries[-1]) :] if entries else ""
    for lang in languages:
        prefix = site_url.rstrip("/") + f"/{lang}/"
        own = [e for e in entries if SITEMAP_LOC.search(e).group(1).startswith(prefix)]
        (site / lang / "sitemap.xml").write_text(head + "".join(own) + tail, encoding="utf-8")
