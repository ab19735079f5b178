"""The page machinery as one Python-Markdown extension: `minigrad_site.extension`.

    markdown.Markdown(extensions=["pymdownx.superfences", ..., "minigrad_site.extension"],
                      extension_configs={"minigrad_site.extension": {"lang": "es", "break_slug": "overwrite-grad", ...}})

It runs every page transform of minigrad_site.pages on the page's Markdown, in the order
below, before anything else reads it (a preprocessor above pymdownx.snippets, so a snippet's
text is included as written, as when these were MkDocs hooks on `on_page_markdown`). What a
transform needs of the page comes through the options (minigrad_site.page.Page): any builder
that can pass options per page can build the site's pages; minigrad_site.plugin does it for MkDocs.
"""

from markdown.extensions import Extension
from markdown.preprocessors import Preprocessor

from minigrad_site.highlight_cache import remember_highlighting
from minigrad_site.inputs import package_stamp
from minigrad_site.page import Page
from minigrad_site.pages import (catalogue, doctor_folder, fences, mystery, pictures, predictions, progress, repair,
                                 repo_url, symptoms)

# The order matters where a transform writes what a later one reads:
# predictions and repair write Python blocks and folds before fences numbers every Python block;
# pictures reads the blocks' own `break=` as fences leaves them; generated content comes first.
TRANSFORMS = (
    catalogue,  # <!-- md:breaks -->, <!-- md:diagnostics-matrix -->
    symptoms,  # <!-- md:symptoms -->
    mystery,  # <!-- md:mystery -->
    doctor_folder,  # <!-- md:doctor-folder -->
    progress,  # <!-- md:progress -->
    predictions,  # each prediction question's form
    repair,  # the break page's Repair it, before fences gives its block an index
    fences,  # each Python block's run options as data-* attributes, its index and chain
    pictures,  # picture blocks become <img> of SVG files
    repo_url,  # {{ repo_url }}
)
PRIORITY = 40  # above pymdownx.snippets (32) and Python-Markdown's own preprocessors (30, 20)
# A page's transformed Markdown, reused while the page and minigrad's files are unchanged: each save
# under `mkdocs serve` rebuilds every page, and most of them did not change. The progress page
# reads the break pages themselves, so it is transformed every time.
_transformed = {}
READS_OTHER_PAGES = ("<!-- md:progress",)


class PageTransforms(Preprocessor):
    def __init__(self, md, page):
        super().__init__(md)
        self.page = page

    def run(self, lines):
        remember_highlighting(self.md)  # here, not in extendMarkdown: every extension is registered by now
        text = "\n".join(lines)
        if any(marker in text for marker in READS_OTHER_PAGES):
            return transformed(text, self.page).split("\n")
        key = (text, self.page, package_stamp())
        if key not in _transformed:
            if len(_transformed) > 1000:
                _transformed.clear()
            _transformed[key] = transformed(text, self.page)
        else:
            pictures.restore(_transformed[key], self.page)  # the site folder may have been cleaned since
        return _transformed[key].split("\n")


def transformed(text, page):
    for step in TRANSFORMS:
        text = step.transform(text, page)
    return text


class MinigradPagesExtension(Extension):
    def __init__(self, **kwargs):
        self.config = Page.options()
        super().__init__(**kwargs)

    def extendMarkdown(self, md):  # noqa: N802 (Python-Markdown's name)
        md.preprocessors.register(PageTransforms(md, Page.of(self.getConfigs())), "minigrad_pages", PRIORITY)


def makeExtension(**kwargs):  # noqa: N802 (Python-Markdown's name)
    return MinigradPagesExtension(**kwargs)
