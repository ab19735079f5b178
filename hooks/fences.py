"""MkDocs hook: expose each Python block's run options to the browser runner.

Pages write `{.python continuation broken="silent"}` because that is what
pytest-markdown-docs and tests/markdown_blocks.py read. With Pygments,
superfences keeps only `data-*` attributes in the HTML, so this hook renames
the options on the way to the renderer: `continuation` -> `data-continuation`,
`broken=` -> `data-broken=`, `raises=` -> `data-raises=`, `break=` ->
`data-break=` (a block's own break), `notest` -> `data-notest`. The page source stays the single place they are written.
"""

import re
import shlex

FENCE = re.compile(r"^(?P<indent>\s*)(?P<ticks>`{3,})\{(?P<info>\.python\b[^}\n]*)\}\s*$", re.M)
FLAGS = ("continuation", "notest")
VALUES = ("broken", "raises", "break")


def _data_attributes(info):
    parts, out = shlex.split(info), []
    for part in parts:
        key, sep, value = part.partition("=")
        if not sep and key in FLAGS:
            out.append(f'data-{key}="1"')
        elif sep and key in VALUES:
            out.append(f'data-{key}="{value}"')
        elif sep:
            out.append(f'{key}="{value}"')
        else:
            out.append(part)
    return " ".join(out)


def on_page_markdown(markdown, page, config, files):
    def rewrite(match):
        return f"{match['indent']}{match['ticks']}{{{_data_attributes(match['info'])}}}"

    return FENCE.sub(rewrite, markdown)
