"""The doctor's command line: `python -m minigrad.doctor`, or `minigrad-doctor` where the package is
installed (a learner's own project: `uvx --from git+<this repository> minigrad-doctor --engine .`).
USAGE says what it takes, in English and Spanish (the doctor page prints it in its language)."""

import argparse
import os
import sys
from pathlib import Path

from . import config, isolated, junit, rank, report
from .loading import TargetError
from ..words import by_language

PARTS = {"scalar": "Value", "tensor": "Tensor", "nn": "nn", "optim": "optim", "functional": "functional"}

USAGE = {lang: words["text"] for lang, words in by_language("doctor.usage").items()}


def usage(lang=None):
    """USAGE in `lang`, by default the page's language on the site, English elsewhere."""
    from . import page_module

    page = page_module()
    return USAGE[lang or (str(page.language()) if page else "en")]


def main(argv=None):
    called = os.path.basename(sys.argv[0]) if sys.argv and sys.argv[0] else ""
    prog = "minigrad-doctor" if called.startswith("minigrad-doctor") else "python -m minigrad.doctor"
    parser = argparse.ArgumentParser(prog=prog, description="Check your own autograd engine.")
    parser.add_argument("--engine", metavar="DIR", help="your package folder")
    for flag, part in PARTS.items():
        kind = "class" if part in ("Value", "Tensor") else "module"
        parser.add_argument(f"--{flag}", metavar="TARGET" if kind == "class" else "MODULE", help=f"your {part} {kind}")
    parser.add_argument("--lang", choices=("en", "es"), default="en")
    parser.add_argument("--json", action="store_true", help="print exactly one JSON object")
    parser.add_argument("--junit", metavar="FILE", help="also write the report as JUnit XML (for your CI's test view)")
    parser.add_argument("--site", metavar="URL", help="the site the report's page addresses point to"
                        " (default: MINIGRAD_SITE_URL, else a local `mkdocs serve`)")
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
        print(report.as_json(diagnosis, args.lang, args.site))
    else:
        print(report.as_text(diagnosis, ", ".join(f"{part} = {w}" for part, w in where.items()), args.lang, site=args.site))
    if args.junit:
        Path(args.junit).write_text(junit.as_junit(report.as_dict(diagnosis, args.lang, args.site)), encoding="utf-8")
    return 1 if diagnosis.caught or diagnosis.crashed or diagnosis.hostile else 0


if __name__ == "__main__":
    sys.exit(main())
