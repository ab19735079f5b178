"""The build marks each block whose chain needs NumPy (minigrad_site/pages/fences.py's `data-numpy`),
so the browser fetches the wheel at the reader's first intent on it.

The mark must agree with what the worker decides before the run: the same
`chain_needs_numpy`, over the chain as the doc tests take it (markdown-it's
parse of the page, tests/markdown_blocks.py), for every block of every page.
"""

from pathlib import Path

import pytest
from markdown_blocks import parse_page

from minigrad.runner.numpy_needs import chain_needs_numpy, numpy_needs

ROOT = Path(__file__).resolve().parents[1]
PAGES = sorted((ROOT / "docs").rglob("*.md"))
from minigrad_site.pages import fences  # noqa: E402
NEEDS = numpy_needs()


@pytest.mark.parametrize("path", PAGES, ids=lambda p: str(p.relative_to(ROOT / "docs")))
def test_every_block_is_marked_as_the_worker_decides(path):
    page = parse_page(path)
    text = path.read_text(encoding="utf-8")
    found = fences.python_blocks(text)
    assert [code for _, _, code in found] == [b.code for b in page.blocks]  # the hook's scan finds the same blocks
    marked = fences.numpy_blocks(text, NEEDS)
    expected = [chain_needs_numpy([b.code for b in page.chain(block)], NEEDS) for block in page.blocks]
    assert [offset in marked for offset, _, _ in found] == expected


def test_a_continuation_inherits_its_chain_s_need_and_a_new_chain_starts_clean():
    text = (
        "```{.python}\nimport numpy as np\n```\n\n"
        "```{.python continuation}\nprint(np.ones(2))\n```\n\n"
        "```{.python}\nfrom minigrad.scalar import Value\n```\n\n"
        "- item\n\n    ```{.python}\n    from minigrad.tensor import Tensor\n    ```\n"
    )
    found = fences.python_blocks(text)
    marked = fences.numpy_blocks(text, NEEDS)
    assert [offset in marked for offset, _, _ in found] == [True, True, False, True]
    assert found[3][2] == "from minigrad.tensor import Tensor\n"  # indented fence, dedented code
    html = fences.transform(text)
    assert html.count('data-numpy="1"') == 3
    assert '{.python data-continuation="1" data-block="1" data-chain="0 1" data-numpy="1"}' in html
