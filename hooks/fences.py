"""MkDocs hook: expose each Python block's run options to the browser runner.

Pages write `{.python continuation broken="silent"}` because that is what
pytest-markdown-docs and tests/markdown_blocks.py read. With Pygments,
superfences keeps only `data-*` attributes in the HTML, so this hook renames
the options on the way to the renderer: `continuation` -> `data-continuation`,
`broken=` -> `data-broken=`, `raises=` -> `data-raises=`, `break=` ->
`data-break=` (a block's own break), `notest` -> `data-notest`. The page source stays the single place they are written.

It adds one option of its own: `data-numpy` on a block whose chain (the
block and those it continues, as runner.js's chainOf takes them) needs
NumPy, decided as the worker decides before a run
(minigrad.runner.numpy_needs). The runner then fetches the wheel at the
reader's first intent on that block, while Python itself downloads, instead
of after Python has started.
"""

import re
import shlex

from minigrad.runner.numpy_needs import chain_needs_numpy, numpy_needs

FENCE = re.compile(r"^(?P<indent>\s*)(?P<ticks>`{3,})\{(?P<info>\.python\b[^}\n]*)\}\s*$", re.M)
FLAGS = ("continuation", "notest")
VALUES = ("broken", "raises", "break")
# Any fence's opening line; a Python block is one whose info says python (```python or ```{.python ...}).
OPENING = re.compile(r"^(?P<indent>[ \t]*)(?P<ticks>`{3,}|~{3,})(?P<info>[^\n]*)$")
PYTHON_INFO = re.compile(r"^\s*(\{\s*\.?)?(python3?|py)\b")

_needs = None  # numpy_needs(), once per build


def _data_attributes(info, numpy=False):
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
    if numpy:
        out.append('data-numpy="1"')
    return " ".join(out)


def python_blocks(markdown):
    """[(offset of the opening ticks, info, code)] for every Python fence, in page order."""
    blocks, lines, offset, i = [], markdown.splitlines(keepends=True), 0, 0
    starts = []
    for line in lines:
        starts.append(offset)
        offset += len(line)
    while i < len(lines):
        opening = OPENING.match(lines[i].rstrip("\n"))
        if not opening:
            i += 1
            continue
        indent, ticks, info = opening["indent"], opening["ticks"], opening["info"]
        closing = re.compile(rf"^[ \t]*{re.escape(ticks[0])}{{{len(ticks)},}}[ \t]*$")
        end = next((j for j in range(i + 1, len(lines)) if closing.match(lines[j].rstrip("\n"))), len(lines))
        if PYTHON_INFO.match(info):
            code = "".join(line[len(indent):] if line.startswith(indent) else line.lstrip() for line in lines[i + 1:end])
            blocks.append((starts[i] + len(indent), info, code))
        i = end + 1
    return blocks


def numpy_blocks(markdown, needs):
    """Offsets of the opening ticks of the Python blocks whose chain needs NumPy."""
    chain, out = [], set()
    for offset, info, code in python_blocks(markdown):
        options = set(shlex.split(info.strip().strip("{}"))) if info.strip().startswith("{") else set()
        if "continuation" not in options:
            chain = []
        if "notest" not in options:
            chain.append(code)
        if chain_needs_numpy(chain, needs):
            out.add(offset)
    return out


def on_config(config):
    global _needs
    _needs = numpy_needs()


def on_page_markdown(markdown, page, config, files):
    numpy = numpy_blocks(markdown, _needs)

    def rewrite(match):
        info = _data_attributes(match["info"], numpy=match.start("ticks") in numpy)
        return f"{match['indent']}{match['ticks']}{{{info}}}"

    return FENCE.sub(rewrite, markdown)
