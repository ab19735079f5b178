"""The learner's CLI (python -m minigrad.breaks) run in-process on a private copy of minigrad/,
shared by tests/test_breaks.py and tests/test_cli.py."""

import io
import shutil
import sys

import pytest

from minigrad.breaks import ROOT
from minigrad.breaks.__main__ import main


@pytest.fixture
def tree(tmp_path):
    """A private copy of minigrad/ to break; the repository's own copy is never touched."""
    shutil.copytree(ROOT / "minigrad", tmp_path / "minigrad", ignore=shutil.ignore_patterns("__pycache__"))
    return tmp_path


def cli(tree, *argv):
    """(exit code, stdout, stderr) of the CLI run in-process on `tree`."""
    out, err = io.StringIO(), io.StringIO()
    old_err, sys.stderr = sys.stderr, err
    try:
        code = main(list(argv), root=tree, out=out)
    finally:
        sys.stderr = old_err
    return code, out.getvalue(), err.getvalue()
