"""MkDocs hook: `{{ repo_url }}` in a page's Markdown becomes the site's `repo_url`.

Getting started's clone command names the repository the site was built from:
`repo_url` in mkdocs.yml, which the GitHub Pages workflow sets from the
repository it runs in (`MINIGRAD_REPO_URL`). A page that uses the marker on a
build without a repo_url fails the build instead of printing a command that
cannot work. No macro plugin: one marker, one replace.
"""

from mkdocs.exceptions import PluginError

MARKER = "{{ repo_url }}"


def on_page_markdown(markdown, page, config, files):
    if MARKER not in markdown:
        return markdown
    url = (config.repo_url or "").rstrip("/")
    if not url:
        raise PluginError(f"{page.file.src_path} uses {MARKER}, but repo_url is empty: set MINIGRAD_REPO_URL")
    return markdown.replace(MARKER, url)
