"""The browser worker's Python side: runner/worker/main.js imports this once Pyodide starts.

worker.js keeps what only JavaScript can do (messages, fetches, the interrupt
buffer); everything it asks of Python is here, so it is linted, counted and
tested like the rest (tests/test_runner_worker.py). A run goes through
minigrad.runner.blocks.run_chain, the function CI uses, and its pictures
through minigrad.runner.pictures, the rules the build uses.
"""

import contextlib
import functools
import io
import json
import signal
import sys

from minigrad.runner import pictures
from minigrad.runner.blocks import Block, run_chain
from minigrad.runner.numpy_needs import chain_json_needs_numpy

__all__ = ["runner", "hear_stops", "learner_files", "chain_json_needs_numpy", "LEARNER"]

LEARNER = "/home/pyodide/learner"  # where a reader's package folder is written


class LineStream(io.TextIOBase):
    """Line-buffered: print() writes the text and its newline separately; one message per line."""

    def __init__(self, write):
        self._write, self._pending = write, ""

    def writable(self):
        return True

    def write(self, text):
        self._pending += text
        if "\n" in text:
            lines, _, self._pending = self._pending.rpartition("\n")
            self._write(lines + "\n")
        return len(text)

    def flush(self):
        if self._pending:
            self._write(self._pending)
            self._pending = ""

    def reset(self):
        """What a stopped run left half-written is not the next run's."""
        self._pending = ""


def runner(write):
    """The run function, given the worker's output callback once: a JS function passed with
    every run would cost its proxy each time, as would a new stream."""
    stream = LineStream(write)

    def run(blocks_json, slug, picture_json, repair=""):
        """One run: its result as JSON text (the "done" message's fields, worker.js). `repair`, a
        break's slug: the block is the reader's repair of it, and the run checks it instead."""
        blocks = repair_check(repair, parsed(blocks_json)[-1]) if repair else parsed(blocks_json)
        stream.reset()
        try:
            result = run_chain(blocks, slug=slug or None, stdout=stream)
        finally:
            stream.flush()  # a last line without a newline, or what was printed before Stop
        options = json.loads(picture_json or "{}")
        drawn = [picture(kind, text, slug, options, blocks) for kind, text in result.pictures[-1:]]
        earlier = [{"name": f.name, "error": type(f.error).__name__, "traceback": f.traceback} for f in result.earlier_failures]
        error = type(result.error).__name__ if result.error is not None else None
        return json.dumps({"error": error, "traceback": result.traceback, "exit_code": result.exit_code,
                           "earlier": earlier, "pictures": drawn})

    return run


def repair_check(slug, block):
    """The chain that checks a reader's repair (minigrad.repair.check): their text goes in as a string
    literal, never as code, so its tracebacks are the check's, named for what the reader sees."""
    code = f"from minigrad.repair import check\ncheck({slug!r}, {block.code!r})\n"
    return (Block(code=code, name="<check>", first_line=1),)


@functools.lru_cache(maxsize=64)
def parsed(blocks_json):
    """A chain run again unchanged (the common case) is not parsed again."""
    return tuple(Block(**b) for b in json.loads(blocks_json))


def picture(kind, text, slug, options, blocks):
    """What a run drew, ready to render: a graph as DOT (marked where the break changed it), a
    curve as SVG beside the same block's last run the other way (options["other"])."""
    lang, broken = options.get("lang", "en"), bool(slug)
    if kind == "graph":
        healthy = healthy_graph(blocks) if broken else None
        return {"kind": kind, "text": text, **pictures.graph(text, lang, broken, healthy, slug)}
    other = options.get("other")
    healthy, unhealthy = (other, text) if broken else (text, other)
    return {"kind": kind, "text": text, **pictures.curve(healthy, unhealthy, lang, options.get("slug", slug))}


def healthy_graph(blocks):
    """What the same code draws healthy, so the page marks what the break changed whatever ran
    before (a healthy run or none; edited code too); its output is not shown. None: it drew no
    graph, or it raised, or Stop came during it (the broken run's result stands, unmarked)."""
    try:
        with contextlib.redirect_stderr(io.StringIO()):  # its warnings too
            drawn = run_chain(blocks).pictures[-1:]
    except BaseException:
        return None
    return drawn[0][1] if drawn and drawn[0][0] == "graph" else None


def hear_stops(heard):
    """Stop's interrupt (SIGINT) calls heard before it raises KeyboardInterrupt. Pyodide 0.28
    takes a signal from its buffer in two steps, read then clear, and one written between them
    is lost (CPython gh-157548): the page presses Stop again until Python says it heard it, and
    only then waits for the run's finally blocks."""

    def interrupted(signum, frame):
        heard()
        raise KeyboardInterrupt

    signal.signal(signal.SIGINT, interrupted)


def learner_files(files_json, home=LEARNER):
    """A reader's package folder, written under `home` in place of the last one: the modules and
    path entries that came from there are forgotten, so a folder loaded again is imported again.
    A path that leaves `home`, or is not a .py file, is not written."""
    import importlib
    import os
    import shutil

    shutil.rmtree(home, ignore_errors=True)
    for name, module in list(sys.modules.items()):
        if (getattr(module, "__file__", None) or "").startswith(home + "/"):
            del sys.modules[name]
    sys.path[:] = [p for p in sys.path if not str(p).startswith(home)]
    for f in json.loads(files_json):
        path = os.path.normpath(os.path.join(home, f["path"]))
        if path.startswith(home + "/") and path.endswith(".py"):
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8") as out:
                out.write(f["text"])
    importlib.invalidate_caches()
