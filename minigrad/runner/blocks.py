"""Run a page's code blocks: the one way CI (conftest.py), Node and the browser do it.

A block runs after the blocks it continues, in a fresh namespace, healthy or
inside `applied(slug)`; only the last block's output is shown. Each block is
compiled under its own name (`<block 3>`) and registered with linecache, so a
traceback points at the reader's line and shows it, and the runner's own
frames are left out, for every kind of error: a `SyntaxError` reads as Python
prints it for a script, `sys.exit(3)` as the program exiting with code 3.

What a reader meets here is the same everywhere because it is decided here:
an earlier block that raised is kept beside the last block's report (otherwise
its effect is a puzzling `NameError` later), not in it, so the last block's
own output and traceback read as the page shows them; `input()` says to assign
the value instead, and a missing package lists the ones the browser offers.

A page's own language reaches the doctor through `minigrad_page` (its report
is worded in it, and on a page it shows links, not repository paths). In the
browser the worker registers that module; elsewhere (CI, the Node harness)
`run_chain(..., lang=page_language(path))` puts a stand-in in its place for the
chain, so a page's blocks print there what they print on the page.
"""

import builtins
import contextlib
import functools
import io
import linecache
import sys
import traceback
import types
from typing import NamedTuple

from minigrad.breaks import applied
from minigrad.runner.languages import page_language  # noqa: F401 (the doc tests read a page's language here)

AVAILABLE_PACKAGES = ("numpy", "minigrad")  # what the browser runner loads besides the standard library


# No dataclasses here (nor in patch.py and __init__.py): the browser's worker imports this
# module as Python starts, and importing `dataclasses` costs about 40 ms of that in Pyodide.
class Block(NamedTuple):
    code: str
    name: str = "<block>"  # what tracebacks call it
    first_line: int = 1  # line number of the code's first line in that name


class Failure(NamedTuple):
    """An earlier block of the chain that raised: the rest of it did not run."""
    name: str  # the block's name, as tracebacks call it
    error: BaseException
    traceback: str  # the reader's traceback of it (only the reader's frames)
    first_line: int = 1  # as the block's


class Result:
    def __init__(self, output, error=None, traceback="", earlier_failures=None, pictures=None):
        self.output = output  # what the last block printed (stdout), then its error summary line if it raised
        self.error = error
        self.traceback = traceback  # the last block's own traceback, as a reader reads it ("" if it did not raise)
        self.earlier_failures = [] if earlier_failures is None else earlier_failures  # [Failure] before it, in order
        self.pictures = [] if pictures is None else pictures  # [(kind, text)] the last block drew (minigrad.viz)

    @property
    def earlier(self):
        """Names of the earlier blocks of the chain that raised."""
        return [failure.name for failure in self.earlier_failures]

    @property
    def report(self):
        """The whole story as one text, for logs: each earlier block that raised, then this block's traceback."""
        parts = [f"{_called(f)} raised an error, so the rest of it did not run:\n{f.traceback}\n" for f in self.earlier_failures]
        if self.traceback:
            parts.append(("Then this block raised:\n" if parts else "") + self.traceback)
        return "".join(parts).rstrip("\n") + "\n" if parts else ""

    @property
    def summary(self):
        """The `Type: message` line of the error, as doc pages show it."""
        if isinstance(self.error, SystemExit):
            return _exit_line(self.error)
        return "".join(traceback.format_exception_only(self.error)) if self.error else ""

    @property
    def exit_code(self):
        """The code a `sys.exit()` ended the last block with (as a process would exit), else None."""
        if not isinstance(self.error, SystemExit):
            return None
        code = self.error.code
        return 0 if code is None else code if isinstance(code, int) else 1


def run_chain(blocks, slug=None, stdout=None, lang=None):
    """Run `blocks` in order in one namespace; report what the last one did.

    Each chain starts as a fresh interpreter would, with minigrad.nn's default
    seed, so a page prints the same in CI, in Node and on a reader's second Run.
    Earlier blocks only set the scene: their output is discarded, and when one
    raises the next still runs (as in a notebook; pages rely on it), and the
    result keeps it apart (`earlier_failures`): the last block's output and
    traceback are its own, as the page shows them. The last block writes to
    `stdout` (default: a buffer) as it runs, so a browser can stream it.
    `slug` runs everything inside that break. `lang` (outside the browser) runs it
    as on a page of that language: with a stand-in of the worker's `minigrad_page`.
    """
    namespace = {"__name__": "__main__", "__builtins__": _READER_BUILTINS}
    context = applied(slug) if slug else contextlib.nullcontext()
    failures = []
    with context, _page_channel(lang):
        nn = sys.modules.get("minigrad.nn")  # the copy in use; one imported later starts from DEFAULT_SEED itself,
        if nn is not None:  # and importing it here would load NumPy into scalar chains (issue 15)
            nn.manual_seed(nn.DEFAULT_SEED)  # as in a fresh interpreter, whatever ran before
        for block in blocks[:-1]:
            error = _run(block, namespace, io.StringIO())
            if error is not None:
                failures.append(Failure(block.name, error, _reader_traceback(error), block.first_line))
        buffer, pictures = io.StringIO(), []
        with _picture_channel(pictures):
            error = _run(blocks[-1], namespace, _Tee(buffer, stdout) if stdout else buffer)
    result = Result(buffer.getvalue(), error, earlier_failures=failures, pictures=pictures)
    if error is not None:
        result.output += result.summary
        result.traceback = _reader_traceback(error)
    return result


def _called(failure):
    where = f" (from line {failure.first_line})" if failure.first_line > 1 else ""
    return f"The earlier block {failure.name}{where}"


def _run(block, namespace, out):
    source = "\n" * (block.first_line - 1) + block.code
    linecache.cache[block.name] = (len(source), None, source.splitlines(keepends=True), block.name)
    with contextlib.redirect_stdout(out):
        try:
            exec(_compiled(source, block.name), namespace)
        except (Exception, SystemExit) as error:  # the caller decides whether it was expected; Stop's KeyboardInterrupt passes
            _explain(error)
            return error
    return None


@functools.lru_cache(maxsize=256)
def _compiled(source, name):
    """A block run again unchanged (the reader's second Run) skips compiling: a third of a small block's time."""
    return compile(source, name, "exec")


def _explain(error):
    """A missing package: say what there is (the browser cannot pip install)."""
    note = (f"These blocks can import {', '.join(AVAILABLE_PACKAGES)} and Python's standard library; "
                       "the browser runner has no other package.")
    missing = isinstance(error, ModuleNotFoundError) and error.name and error.name.split(".")[0] not in AVAILABLE_PACKAGES
    if missing and note not in getattr(error, "__notes__", ()):
        error.add_note(note)


def _no_input(prompt=""):
    """input() has no keyboard to read from here (Pyodide would say `OSError: [Errno 29] I/O error`)."""
    raise EOFError("input() cannot read here: the blocks run without a keyboard. "
                   "Assign the value in the code instead, e.g. `answer = 42`.")


_READER_BUILTINS = {**vars(builtins), "input": _no_input}


def _exit_line(error):
    code = error.code
    if code is None or isinstance(code, int):
        return f"SystemExit: the program exited with code {code or 0}\n"
    return f"SystemExit: the program exited with code 1: {code}\n"  # sys.exit("message"), as Python does


@contextlib.contextmanager
def _picture_channel(pictures):
    """`minigrad_picture`, the module minigrad.viz hands pictures to, recording into `pictures`."""
    channel = types.ModuleType("minigrad_picture")
    channel.show = lambda kind, text: pictures.append((str(kind), str(text)))
    with _module("minigrad_picture", channel):
        yield


def _page_channel(lang):
    """The worker's `minigrad_page` (runner/worker/main.js), where there is none: the
    page's language(), and links() and progress() that show nothing, since no page is there to show them."""
    if lang is None:
        return contextlib.nullcontext()
    page = types.ModuleType("minigrad_page")
    page.language, page.links, page.progress = (lambda: lang), (lambda links_json: None), (lambda check, case: None)
    return _module("minigrad_page", page)


@contextlib.contextmanager
def _module(name, module):
    previous = sys.modules.get(name)
    sys.modules[name] = module
    try:
        yield
    finally:
        if previous is None:
            del sys.modules[name]
        else:
            sys.modules[name] = previous


def _reader_traceback(error):
    """Only the reader's frames: ours (this file) are noise. A SyntaxError has none: Python prints no header."""
    if isinstance(error, SystemExit):
        return _exit_line(error)
    here = _run.__code__.co_filename
    frames = [f for f in traceback.extract_tb(error.__traceback__) if f.filename != here]
    lines = ["Traceback (most recent call last):\n"] + traceback.format_list(frames) if frames else []
    return "".join(lines + traceback.format_exception_only(error))


class _Tee(io.TextIOBase):
    def __init__(self, *streams):
        self.streams = streams

    def write(self, text):
        for stream in self.streams:
            stream.write(text)
        return len(text)

    def flush(self):
        for stream in self.streams:
            stream.flush()
