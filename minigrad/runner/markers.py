"""The one marker syntax a page uses to ask a hook for generated content.

    <!-- md:breaks phase=8 -->      <!-- md:symptoms -->      <!-- md:mystery -->

Material for MkDocs writes its own shortcodes this way (`<!-- md:name args -->`
in its hooks/shortcodes.py). A page without the hooks still reads cleanly (an
HTML comment shows nothing), and each hook replaces only the names it
declares, so one parser serves every hook and tests/test_markers.py can check
that every marker of every page names a hook that serves it.
"""

import re

MARKER = re.compile(r"<!-- md:(?P<name>[a-z][a-z-]*)(?P<args>(?: [a-z_]+=[^\s=>]+)*) -->")


def arguments(text):
    """`phase=8 lang=es` -> {"phase": "8", "lang": "es"}."""
    return dict(part.split("=", 1) for part in text.split())


def markers(markdown):
    """[(name, arguments)] of every marker in `markdown`, in order."""
    return [(m["name"], arguments(m["args"])) for m in MARKER.finditer(markdown)]


def replace(markdown, renderers):
    """`markdown` with each marker whose name is in `renderers` replaced by `renderers[name](**arguments)`;
    other markers are another hook's and stay."""
    def render(match):
        renderer = renderers.get(match["name"])
        return match[0] if renderer is None else renderer(**arguments(match["args"]))

    return MARKER.sub(render, markdown)
