"""One rule for which blocks a block's run executes (minigrad.runner.chains), and the page carries it.

The doc tests take chains from the rule through tests/markdown_blocks.py; the
build writes each Python block's chain into its fence (minigrad_site/pages/fences.py's
data-block and data-chain), and the browser runs that list as it is given.
"""

import re
from pathlib import Path

import pytest
from markdown_blocks import parse_page

from minigrad.runner.chains import chains

ROOT = Path(__file__).resolve().parents[1]
PAGES = sorted((ROOT / "docs").rglob("*.md"))
from minigrad_site.pages import fences  # noqa: E402
CHAIN = re.compile(r'data-block="(\d+)" data-chain="([\d ]*)"')


@pytest.mark.parametrize(
    "flags, expected",
    [
        ([], []),
        ([(False, False)], [[0]]),
        ([(False, False), (True, False), (True, False)], [[0], [0, 1], [0, 1, 2]]),
        ([(False, False), (False, False), (True, False)], [[0], [1], [1, 2]]),  # a new chain starts clean
        ([(False, False), (True, True), (True, False)], [[0], [0], [0, 2]]),  # notest: shown, never run
        ([(False, True), (True, False)], [[], [1]]),
        ([(True, False), (True, False)], [[0], [0, 1]]),  # a page that opens with a continuation
    ],
)
def test_a_chain_goes_back_over_continuations_and_leaves_out_notest_blocks(flags, expected):
    assert chains(flags) == expected


@pytest.mark.parametrize("path", PAGES, ids=lambda p: str(p.relative_to(ROOT / "docs")))
def test_every_python_block_carries_the_chain_the_doc_tests_run(path):
    page = parse_page(path)
    marked = CHAIN.findall(fences.transform(path.read_text(encoding="utf-8")))
    assert [int(index) for index, _ in marked] == list(range(len(page.blocks)))  # every block, in page order
    for block, (_, chain) in zip(page.blocks, marked):
        assert [page.blocks[int(i)] for i in chain.split()] == page.chain(block)
