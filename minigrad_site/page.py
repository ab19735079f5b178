"""What a page transform knows of its page, given as the extension's options.

A builder hands these per page (minigrad_site.plugin does it for MkDocs; a test or
another builder passes them to `markdown.Markdown(extension_configs=...)`), so the
transforms never reach into a builder's page or config objects.
"""

import posixpath
from dataclasses import dataclass, fields

LANGUAGES = ("en", "es")


@dataclass(frozen=True)
class Page:
    lang: str = "en"  # the language the page is built in
    url: str = ""  # its URL from the site's root ("breaks/overwrite-grad/"), for relative links to assets
    src_uri: str = ""  # its source under docs/ ("breaks/overwrite-grad.md"), for links that the builder checks
    break_slug: str = ""  # the break the page is about (its front matter's minigrad_break), or ""
    use_directory_urls: bool = True
    repo_url: str = ""  # what {{ repo_url }} becomes
    pictures_dir: str = ""  # where the page's pictures are written (the root site's _minigrad/pictures)
    pictures_url: str = ""  # that folder's URL relative to the page

    @classmethod
    def options(cls):
        """The extension's options: [name, default, help] for each field."""
        return {f.name: [f.default, f"the page's {f.name}"] for f in fields(cls)}

    @classmethod
    def of(cls, settings):
        page = cls(**{f.name: settings[f.name] for f in fields(cls) if f.name in settings})
        if page.lang not in LANGUAGES:
            raise ValueError(f"lang must be one of {LANGUAGES}, not {page.lang!r}")
        return page

    @property
    def src_dir(self):
        return posixpath.dirname(self.src_uri)

    def asset(self, path):
        """`path` (from the site's root) relative to this page."""
        return relative_url(path, self.url)


def relative_url(url, other):
    """`url` relative to `other`, both from the site's root: MkDocs's get_relative_url, the same
    answers (tests/test_extension.py compares them), without importing MkDocs."""
    dirname, _, basename = other.rpartition("/")
    if "." in basename:
        other = dirname
    other_parts, dest_parts = _parts(other), _parts(url)
    common = 0
    for a, b in zip(other_parts, dest_parts):
        if a != b:
            break
        common += 1
    relative = "/".join([".."] * (len(other_parts) - common) + dest_parts[common:]) or "."
    return relative + "/" if url.endswith("/") else relative


def _parts(path):
    path = posixpath.normpath("/" + path if not path.startswith("/") else path)[1:]
    return path.split("/") if path else []
