"""The build marks each block whose chain needs NumPy (minigrad_site/pages/fences.py's `data-numpy`),
so the browser fetches the wheel at the reader's first intent on it.

The mark is what the worker decides before the run: the same `chain_needs_numpy`, over the
chain as the doc tests take it; the build and the doc tests read the page with one fence
reader (minigrad_site/fence_reader.py), so there is no second parse to agree with.
"""

from minigrad.runner.numpy_needs import numpy_needs
from minigrad_site.pages import fences

NEEDS = numpy_needs()


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
