"""Read a page's code blocks the way the doc tests, the parity check and the
browser runner all see them: Python blocks, their options, and the output
blocks that follow them.

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
import shlex
from dataclasses import dataclass, field
from pathlib import Path

import yaml
from markdown_it import MarkdownIt

from minigrad.runner.chains import chains

PYTHON = {"py", "python", "python3"}
# Blocks and their line maps only: without the inline rules a page parses in half the time (every doc test parses its page).
_PARSER = MarkdownIt("commonmark").disable("inline")
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


def parse_info(info):
    """`{.python continuation a="b c"}` -> ('python', {'continuation'}, {'a': 'b c'}, {'classes'})."""
    info = info.strip()
    if not info.startswith("{"):
        parts = info.split()
        return (parts[0] if parts else ""), set(parts[1:]), {}, set()
    lang, options, attrs, classes = "", set(), {}, set()
    for part in shlex.split(info.strip("{}")):
        if part.startswith("."):
            lang, classes = (part[1:], classes) if not lang else (lang, classes | {part[1:]})
        elif "=" in part:
            key, value = part.split("=", 1)
            attrs[key] = value
        else:
            options.add(part)
    return lang, options, attrs, classes


def parse_page(path):
    path = Path(path)
    text = path.read_text(encoding="utf-8")
    match = _FRONT_MATTER.match(text)
    front = (yaml.safe_load(match.group(1)) or {}) if match else {}
    blocks, previous_end = [], None
    tokens = _PARSER.parse(text)
    for token in tokens:
        if token.type != "fence" or not token.map:
            previous_end = token.map[1] if token.map else previous_end
            continue
        lang, options, attrs, classes = parse_info(token.info)
        first, end = token.map
        if lang in PYTHON:
            blocks.append(Block(token.content, first + 1, options, attrs, classes=classes))
        elif "output" in classes or "picture" in classes:
            if not blocks or previous_end is None or text.splitlines()[previous_end:first] != [""] * (first - previous_end):
                raise ValueError(f"{path}:{first + 1}: an output block must follow a Python block")
            blocks[-1].outputs.append(Output(token.content, "broken" in classes, first + 1, (first + 1, end - 1), "picture" in classes))
        previous_end = end
    return Page(path, front, blocks)


def split_comments(code):
    """The code without comments (translations may translate comments only)."""
    import io
    import tokenize

    kept = [tok for tok in tokenize.generate_tokens(io.StringIO(code).readline) if tok.type != tokenize.COMMENT]
    return re.sub(r"[ \t]+\n", "\n", tokenize.untokenize(kept))
