"""Expose each Python block's run options to the browser runner.

Pages write `{.python continuation broken="silent"}` because that is what
pytest-markdown-docs and tests/markdown_blocks.py read. With Pygments,
superfences keeps only `data-*` attributes in the HTML, so this transform renames
the options on the way to the renderer (this transform runs before the
Markdown is parsed): `continuation` -> `data-continuation`,
`broken=` -> `data-broken=`, `raises=` -> `data-raises=`, `break=` ->
`data-break=` (a block's own break), `notest` -> `data-notest`. The page source stays the single place they are written.

It adds three attributes of its own, computed here so that the browser
renders what it is given instead of knowing the rules: `data-block` (the
block's index among the page's Python blocks), `data-chain` (the indexes its
run executes, by minigrad.runner.chains, the rule the doc tests use) and
`data-numpy` on a block whose chain needs NumPy, decided as the worker
decides before a run (minigrad.runner.numpy_needs). The runner then fetches
the wheel at the reader's first intent on that block, while Python itself
downloads, instead of after Python has started. A plain ```python fence is
written in the brace syntax to carry them.
"""

import re
from functools import lru_cache

from minigrad.runner.chains import chains
from minigrad.runner.numpy_needs import chain_needs_numpy, numpy_needs
from minigrad_site import fence_reader
from minigrad_site.inputs import package_stamp

FLAGS = ("continuation", "notest")
VALUES = ("broken", "raises", "break")
TICKS = re.compile(r"`{3,}|~{3,}")


def _data_attributes(parts, index, chain, numpy):
    out = []
    for part in parts:
        key, sep, value = part.partition("=")
        if not sep and key in FLAGS:
            out.append(f'data-{key}="1"')
        elif sep and key in VALUES:
            out.append(f'data-{key}="{value}"')
        elif sep:
            out.append(f'{key}="{value}"')
        else:
            out.append(".python" if part in (".py", ".python3") else part)
    out += [f'data-block="{index}"', f'data-chain="{" ".join(map(str, chain))}"']
    if numpy:
        out.append('data-numpy="1"')
    return " ".join(out)


def python_blocks(markdown):
    """[(offset of the opening ticks, info, code)] for every Python fence, in page order (minigrad_site.fence_reader)."""
    return [(f.ticks_at, f.info, f.content) for f in fence_reader.read(markdown) if f.python]


def _page_chains(blocks):
    parts = [fence_reader.tokens(info) for _, info, _ in blocks]
    return parts, chains([("continuation" in p, "notest" in p) for p in parts])


def numpy_blocks(markdown, needs):
    """Offsets of the opening ticks of the Python blocks whose chain needs NumPy."""
    blocks = python_blocks(markdown)
    _, order = _page_chains(blocks)
    return {blocks[i][0] for i, chain in enumerate(order) if chain_needs_numpy([blocks[j][2] for j in chain], needs)}


def package_needs():
    """numpy_needs() of minigrad as it is on disk now: computed again only when one of its
    modules changed (a teacher editing minigrad under `mkdocs serve`), not once per page."""
    return _needs_of(package_stamp())


@lru_cache(maxsize=4)
def _needs_of(stamp):
    return numpy_needs()


def transform(markdown, page=None):
    needs = package_needs()
    blocks = python_blocks(markdown)
    parts, order = _page_chains(blocks)
    pieces, last = [], 0
    for index, (offset, _, _) in enumerate(blocks):
        numpy = chain_needs_numpy([blocks[j][2] for j in order[index]], needs)
        ticks = TICKS.match(markdown, offset)[0]
        end = markdown.find("\n", offset)
        pieces += [markdown[last:offset], ticks, "{", _data_attributes(parts[index], index, order[index], numpy), "}"]
        last = len(markdown) if end < 0 else end
    return "".join(pieces) + markdown[last:]
