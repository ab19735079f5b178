"""Render one page with Python-Markdown and minigrad_site.extension alone, as any builder could:
stdin JSON {"page": docs-relative path, "extensions": [...], "configs": {...}}; stdout the HTML.
It fails if anything imported MkDocs (tests/test_publish.py compares the HTML with the site's)."""

import json
import sys
from pathlib import Path

import markdown


def main():
    request = json.load(sys.stdin)
    text = Path("docs", request["page"]).read_text(encoding="utf-8")
    if text.startswith("---\n"):  # YAML front matter: a builder reads it (the page's break) and hands it as options
        text = text.split("\n---\n", 1)[1].lstrip("\n")  # as MkDocs strips it
    html = markdown.Markdown(extensions=request["extensions"], extension_configs=request["configs"]).convert(text)
    leaked = sorted(name for name in sys.modules if name == "mkdocs" or name.startswith("mkdocs."))
    if leaked:
        sys.exit(f"rendering imported MkDocs: {leaked[:5]}")
    sys.stdout.write(html)


if __name__ == "__main__":
    main()
