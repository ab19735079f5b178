"""Pygments' highlighting of a code block, reused by its content.

Every save under `mkdocs serve` renders every page again, and Pygments was a fifth of
that: the same blocks, highlighted the same way, every time (and each break's code
twice, once per language). pymdown-extensions lets the highlight extension name the
class that highlights (`get_pymdownx_highlighter`, which superfences asks for); this
one is pymdownx's own `Highlight` with a memory. A block's HTML is a pure function of
its source, its fence's options and the highlighter's settings, which together are the
key; what is not (an inline span, which is an element, and a title, which may go through
the page's HTML stash) is highlighted as before.
"""

from pymdownx.highlight import Highlight, HighlightExtension

LIMIT = 20_000  # blocks remembered; the site has about 2,000 (both languages)
_highlighted = {}


class RememberingHighlight(Highlight):
    def highlight(self, src, language, css_class="highlight", hl_lines=None, linestart=-1, linestep=-1,
                  linespecial=-1, inline=False, classes=None, id_value="", attrs=None, title=None, code_block_count=0,
                  **newer):
        arguments = (src, language, css_class, hl_lines, linestart, linestep, linespecial, inline, classes, id_value,
                     attrs, title, code_block_count)
        if inline or title is not None or self.auto_title or newer:  # newer: an argument a later pymdownx added
            return super().highlight(*arguments, **newer)
        settings = {name: value for name, value in vars(self).items() if name != "md"}
        key = repr((settings, arguments))
        if key not in _highlighted:
            if len(_highlighted) >= LIMIT:
                _highlighted.clear()
            _highlighted[key] = super().highlight(*arguments)
        return _highlighted[key]


def remember_highlighting(md):
    """Make the page's highlight extension (if it has one) highlight with RememberingHighlight."""
    for extension in md.registeredExtensions:
        if isinstance(extension, HighlightExtension):
            extension.get_pymdownx_highlighter = lambda: RememberingHighlight
