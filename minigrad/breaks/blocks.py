"""Run a page's code blocks: the one way CI (conftest.py), Node and the browser do it.

A block runs after the blocks it continues, in a fresh namespace, healthy or
inside `applied(slug)`; only the last block's output is shown. Each block is
compiled under its own name (`<block 3>`) and registered with linecache, so a
traceback points at the reader's line and shows it, and the runner's own
frames are left out.
"""

import contextlib
import io
import linecache
import sys
import traceback
import types
from dataclasses import dataclass, field

from . import applied


@dataclass
class Block:
    code: str
    name: str = "<block>"  # what tracebacks call it
    first_line: int = 1  # line number of the code's first line in that name


@dataclass
class Result:
    output: str  # what the last block printed (stdout), then its error summary line if it raised
    error: BaseException = None
    traceback: str = ""  # the full traceback, from the reader's own frames down
    pictures: list = field(default_factory=list)  # [(kind, text)] the last block drew (minigrad.viz)

    @property
    def summary(self):
        """The `Type: message` line of the error, as doc pages show it."""
        return "".join(traceback.format_exception_only(self.error)) if self.error else ""


def run_chain(blocks, slug=None, stdout=None):
    """Run `blocks` in order in one namespace; report what the last one did.

    Each chain starts as a fresh interpreter would, with minigrad.nn's default
    seed, so a page prints the same in CI, in Node and on a reader's second Run.
    Earlier blocks only set the scene: their output is discarded. The last
    block writes to `stdout` (default: a buffer) as it runs, so a browser can
    stream it. `slug` runs everything inside that break.
    """
    namespace = {"__name__": "__main__"}
    context = applied(slug) if slug else contextlib.nullcontext()
    with context:
        from minigrad import nn  # the copy in use: healthy, or broken by `slug`

        nn.manual_seed(nn.DEFAULT_SEED)  # as in a fresh interpreter, whatever ran before
        for block in blocks[:-1]:
            _run(block, namespace, io.StringIO())
        buffer, pictures = io.StringIO(), []
        with _picture_channel(pictures):
            error = _run(blocks[-1], namespace, _Tee(buffer, stdout) if stdout else buffer)
    result = Result(buffer.getvalue(), error, pictures=pictures)
    if error is not None:
        result.output += result.summary
        result.traceback = _reader_traceback(error)
    return result


def _run(block, namespace, out):
    source = "\n" * (block.first_line - 1) + block.code
    linecache.cache[block.name] = (len(source), None, source.splitlines(keepends=True), block.name)
    code = compile(source, block.name, "exec")
    with contextlib.redirect_stdout(out):
        try:
            exec(code, namespace)
        except Exception as error:  # the caller decides whether it was expected
            return error
    return None


@contextlib.contextmanager
def _picture_channel(pictures):
    """`minigrad_picture`, the module minigrad.viz hands pictures to, recording into `pictures`."""
    channel = types.ModuleType("minigrad_picture")
    channel.show = lambda kind, text: pictures.append((str(kind), str(text)))
    previous = sys.modules.get("minigrad_picture")
    sys.modules["minigrad_picture"] = channel
    try:
        yield
    finally:
        if previous is None:
            del sys.modules["minigrad_picture"]
        else:
            sys.modules["minigrad_picture"] = previous


def _reader_traceback(error):
    """The traceback from the first frame of the reader's code on (ours are noise)."""
    frames = traceback.extract_tb(error.__traceback__)
    start = next((i for i, f in enumerate(frames) if f.filename != _run.__code__.co_filename), 0)
    lines = ["Traceback (most recent call last):\n"] + traceback.format_list(frames[start:])
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

