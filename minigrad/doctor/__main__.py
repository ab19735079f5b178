"""python -m minigrad.doctor --scalar TARGET [--tensor TARGET] [--lang en|es] [--json]

TARGET is path/to/file.py:ClassName or dotted.module:ClassName. Exit 0 when
nothing is caught, 1 when something is, 2 for bad usage (a bad target is one
line on stderr; a file that fails to import shows its own traceback).
"""

import argparse
import contextlib
import sys

from . import diagnose, report
from .loading import ImportFailure, TargetError, load_class


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m minigrad.doctor", description=__doc__.splitlines()[2])
    parser.add_argument("--scalar", metavar="TARGET", help="your Value class")
    parser.add_argument("--tensor", metavar="TARGET", help="your Tensor class")
    parser.add_argument("--lang", choices=("en", "es"), default="en")
    parser.add_argument("--json", action="store_true", help="print exactly one JSON object")
    parser.add_argument("--time-limit", type=float, default=3.0, metavar="SECONDS", help="per check (default 3)")
    args = parser.parse_args(argv)
    if not args.scalar and not args.tensor:
        parser.error("give --scalar TARGET, --tensor TARGET, or both")
    try:
        with contextlib.redirect_stdout(sys.stderr):  # a module that prints on import keeps --json clean
            Value = load_class(args.scalar) if args.scalar else None
            Tensor = load_class(args.tensor) if args.tensor else None
    except TargetError as e:
        print(f"minigrad.doctor: {e}", file=sys.stderr)
        return 2
    except ImportFailure as e:
        print(f"minigrad.doctor: {e}:\n{e.traceback}", file=sys.stderr, end="")
        return 2
    diagnosis = diagnose(Value, Tensor, args.time_limit)
    if args.json:
        print(report.as_json(diagnosis.verdicts, diagnosis.suspects, args.lang))
    else:
        engines = ", ".join(f"{kind} = {t}" for kind, t in (("Value", args.scalar), ("Tensor", args.tensor)) if t)
        print(report.as_text(diagnosis.verdicts, diagnosis.suspects, engines, args.lang))
    return 1 if diagnosis.caught else 0


if __name__ == "__main__":
    sys.exit(main())
