"""One rule for which blocks a block's run executes (minigrad.runner.chains), and the page carries it.

The doc tests take chains from the rule through tests/markdown_blocks.py; the
build writes each Python block's chain into its fence (minigrad_site/pages/fences.py's
data-block and data-chain), and the browser runs that list as it is given. Both read the
page with minigrad_site/fence_reader.py, so they see the same blocks.
"""

import re

import pytest

from minigrad.runner.chains import chains
from minigrad_site.pages import fences

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


def test_the_build_writes_each_block_s_chain_into_its_fence():
    text = ("```python\nx = 1\n```\n\n```{.python continuation}\nprint(x)\n```\n\n"
            "```{.python continuation notest reason=\"shown\"}\nwhile True: pass\n```\n\n```{.python continuation}\nprint(x + 1)\n```\n")
    assert CHAIN.findall(fences.transform(text)) == [("0", "0"), ("1", "0 1"), ("2", "0 1"), ("3", "0 1 3")]
