"""Which blocks a block's run executes: the one rule, for CI, the build and the browser.

A `continuation` block runs in the namespace of the blocks before it, back to
the first block that is not a continuation; `notest` blocks are shown, never
run, so no chain includes them. The doc tests (tests/markdown_blocks.py) take
chains from here, and the build (minigrad_site/pages/fences.py) writes each block's chain
into the page as `data-chain`, so the browser runs what CI ran without
knowing the rule.
"""

__all__ = ["chains"]


def chains(blocks):
    """[(continuation, notest)] in page order -> for each block, the indexes its run executes, in order."""
    out, start = [], 0
    for index, (continuation, _) in enumerate(blocks):
        if not continuation:
            start = index
        out.append([i for i in range(start, index + 1) if not blocks[i][1]])
    return out
