"""MkDocs hook: the headings' permalink says "Enlace permanente" on Spanish pages.

Python-Markdown's toc extension writes one `permalink_title` for the whole
site ("Permanent link"), and mkdocs-static-i18n cannot override a markdown
extension per language, so the Spanish pages would keep that English title
(a tooltip and what a screen reader announces on each heading's link).
"""

TITLES = {"es": "Enlace permanente"}


def on_page_content(html, page, config, files):
    title = TITLES.get(str(config.theme.get("language", "en")))
    if title is None:
        return html
    return html.replace('title="Permanent link"', f'title="{title}"')
