#!/usr/bin/env python3
"""PyTorch's numbers for minigrad, every one, into minigrad/reference/.

torch is kept out of the uv environment on purpose (minigrad is numpy-only and
also runs in Pyodide), so run this with a Python that has torch 2.13 and numpy:

    python3 scripts/make_torch_reference.py                 # rewrite every file
    python3 scripts/make_torch_reference.py --check         # only say which are stale
    python3 scripts/make_torch_reference.py engine facts    # only these parts

One part per file, minigrad/reference/<part>.json, each a module of
scripts/torch_reference/ (its docstring says what it holds and who reads it):
engine (every op, layer, loss and optimizer: tests/test_torch_parity.py),
losses and optimizers (more cases: tests/test_torch_parity_losses.py and
_optimizers.py), checks (every case of the checks that compare with torch,
shipped with minigrad), facts (what PyTorch does, as the pages quote it,
shipped too) and learner_engines (tests/test_learner_engines.py).
"""

import argparse
import importlib
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scripts.torch_reference import PARTS  # noqa: E402


def part(name):
    return importlib.import_module(f"scripts.torch_reference.{name}")


def stale(module, data):
    """What differs between the committed file and a fresh run ([] when it is up to date)."""
    if not module.OUT.exists():
        return ["the file is missing"]
    committed = module.OUT.read_text(encoding="utf-8")
    if hasattr(module, "stale"):
        return module.stale(committed, data)
    return [] if committed == module.dumps(data) else ["the file differs from a fresh run"]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("parts", nargs="*", metavar="part", help=f"the parts to write, of {', '.join(PARTS)} (all by default)")
    parser.add_argument("--check", action="store_true", help="say which files are stale; write nothing")
    args = parser.parse_args(argv)
    unknown = [name for name in args.parts if name not in PARTS]
    if unknown:
        parser.error(f"no part named {', '.join(unknown)}: the parts are {', '.join(PARTS)}")
    failed = 0
    for name in args.parts or PARTS:
        module = part(name)
        data = module.compute()
        where = module.OUT.relative_to(ROOT)
        if args.check:
            problems = stale(module, data)
            failed += bool(problems)
            print(f"{where}: {'stale' if problems else 'up to date'}")
            for problem in problems:
                print(f"  {problem}")
        else:
            module.OUT.write_text(module.dumps(data), encoding="utf-8")
            print(f"wrote {where}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
