"""Read a page's code blocks the way the doc tests, the parity check and the
browser runner all see them: Python blocks, their options, and the output
blocks that follow them, through the build's own fence reader
(minigrad_site/fence_reader.py), so the tests and the site read one page.

Block options use pymdownx.superfences' brace syntax, so Material renders them
as classes and attributes the browser runner reads from the page:

    ```{.python continuation broken="raises ValueError: non-broadcastable"}
    ```{.text .output}            what the block prints (healthy; broken too if same)
    ```{.text .output .broken}    what it prints with the page's break applied
    ```{.dot .picture}            what it draws (minigrad.viz: DOT of a graph, JSON of a curve)
    ```{.dot .picture .broken}    what it draws with the break applied (when that differs)
    ```{.python .claims}          a claims block: prints what the prose claims (tests/prose_numbers.py)

`broken` is `same` (the default: the break changes nothing this block
prints), `silent` (the output changes, nothing raises) or `raises Type: text`.
`raises="Type: text"` declares that the healthy run raises. `notest` needs a
`reason="..."`, which the page shows. `break="<slug>"` gives one block a break
of its own (the home page's), where the page has none.
"""

import re
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from minigrad.runner.chains import chains
from minigrad_site import fence_reader
from minigrad_site.fence_reader import PYTHON, parse_info  # noqa: F401  (the doc tests' names for them)

_FRONT_MATTER = re.compile(r"\A---\n(.*?)\n---\n", re.S)


@dataclass
class Output:
    text: str
    broken: bool
    line: int  # 1-based line of the opening fence
    content_lines: tuple  # (first, last) 0-based line indexes of the content, end exclusive
    picture: bool = False  # a picture block (minigrad_site/pages/pictures.py renders it), not printed output


@dataclass
class Block:
    code: str
    line: int  # 1-based line of the opening fence
    options: set
    attrs: dict
    outputs: list = field(default_factory=list)
    classes: set = field(default_factory=set)  # `{.python .claims}`: a claims block (tests/prose_numbers.py)

    @property
    def continuation(self):
        return "continuation" in self.options

    @property
    def notest(self):
        return "notest" in self.options

    @property
    def claims(self):
        return "claims" in self.classes

    @property
    def broken(self):
        """('same'|'silent'|'raises', fragment)."""
        value = self.attrs.get("broken", "same")
        kind, _, fragment = value.partition(" ")
        if kind not in ("same", "silent", "raises") or (kind == "raises") != bool(fragment.strip()):
            raise ValueError(f'line {self.line}: broken="{value}" must be same, silent, or "raises Type: text"')
        return kind, fragment.strip()

    def output(self, broken):
        for out in self.outputs:
            if out.broken == broken and not out.picture:
                return out
        return None

    def picture(self, broken):
        for out in self.outputs:
            if out.broken == broken and out.picture:
                return out
        return None


@dataclass
class Page:
    path: Path
    front_matter: dict
    blocks: list  # Python blocks only, in page order

    @property
    def break_slug(self):
        return self.front_matter.get("minigrad_break")

    def slug_of(self, block):
        """The break a block runs with: its own `break=`, else the page's."""
        return block.attrs.get("break") or self.break_slug

    def block_at(self, line):
        for block in self.blocks:
            if block.line == line:
                return block
        raise LookupError(f"{self.path}: no Python block starts at line {line}")

    def chain(self, block):
        """The blocks that run before `block` in its namespace, then `block` (minigrad.runner.chains' rule)."""
        order = chains([(b.continuation, b.notest) for b in self.blocks])[self.blocks.index(block)]
        return [self.blocks[i] for i in order]

    def runnable_chain(self, block):
        """`chain` as minigrad.runner.blocks runs it: named after the page, at the page's line numbers."""
        from minigrad.runner.blocks import Block as RunBlock

        return [RunBlock(b.code, str(self.path), b.line + 1) for b in self.chain(block)]


def parse_page(path):
    """The page's Python blocks, each with the output and picture blocks that follow it (only
    blank lines between), read by the site's own fence reader (minigrad_site.fence_reader)."""
    path = Path(path)
    text = path.read_text(encoding="utf-8")
    match = _FRONT_MATTER.match(text)
    front = (yaml.safe_load(match.group(1)) or {}) if match else {}
    lines, blocks, previous = text.splitlines(), [], None
    for fence in fence_reader.read(text):
        lang, options, attrs, classes = fence.parts
        if lang in PYTHON:
            blocks.append(Block(fence.content, fence.line, options, attrs, classes=classes))
        elif "output" in classes or "picture" in classes:
            follows = previous is not None and (previous.python or {"output", "picture"} & previous.classes)
            if not blocks or not follows or not fence_reader.blank_between(lines, previous.end_line, fence.line - 1):
                raise ValueError(f"{path}:{fence.line}: an output block must follow a Python block")
            blocks[-1].outputs.append(Output(fence.content, "broken" in classes, fence.line, fence.content_lines, "picture" in classes))
        previous = fence
    return Page(path, front, blocks)


def split_comments(code):
    """The code without comments (translations may translate comments only)."""
    import io
    import tokenize

    kept = [tok for tok in tokenize.generate_tokens(io.StringIO(code).readline) if tok.type != tokenize.COMMENT]
    return re.sub(r"[ \t]+\n", "\n", tokenize.untokenize(kept))
