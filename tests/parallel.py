"""How the suite shares the machine's two cores (pytest-xdist; `-n 2 --dist loadfile`
in pyproject.toml's addopts, so `uv run pytest` is still the one command).

A work unit goes to one worker. As with --dist loadfile, each test file is one
unit, so a module's or session's fixture is computed once: the Node/Pyodide
run of every block (tests/test_pyodide_blocks.py), the scaffold's clone, the
matrix. Here, in addition, all browser tests (tests/browser) are ONE unit:

- two Chromium tests never run at once: two cold Pyodide boots, each wanting
  both cores, slowed each other's pages down far enough to break an
  assumption of a test (issue 11's CI trial; tests/browser/navigation.py);
- the offline site (tests/browser/conftest.py) is built once, not once per
  worker that happens to get a browser file.

While one worker runs the browser tests, the other runs the Node parity test,
the doc pages and the unit tests.

Why a scheduler and not `xdist_group` marks with --dist loadgroup: with pytest
9.2, loadgroup silently ignores the marks (pytest-xdist issue #1386: it appends
the group to `item._nodeid`, which pytest no longer reads). The scheduler below
is xdist's own LoadFileScheduling with one rule added, through xdist's
`pytest_xdist_make_scheduler` hook; tests/test_parallel.py checks it.

`--update-outputs` runs in one process (as if `-n 0` were given): it rewrites
pages and data files at the end of the session from what its process ran, and
two workers must not each rewrite part of the same files.
"""

from pathlib import PurePosixPath

import pytest
from xdist.scheduler import LoadFileScheduling

BROWSER = ("tests", "browser")


def work_unit(nodeid):
    """The test's file, or "tests/browser" for every browser test."""
    path = nodeid.split("::", 1)[0]
    return "/".join(BROWSER) if PurePosixPath(path).parent.parts[-2:] == BROWSER else path


class LoadFileOneBrowser(LoadFileScheduling):
    """--dist loadfile, with every browser test in one unit."""

    def _split_scope(self, nodeid):  # the method LoadFileScheduling itself overrides
        return work_unit(nodeid)


@pytest.hookimpl(optionalhook=True)  # xdist's trylast default comes after it
def pytest_xdist_make_scheduler(config, log):
    if config.getvalue("dist") == "loadfile":
        return LoadFileOneBrowser(config, log)
    return None  # another --dist on the command line: xdist's own


@pytest.hookimpl(tryfirst=True)  # before xdist's pytest_configure starts the workers
def pytest_cmdline_main(config):
    if config.getoption("update_outputs", False) and getattr(config.option, "numprocesses", None):
        # what xdist's own pytest_cmdline_main does for -n 0 (it may have run already)
        config.option.numprocesses, config.option.dist, config.option.tx = 0, "no", []
