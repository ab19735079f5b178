"""How the suite shares the machine's two cores (pytest-xdist; `-n 2 --dist loadfile`
in pyproject.toml's addopts, so `uv run pytest` is still the one command).

A work unit goes to one worker: each test file is one unit, so a module's or
session's fixture is computed once: the Node/Pyodide run of every block
(tests/test_pyodide_blocks.py), the scaffold's clone, the matrix.

Browser files are units of their own too, since issue 39. They were one unit
(two Chromium tests never at once, the offline site built once), and that
unit became the suite's critical path: about 550 s on one worker while the
other finished the rest at about 380 s and waited. Now each worker that gets
a browser file builds the offline site once (about 10 s) and keeps one warm
page (tests/browser/warm.py). Two browser tests at once slowed each other's
pages enough to break a test's assumption once (issue 11's CI trial); the
tests wait for what they need since (tests/browser/navigation.py, running.py).

One rule of its own: `--update-outputs` runs in one process (as if `-n 0`
were given): it rewrites pages and data files at the end of the session from
what its process ran, and two workers must not each rewrite part of the same
files. (pytest 9.2's --dist loadgroup ignores xdist_group marks: pytest-xdist
issue #1386; nothing here needs groups now.)
"""

import pytest

@pytest.hookimpl(tryfirst=True)  # before xdist's pytest_configure starts the workers
def pytest_cmdline_main(config):
    if config.getoption("update_outputs", False) and getattr(config.option, "numprocesses", None):
        # what xdist's own pytest_cmdline_main does for -n 0 (it may have run already)
        config.option.numprocesses, config.option.dist, config.option.tx = 0, "no", []
