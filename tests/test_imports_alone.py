"""Every module of minigrad imports on its own, in a fresh interpreter (issue 22): no module
works only because another one happened to be imported first, and none is caught in a
circular import (as minigrad.loss_checks once was)."""

import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def module_names():
    for path in sorted((ROOT / "minigrad").rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        yield ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports_alone(name):
    done = subprocess.run([sys.executable, "-c", f"import {name}"], capture_output=True, text=True, cwd=ROOT)
    return name, done.returncode, done.stderr.strip().splitlines()[-1:] if done.returncode else []


def test_every_minigrad_module_imports_on_its_own():
    names = list(module_names())
    assert "minigrad.runner.worker" in names and "minigrad.checks" in names  # the scan sees the packages
    with ThreadPoolExecutor(max_workers=4) as pool:  # one interpreter each; they wait on their own process
        failed = [(name, last) for name, code, last in pool.map(imports_alone, names) if code]
    assert not failed, failed
