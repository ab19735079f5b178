"""minigrad_site/fence_reader.py, the one reader of a page's fences: the build's Run blocks and
pictures and the doc tests (tests/markdown_blocks.py) all read pages through it."""

import pytest
from markdown_blocks import parse_page

from minigrad_site import fence_reader
from minigrad_site.pages import fences, pictures

PAGE = (
    "Intro\n\n"
    "```{.python continuation broken=\"raises ValueError: shapes (2,) and (3,)\"}\n"
    "x = 1\n```\n\n"
    "```{.text .output}\n1\n```\n\n"
    "- a list\n\n"
    "    ~~~~python\n    y = 2\n      z = 3\n    ~~~~\n\n"
    "````markdown\n```python\nnot a block of its own\n```\n````\n\n"
    "Inline ```python``` in prose is no fence.\n\n"
    "```dot\nunclosed"
)


def test_every_fence_with_its_info_content_and_place():
    found = fence_reader.read(PAGE)
    assert [(f.lang, f.line) for f in found] == [("python", 3), ("text", 7), ("python", 13), ("markdown", 18), ("dot", 26)]
    python, output, indented, nested, unclosed = found
    assert python.options == {"continuation"} and python.attrs == {"broken": "raises ValueError: shapes (2,) and (3,)"}
    assert output.classes == {"output"} and output.content == "1\n" and output.content_lines == (7, 8)
    assert indented.content == "y = 2\n  z = 3\n"  # the opening's indentation removed, no more
    assert PAGE[indented.ticks_at:].startswith("~~~~python") and PAGE[indented.start:indented.ticks_at] == "    "
    assert nested.content == "```python\nnot a block of its own\n```\n"  # a longer fence holds shorter ones
    assert unclosed.content == "unclosed" and unclosed.end == len(PAGE)  # runs to the end of the page
    assert PAGE[python.start:python.end].endswith("x = 1\n```\n")


def test_tokens_keep_their_order_and_both_spellings_read_the_same():
    assert fence_reader.tokens('{.python continuation broken="raises X: y z"}') == [".python", "continuation", "broken=raises X: y z"]
    assert fence_reader.tokens("python notest") == [".python", "notest"]
    assert fence_reader.parse_info("{.dot .picture .broken}") == ("dot", set(), {}, {"picture", "broken"})
    assert fence_reader.parse_info("py") == ("py", set(), {}, set())


def test_the_build_and_the_doc_tests_see_the_same_blocks(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(PAGE, encoding="utf-8")
    assert [code for _, _, code in fences.python_blocks(PAGE)] == [b.code for b in parse_page(page).blocks]
    assert [o.text for o in parse_page(page).blocks[0].outputs] == ["1\n"]


def test_an_output_parted_from_its_code_by_prose_is_refused(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("```python\nprint(1)\n```\n\nSome prose.\n\n```{.text .output}\n1\n```\n", encoding="utf-8")
    with pytest.raises(ValueError, match="page.md:7: an output block must follow a Python block"):
        parse_page(page)


def test_a_picture_and_its_broken_twin_are_one_picture_and_an_indented_one_is_none():
    text = ('```{.python break="overwrite-grad"}\ndraw()\n```\n\n```{.dot .picture}\ndigraph { a }\n```\n\n'
            "```{.dot .picture .broken}\ndigraph { b }\n```\n\n- item\n\n    ```{.json .picture}\n    []\n    ```\n")
    (drawn,) = pictures.picture_blocks(text)
    assert (drawn.lang, drawn.healthy, drawn.broken, drawn.slug) == ("dot", "digraph { a }", "digraph { b }", "overwrite-grad")
    assert text[drawn.start:drawn.end] == "```{.dot .picture}\ndigraph { a }\n```\n\n```{.dot .picture .broken}\ndigraph { b }\n```\n"
