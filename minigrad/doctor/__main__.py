"""python -m minigrad.doctor [--engine DIR] [--scalar TARGET] [--tensor TARGET] [--nn MODULE] [--optim MODULE] [--functional MODULE] [--lang en|es] [--json] [--time-limit SECONDS]

DIR is your package folder (e.g. src/minigrad): Value from scalar.py,
engine.py or value.py, Tensor from tensor.py or engine.py, and nn.py,
optim.py, functional.py, each optional (or, as in PyTorch, packages nn/
and optim/, the losses in nn/functional.py). A class TARGET is
path/to/file.py:ClassName or dotted.module:ClassName, a MODULE
path/to/file.py or dotted.module; each names or overrides a part. Your code
runs in a process of its own. Exit 0 when nothing is caught, 1 when something
is (or your engine only raised, or ended the process), 2 for bad usage, a bad
target, or a module that fails to import.
"""

import argparse
import os
import sys

from . import config, isolated, rank, report
from .loading import TargetError

PARTS = {"scalar": "Value", "tensor": "Tensor", "nn": "nn", "optim": "optim", "functional": "functional"}


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m minigrad.doctor", description="Check your own autograd engine.")
    parser.add_argument("--engine", metavar="DIR", help="your package folder")
    for flag, part in PARTS.items():
        kind = "class" if part in ("Value", "Tensor") else "module"
        parser.add_argument(f"--{flag}", metavar="TARGET" if kind == "class" else "MODULE", help=f"your {part} {kind}")
    parser.add_argument("--lang", choices=("en", "es"), default="en")
    parser.add_argument("--json", action="store_true", help="print exactly one JSON object")
    parser.add_argument("--time-limit", type=float, default=3.0, metavar="SECONDS", help="per check (default 3)")
    args = parser.parse_args(argv)
    targets = {part: getattr(args, flag) for flag, part in PARTS.items() if getattr(args, flag)}
    try:
        folder, targets, names, settings = config.settings(args.engine or os.getcwd(), args.engine, targets)
    except TargetError as e:
        print(f"minigrad.doctor: {e}", file=sys.stderr)
        return 2
    if not folder and not targets:
        parser.error("give --engine DIR, or one of --scalar, --tensor, --nn, --optim, --functional"
                     " (or set them in [tool.minigrad-doctor] of your pyproject.toml)")
    events, ended = isolated.run(folder, targets, args.time_limit, names)
    for event in events:
        if event["event"] in ("bad-target", "import-failure"):
            print(f"minigrad.doctor: {event['message']}" + (f":\n{event['traceback']}" if "traceback" in event else ""),
                  file=sys.stderr, end="" if "traceback" in event else "\n")
            return 2
    where = dict(next((e["where"] for e in events if e["event"] == "loaded"), targets))
    if settings:  # say where the mapping came from: a report must not depend on a file it does not name
        where["settings"] = f"{settings}" + "".join(f", {k} = {v!r}" for k, v in names.items())
    diagnosis = rank(isolated.verdicts_of(events), ended)
    if args.json:
        print(report.as_json(diagnosis, args.lang))
    else:
        print(report.as_text(diagnosis, ", ".join(f"{part} = {w}" for part, w in where.items()), args.lang))
    return 1 if diagnosis.caught or diagnosis.crashed or diagnosis.hostile else 0


if __name__ == "__main__":
    sys.exit(main())
