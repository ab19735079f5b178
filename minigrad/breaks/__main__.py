"""python -m minigrad.breaks list | show SLUG | apply SLUG | revert SLUG | status | new SLUG

Edits the learner's working copy of minigrad the way they would by hand, and
only when every file still matches what the diff expects: a learner's own edits
are never overwritten, a read-only file is left alone, and nothing is
half-written (every file is checked before any is replaced, each is replaced
atomically, and a failed write puts back the files already replaced).
Its own words are English or Spanish (`--lang es`, before or after the command).
"""

import argparse
import importlib.util
import os
import stat
import sys
import tempfile
import textwrap
from pathlib import Path

from ..words import by_language
from . import ROOT, catalogue, get, load, patch

WORDS = by_language("breaks_cli")  # minigrad/words/{en,es}.toml
SYMPTOMS = list(load().symptoms)


class Refused(Exception):
    """The command cannot be carried out; the message says why and what to do."""


def state(brk, root=ROOT, lang="en"):
    """'applied', 'healthy', or 'modified' (matches neither side of the diff)."""
    states = set()
    for fp in brk.file_patches():
        text = _read(root, fp.path, lang)
        if _applies(fp, text):
            states.add("healthy")
        elif _applies(fp.reversed(), text):
            states.add("applied")
        else:
            states.add("modified")
    return states.pop() if len(states) == 1 else "modified"


def apply_break(slug, root=ROOT, reverse=False, lang="en"):
    words = WORDS[lang]
    action = "revert" if reverse else "apply"
    brk = _get(slug, lang)
    current = state(brk, root, lang)
    if not reverse and current == "applied":
        raise Refused(words["already"].format(slug=slug))
    if reverse and current == "healthy":
        raise Refused(words["not_applied"].format(slug=slug, target=brk.target))
    new_texts = {}
    for fp in brk.file_patches():
        fp = fp.reversed() if reverse else fp
        try:
            new_texts[fp.path] = patch.apply(fp, _read(root, fp.path, lang))
        except patch.PatchError as e:
            detail = words["hunk"].format(**e.details) if "line" in e.details else str(e)
            raise Refused(words["edited"].format(verb=words["verb"][action], slug=slug, detail=detail, path=fp.path)) from None
    for path in new_texts:
        if _read_only(Path(root) / path):
            raise Refused(words["read_only"].format(verb=words["verb"][action], slug=slug, path=path))
    _write_all(root, new_texts, lambda folder, reason: Refused(
        words["unwritable"].format(verb=words["verb"][action], slug=slug, folder=folder, reason=reason)))
    return sorted(new_texts)


def _get(slug, lang):
    try:
        return get(slug)
    except KeyError:
        known = ", ".join(b.slug for b in catalogue())
        raise KeyError(WORDS[lang]["unknown"].format(slug=slug, known=known)) from None


def _applies(fp, text):
    try:
        patch.apply(fp, text)
        return True
    except patch.PatchError:
        return False


def _read(root, relative, lang="en"):
    path = Path(root) / relative
    if not path.is_file():
        raise Refused(WORDS[lang]["missing"].format(path=relative, root=root))
    try:
        with open(path, encoding="utf-8", newline="") as f:  # keep CRLF as it is
            return f.read()
    except OSError as error:
        raise Refused(WORDS[lang]["unreadable"].format(path=relative, reason=error.strerror or error)) from None


def _read_only(path):
    """No write bit, or no write access: root ignores modes, so check the bits too."""
    return not path.stat().st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH) or not os.access(path, os.W_OK)


def _write_all(root, new_texts, refusal):
    """Replace every file, or (on an OSError) put back those already replaced."""
    originals = {}
    try:
        for relative, text in new_texts.items():
            path = Path(root) / relative
            originals[path] = path.read_bytes()
            _write_atomically(path, text)
    except OSError as error:
        for path, data in originals.items():
            if path.read_bytes() != data:
                path.write_bytes(data)
        raise refusal(path.parent, error.strerror or error) from None


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


class _WholeKeys(argparse.RawDescriptionHelpFormatter):
    """Help wrapped between words only: a symptom key (loss-never-changes) is never split at a hyphen;
    the epilog (the keys by group, wrapped here) is printed as written."""

    def _split_lines(self, text, width):  # textwrap breaks at "-", not at a non-breaking hyphen
        return [line.replace("\u2011", "-") for line in super()._split_lines(text.replace("-", "\u2011"), width)]


def _symptom_keys(words, lang, width=78):
    """`new --help`'s epilog: every symptom key, under the title of its section of the symptom index."""
    read = load()
    lines = [words["symptom_keys"]]
    for group, titles in read.symptom_groups.items():
        keys = [key for key in read.symptoms if read.symptom_group.get(key) == group]
        lines += ["", f"  {titles[lang]}:"]
        lines += textwrap.wrap(", ".join(keys), width, initial_indent="    ", subsequent_indent="    ", break_on_hyphens=False)
    return "\n".join(lines + ["", words["symptom_later"]])


def _parser(lang, root):
    words = WORDS[lang]
    language = argparse.ArgumentParser(add_help=False)  # --lang, accepted before or after the command
    language.add_argument("--lang", choices=tuple(WORDS), default=argparse.SUPPRESS, help=words["lang"])
    parser = argparse.ArgumentParser(prog="python -m minigrad.breaks", description=words["description"],
                                     epilog=words["where"].format(root=root), parents=[language])
    sub = parser.add_subparsers(dest="command", required=True)
    for name in ("list", "status"):
        sub.add_parser(name, help=words[name], parents=[language])
    for name in ("show", "apply", "revert"):
        sub.add_parser(name, help=words[name], parents=[language]).add_argument("slug")
    new = sub.add_parser("new", help=words["new"], parents=[language], formatter_class=_WholeKeys, epilog=_symptom_keys(words, lang))
    phases = ", ".join(f"{n} {names[lang]}" for n, names in sorted(load().phases.items()))
    new.add_argument("slug", help=words["new_slug"])
    new.add_argument("--phase", type=int, required=True, help=words["new_phase"].format(phases=phases))
    new.add_argument("--title-en", required=True, help=words["new_title_en"])
    new.add_argument("--title-es", required=True, help=words["new_title_es"])
    new.add_argument("--symptom", action="append", default=[], choices=SYMPTOMS, metavar="KEY", help=words["symptom"])
    new.add_argument("--target", help=words["new_target"])
    return parser


def main(argv=None, root=ROOT, out=sys.stdout):
    argv = sys.argv[1:] if argv is None else list(argv)
    lang = _language(argv)
    args = _parser(lang, root).parse_args(argv)
    lang = getattr(args, "lang", "en")
    try:
        return _run(args, root, out, lang)
    except (Refused, KeyError) as e:
        print(f"{WORDS[lang]['error']}: {e.args[0]}", file=sys.stderr)
        return 2 if isinstance(e, KeyError) else 1


def _language(argv):
    """The --lang given anywhere on the line, so help and errors use it too."""
    for i, arg in enumerate(argv):
        value = arg.split("=", 1)[1] if arg.startswith("--lang=") else argv[i + 1] if arg == "--lang" and i + 1 < len(argv) else None
        if value in WORDS:
            return value
    return "en"


def _run(args, root, out, lang):
    words = WORDS[lang]
    if args.command == "new":
        return _scaffold(args, root, out, lang)
    if args.command in ("list", "status"):
        rows = [(b, words[state(b, root, lang)]) for b in catalogue()]
        if args.command == "status":
            rows = [(b, s) for b, s in rows if s != words["healthy"]]
            if not rows:
                print(words["none_applied"], file=out)
        slug_width = max((len(b.slug) for b, _ in rows), default=0)
        state_width = max(len(words[s]) for s in ("healthy", "applied", "modified"))
        for b, s in rows:
            phase = f"{words['phase']} {b.phase}"
            print(f"{b.slug:{slug_width}}  {phase:{len(words['phase']) + 3}}  {s:{state_width}}  {b.title[lang]}", file=out)
        return 0
    brk = _get(args.slug, lang)
    if args.command == "show":
        print(f"{brk.title[lang]} ({words['phase']} {brk.phase}, {brk.target})\n", file=out)
        print(brk.diff_text(), end="", file=out)
        return 0
    changed = apply_break(args.slug, root, reverse=args.command == "revert", lang=lang)
    print(words["done"][args.command].format(slug=args.slug, files=", ".join(changed)), file=out)
    return 0


def _scaffold(args, root, out, lang):
    """`new` writes pages, nav and the catalogue: repository tooling, so it lives
    in scripts/new_break.py (not shipped to the browser with minigrad)."""
    path = Path(root) / "scripts" / "new_break.py"
    if not path.is_file():
        raise Refused(WORDS[lang]["no_scaffold"].format(path=path))
    spec = importlib.util.spec_from_file_location("new_break", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.scaffold(args.slug, args.phase, args.title_en, args.title_es, args.target, root=Path(root), out=out, lang=lang, symptoms=args.symptom)


def run():
    """main(), quiet when the reader of its output goes away (`... list | head -3`);
    the way the Python docs recommend (signal module, "Note on SIGPIPE")."""
    try:
        code = main()
        sys.stdout.flush()
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())  # no second error at exit
        code = 1
    return code


if __name__ == "__main__":
    sys.exit(run())
