"""python -m minigrad.breaks list | show SLUG | apply SLUG | revert SLUG | status

Edits the learner's working copy of minigrad the way they would by hand, and
only when every file still matches what the diff expects: a learner's own edits
are never overwritten, and nothing is half-written (all files are checked
before any is replaced, and each is replaced atomically).
"""

import argparse
import os
import sys
import tempfile
from pathlib import Path

from . import ROOT, catalogue, get, patch


class Refused(Exception):
    """The command cannot be carried out; the message says why and what to do."""


def state(brk, root=ROOT):
    """'applied', 'healthy', or 'modified' (matches neither side of the diff)."""
    states = set()
    for fp in brk.file_patches():
        text = _read(root, fp.path)
        if _applies(fp, text):
            states.add("healthy")
        elif _applies(fp.reversed(), text):
            states.add("applied")
        else:
            states.add("modified")
    return states.pop() if len(states) == 1 else "modified"


def apply_break(slug, root=ROOT, reverse=False):
    brk = get(slug)
    current = state(brk, root)
    if not reverse and current == "applied":
        raise Refused(f"{slug} is already applied; `python -m minigrad.breaks revert {slug}` undoes it")
    if reverse and current == "healthy":
        raise Refused(f"{slug} is not applied: {brk.target} already has the healthy code")
    new_texts = {}
    for fp in brk.file_patches():
        fp = fp.reversed() if reverse else fp
        try:
            new_texts[fp.path] = patch.apply(fp, _read(root, fp.path))
        except patch.PatchError as e:
            raise Refused(
                f"refusing to {'revert' if reverse else 'apply'} {slug}: {e}.\n"
                f"{fp.path} was edited by hand there; nothing was changed. "
                f"Undo that edit (git diff {fp.path} shows it) and try again."
            ) from None
    for path, text in new_texts.items():
        _write_atomically(Path(root) / path, text)
    return sorted(new_texts)


def _applies(fp, text):
    try:
        patch.apply(fp, text)
        return True
    except patch.PatchError:
        return False


def _read(root, relative):
    path = Path(root) / relative
    if not path.is_file():
        raise Refused(f"{relative} not found under {root}: is this a full minigrad checkout?")
    with open(path, encoding="utf-8", newline="") as f:  # keep CRLF as it is
        return f.read()


def _write_atomically(path, text):
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        os.chmod(tmp, path.stat().st_mode)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def main(argv=None, root=ROOT, out=sys.stdout):
    parser = argparse.ArgumentParser(prog="python -m minigrad.breaks", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("list", help="every break, its phase and whether it is applied")
    sub.add_parser("status", help="the breaks applied to this working copy")
    for name, text in (("show", "print a break's diff"), ("apply", "break your copy"), ("revert", "heal it")):
        sub.add_parser(name, help=text).add_argument("slug")
    parser.add_argument("--lang", choices=("en", "es"), default="en", help="language of the titles")
    args = parser.parse_args(argv)
    try:
        return _run(args, root, out)
    except (Refused, KeyError) as e:
        print(f"error: {e.args[0]}", file=sys.stderr)
        return 2 if isinstance(e, KeyError) else 1


def _run(args, root, out):
    if args.command in ("list", "status"):
        rows = [(b, state(b, root)) for b in catalogue()]
        if args.command == "status":
            rows = [(b, s) for b, s in rows if s != "healthy"]
            if not rows:
                print("no break applied: minigrad is healthy", file=out)
        for b, s in rows:
            print(f"{b.slug:28} phase {b.phase:<3} {s:9} {b.title[args.lang]}", file=out)
        return 0
    brk = get(args.slug)
    if args.command == "show":
        print(f"{brk.title[args.lang]} (phase {brk.phase}, {brk.target})\n", file=out)
        print(brk.diff_text(), end="", file=out)
        return 0
    changed = apply_break(args.slug, root, reverse=args.command == "revert")
    verb = "reverted" if args.command == "revert" else "applied"
    print(f"{verb} {args.slug}: edited {', '.join(changed)}", file=out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
