"""A fresh clone of this repository, as a newcomer or a teacher starts from: what is
committed, without node_modules, the site or anything ignored."""

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def fresh_clone(tmp_path_factory, why_git):
    """Clone the repository (its last commit) into a new temporary folder; skipped, saying
    `why_git` needs git, where git is not installed."""
    if shutil.which("git") is None:
        pytest.skip(f"git is not installed; {why_git}")
    repo = tmp_path_factory.mktemp("clone") / "repo"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(repo)], check=True)
    return repo
