"""What pytest-markdown-docs lacks for this site, as a runner of ours.

pytest-markdown-docs collects every Python block of every page (superfences
syntax) and hands each to the default runner. The runner registered here
replaces that default: it re-reads the block's page (tests/markdown_blocks.py),
runs the block's chain of `continuation` blocks in a fresh namespace, block by
block so that it knows what *this* block printed, and checks

- the output block(s) under it, healthy and, on a break page (front matter
  `minigrad_break: <slug>`), with the break applied through the same
  `minigrad.breaks.applied` that the browser uses;
- what the block declares about its broken run (`broken="same|silent|raises
  Type: text"`), so a block that fails in another way than declared fails.

- the picture block(s) under it (`{.dot .picture}`, `{.json .picture .broken}`):
  what the block draws now with minigrad.viz, healthy and broken, so a picture
  on a page cannot go stale (minigrad_site/pages/pictures.py renders them at build time).

`pytest --update-outputs` rewrites the output and picture blocks from real
runs instead of failing on a difference (and inserts missing ones):
regenerate, then read the diff before committing.
"""

import difflib
import sys
from pathlib import Path

import pytest
from pytest_markdown_docs._runners import DefaultRunner, register_runner

sys.path.insert(0, str(Path(__file__).parent / "tests"))

from break_warnings import broken_copy_warnings_expected  # noqa: E402
from markdown_blocks import parse_page  # noqa: E402

from minigrad.runner import blocks  # noqa: E402
from minigrad_site.build import node_modules  # noqa: E402

pytest_plugins = ["parallel", "learner_cli", "suite_timing"]  # tests/parallel.py: how the suite shares two cores; learner_cli: the `tree` fixture

_updates = {}  # path -> {output key: new text}


def pytest_addoption(parser):
    parser.addoption(
        "--update-outputs",
        action="store_true",
        default=False,
        help="rewrite the output blocks of doc pages from what their code prints",
    )


def pytest_configure(config):
    _MinigradDocsRunner.config = config


def pytest_sessionstart(session):
    """node_modules as package-lock.json pins it (minigrad_site/build/node_modules.py), before any test
    reads it: once, here in xdist's controller (or the one process of -n 0), whose
    sessionstart runs before it starts the workers, so they never race each other's npm ci."""
    if hasattr(session.config, "workerinput"):
        return
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    say = reporter.write_line if reporter else lambda line: print(line, file=sys.stderr)
    problem = node_modules.ensure(say=say)
    if problem:
        say(problem)


class DocBlockFailure(AssertionError):
    """A page's claim that its code does not keep; the message names page, line and run."""


@register_runner(default=True)
class _MinigradDocsRunner(DefaultRunner):
    config = None

    def runtest(self, test, args, *, asyncio_runner=None):
        page = parse_page(test.source_path)
        block = page.block_at(test.start_line)
        where = f"{_relative(page.path)}:{block.line}"
        slug = page.slug_of(block)
        healthy = run_chain(page, block)
        check_run(page, block, where, "healthy", healthy, expected_raise=block.attrs.get("raises"))
        check_picture(page, block, where, "healthy", healthy)
        kind, fragment = block.broken
        if block.output(True) is not None and (not slug or kind == "same"):
            raise DocBlockFailure(
                f"{where}: shows an output with the break, but "
                + ("the page has no minigrad_break" if not slug else 'declares broken="same"')
                + ": nothing would check it"
            )
        if not slug and block.picture(True) is not None:
            raise DocBlockFailure(f"{where}: shows a broken picture, but the page has no minigrad_break: nothing would check it")
        if slug:
            broken = run_chain(page, block, slug=slug)
            if kind == "same":
                if broken.output != healthy.output:
                    raise DocBlockFailure(
                        f"{where}: with {slug} applied this block prints something else, "
                        f'but it declares broken="same" (the default):\n{_diff(healthy.output, broken.output)}'
                    )
            else:
                if kind == "silent" and broken.output == healthy.output:
                    raise DocBlockFailure(f'{where}: declares broken="silent", but {slug} changes nothing it prints')
                check_run(page, block, where, f"broken ({slug})", broken,
                          expected_raise=fragment if kind == "raises" else None, broken=True)
            check_picture(page, block, where, f"broken ({slug})", broken, healthy=healthy)

    def repr_failure(self, test, excinfo, style=None):
        if isinstance(excinfo.value, DocBlockFailure):
            return str(excinfo.value)
        return super().repr_failure(test, excinfo, style)


def check_picture(page, block, where, label, run, healthy=None):
    """The picture under the block is the last one its run drew (minigrad.viz), byte for byte."""
    broken = healthy is not None
    drawn = run.pictures[-1] if run.pictures else None
    shown = block.picture(broken)
    if broken and shown is None and drawn == (healthy.pictures[-1] if healthy.pictures else None):
        return  # the break draws the same picture: the healthy one stands for both
    if drawn is None:
        if shown is not None:
            raise DocBlockFailure(f"{where}: shows a {label} picture at line {shown.line}, but the block draws none")
        return
    if shown is not None and shown.text.rstrip() == drawn[1].rstrip():
        return
    _record_update(page.path, block, broken, drawn, picture=True)
    if not _updating():
        at = f"shown at line {shown.line} is not" if shown else "is missing: the page does not show"
        raise DocBlockFailure(
            f"{where}: the {label} picture {at} what the block draws now:\n"
            f"{_diff(shown.text if shown else '', drawn[1])}\n(pytest --update-outputs redraws it)"
        )


def run_chain(page, block, slug=None):
    """The block after the blocks it continues, as the browser runs it (minigrad.runner.blocks), in the
    page's language: the doctor's report on a Spanish page is the Spanish one the page shows."""
    with broken_copy_warnings_expected():
        return blocks.run_chain(page.runnable_chain(block), slug=slug, lang=blocks.page_language(page.path))


def check_run(page, block, where, label, run, expected_raise=None, broken=False):
    if expected_raise is None and run.error is not None:
        raise DocBlockFailure(f"{where}: the {label} run raised, and the block does not declare it:\n{run.report}")
    if expected_raise is not None:
        if run.error is None:
            raise DocBlockFailure(f"{where}: the {label} run was declared to raise {expected_raise!r}, but it did not")
        last_line = run.output.rstrip("\n").splitlines()[-1]
        if expected_raise not in last_line:
            raise DocBlockFailure(f"{where}: the {label} run raised {last_line!r}, not the declared {expected_raise!r}")
    shown = block.output(broken)
    if shown is None:
        if broken or run.output:
            _record_update(page.path, block, broken, run.output)
            if not _updating():
                raise DocBlockFailure(
                    f"{where}: the {label} run prints\n{run.output}\nbut the page shows no "
                    f"{'broken ' if broken else ''}output block (pytest --update-outputs adds it)"
                )
        return
    if shown.text.rstrip() != run.output.rstrip():
        _record_update(page.path, block, broken, run.output)
        if not _updating():
            raise DocBlockFailure(
                f"{where}: the {label} output shown at line {shown.line} is not what the block prints:\n"
                f"{_diff(shown.text, run.output)}\n(pytest --update-outputs rewrites it)"
            )


def _diff(shown, actual):
    return "".join(difflib.unified_diff(shown.splitlines(True), actual.splitlines(True), "page", "actual"))


def _relative(path):
    try:
        return str(Path(path).resolve().relative_to(Path(__file__).parent))
    except ValueError:
        return str(path)


def _updating():
    config = _MinigradDocsRunner.config
    return config is not None and config.getoption("--update-outputs")


def _record_update(path, block, broken, text, picture=False):
    if _updating():
        _updates.setdefault(str(path), {})[(block.line, broken, picture)] = text


def pytest_sessionfinish(session):
    for path, changes in _updates.items():
        rewrite_outputs(Path(path), changes)


def rewrite_outputs(path, changes):
    """Replace (or insert) output and picture blocks; work bottom-up so line numbers stay valid."""
    page = parse_page(path)
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    for block in sorted(page.blocks, key=lambda b: -b.line):
        for picture in (True, False):  # pictures sit below outputs: rewrite them first
            for broken in (True, False):
                if (block.line, broken, picture) not in changes:
                    continue
                text = changes[(block.line, broken, picture)]
                if picture:
                    kind, text = text
                    opener = "```{.%s .picture%s}\n" % ("dot" if kind == "graph" else "json", " .broken" if broken else "")
                    shown, below = block.picture(broken), block.outputs
                else:
                    opener = "```{.text .output .broken}\n" if broken else "```{.text .output}\n"
                    shown, below = block.output(broken), [o for o in block.outputs if not o.picture]
                body = [line + "\n" for line in text.rstrip("\n").splitlines()]
                if shown is not None:
                    first, end = shown.content_lines
                    lines[first:end] = body
                else:
                    anchor = max([o.content_lines[1] + 1 for o in below], default=_block_end(lines, block.line))
                    lines[anchor:anchor] = ["\n", opener, *body, "```\n"]
    path.write_text("".join(lines), encoding="utf-8")


def _block_end(lines, fence_line):
    """Index just after the closing fence of the block opened at 1-based `fence_line`."""
    fence = lines[fence_line - 1].lstrip()[:3]
    for i in range(fence_line, len(lines)):
        if lines[i].strip() == fence:
            return i + 1
    return len(lines)
