"""The one reader of a page's fenced blocks: the build's transforms (Run blocks, pictures) and
the doc tests (tests/markdown_blocks.py) read a page through it, so they cannot disagree on
which blocks a page has, what they hold, or their options.

Block options use pymdownx.superfences' brace syntax:

    ```{.python continuation broken="raises ValueError: non-broadcastable"}
    ```{.text .output}            ```{.dot .picture .broken}

A fence opens with three or more backticks or tildes at any indentation (superfences
nests them in lists and admonitions) and closes at the next line of at least as many of
the same character; unclosed, it runs to the end of the page. Its content loses the
opening line's indentation.
"""

import re
import shlex
from dataclasses import dataclass
from functools import cached_property

PYTHON = {"py", "python", "python3"}
OPENING = re.compile(r"^(?P<indent>[ \t]*)(?P<ticks>`{3,}|~{3,})(?P<info>[^\n]*)$")


@dataclass(frozen=True)
class Fence:
    info: str  # the opening line after the ticks, as written
    content: str  # the lines between the fences, less the opening's indentation
    line: int  # 1-based line of the opening fence
    end_line: int  # 0-based index of the line after the closing fence
    start: int  # offset of the opening line
    ticks_at: int  # offset of the opening ticks
    end: int  # offset after the closing line, its newline included

    @cached_property  # read once: the transforms ask a fence for its parts many times
    def parts(self):
        return parse_info(self.info)

    @property
    def lang(self):
        return self.parts[0]

    @property
    def options(self):
        return self.parts[1]

    @property
    def attrs(self):
        return self.parts[2]

    @property
    def classes(self):
        return self.parts[3]

    @property
    def python(self):
        return self.lang in PYTHON

    @property
    def content_lines(self):
        """(first, last) 0-based line indexes of the content, end exclusive."""
        return self.line, self.end_line - 1


def read(markdown):
    """Every fenced block of the page, in order."""
    lines = markdown.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))
    fences, i = [], 0
    while i < len(lines):
        opening = OPENING.match(lines[i].rstrip("\n"))
        if not opening or (opening["ticks"][0] == "`" and "`" in opening["info"]):
            i += 1
            continue
        indent, ticks = opening["indent"], opening["ticks"]
        closing = re.compile(rf"^[ \t]*{re.escape(ticks[0])}{{{len(ticks)},}}[ \t]*$")
        end = next((j for j in range(i + 1, len(lines)) if closing.match(lines[j].rstrip("\n"))), len(lines))
        content = "".join(line[len(indent):] if line.startswith(indent) else line.lstrip() for line in lines[i + 1:end])
        after = min(end + 1, len(lines))
        fences.append(Fence(opening["info"], content, i + 1, after, starts[i], starts[i] + len(indent), starts[after]))
        i = after
    return fences


def tokens(info):
    """The info's parts in order, in the brace syntax: `python x` and `{.python x}` -> ['.python', 'x']."""
    info = info.strip()
    if info.startswith("{"):
        return shlex.split(info.strip("{}"))
    lang, _, rest = info.partition(" ")
    return [f".{lang}", *shlex.split(rest)] if lang else []


def parse_info(info):
    """`{.python continuation a="b c"}` -> ('python', {'continuation'}, {'a': 'b c'}, {'classes'})."""
    lang, options, attrs, classes = "", set(), {}, set()
    for part in tokens(info):
        if part.startswith("."):
            lang, classes = (part[1:], classes) if not lang else (lang, classes | {part[1:]})
        elif "=" in part:
            key, value = part.split("=", 1)
            attrs[key] = value
        else:
            options.add(part)
    return lang, options, attrs, classes


def blank_between(markdown_lines, first, last):
    """Whether lines first..last (0-based, end exclusive) are all blank: an output block must follow its code."""
    return all(not line.strip() for line in markdown_lines[first:last])
