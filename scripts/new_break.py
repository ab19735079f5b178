"""Scaffold a new break from the teacher's edit of minigrad/ (issue 12).

    uv run python -m minigrad.breaks new SLUG --phase N --title-en "..." --title-es "..." [--symptom KEY ...] [--target minigrad/FILE.py]

After the teacher has edited a file of minigrad/ to introduce the bug, this
writes the edit as `minigrad/breaks/SLUG.diff` (the same shape as the other
diffs: `diff --git` header, three lines of context), puts the file back as
git's HEAD has it, byte for byte, adds the catalogue entry, writes both page
skeletons (the seven sections with their fixed anchors, the diff included)
and adds the English page to mkdocs.yml's nav, after the breaks of its phase.
The break's symptoms are the `--symptom` keys, or none yet: the site still
builds (the symptom index lists the break as not chosen yet, so the teacher
can serve the skeleton at once) and tests/test_symptoms.py fails until they
are chosen.

Everything is checked before anything is written: a bad slug, phase, title
or target, an existing break or page, no change or changes in several files
(without --target) are refused with one message and nothing changed. It
lives in scripts/, not in the minigrad package, because it writes the
repository's pages and nav: tooling for a clone, not shipped to the browser.
"""

import difflib
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from minigrad.breaks import load, patch  # noqa: E402
from minigrad.words import by_language  # noqa: E402

SLUG = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")  # one URL path segment, as the other breaks' slugs
PHASES = range(7, 11)
# What it says and the page it writes, in both languages (minigrad/words/{en,es}.toml, new_break.*).
HEADINGS = by_language("new_break.headings")  # anchor: heading, in the order every break page follows
SECTIONS = {anchor: (english, HEADINGS["es"][anchor]) for anchor, english in HEADINGS["en"].items()}
TO_WRITE = by_language("new_break.page")
MESSAGES = by_language("new_break.messages")


class Refused(Exception):
    """Bad input, named by its key in MESSAGES; nothing was written."""

    def __init__(self, key, **fields):
        super().__init__(key)
        self.key, self.fields = key, fields


def scaffold(slug, phase, title_en, title_es, target=None, root=ROOT, out=sys.stdout, lang="en", symptoms=()):
    """Check everything, then write everything (putting back what was written if a write fails)."""
    words = MESSAGES[lang]
    symptoms = list(dict.fromkeys(symptoms))  # in the order given, once each
    try:
        plan = _plan(Path(root), slug, phase, title_en.strip(), title_es.strip(), target, symptoms)
        _write(plan)
    except Refused as e:
        print(f"error: {words[e.key].format(**e.fields)}", file=sys.stderr)
        return 1
    step = words["chosen"].format(keys=", ".join(symptoms)) if symptoms else words["to_choose"]
    print(words["done"].format(slug=slug, phase=phase, target=plan.target, symptoms=step), file=out)
    return 0


class _Plan:
    def __init__(self, target, writes):
        self.target, self.writes = target, writes  # writes: {path: bytes}


def _plan(root, slug, phase, title_en, title_es, target, symptoms):
    if not SLUG.fullmatch(slug):
        raise Refused("slug", slug=slug)
    if phase not in PHASES:
        raise Refused("phase", phase=phase, first=PHASES[0], last=PHASES[-1])
    for language, title in (("--title-en", title_en), ("--title-es", title_es)):
        if not title or "\n" in title:
            raise Refused("title", option=language)
    breaks_dir = root / "minigrad" / "breaks"
    catalogue_path = breaks_dir / "catalogue.toml"
    catalogue = load(catalogue_path.read_text(encoding="utf-8"))  # this clone's catalogue, not the installed one's
    if slug in {b.slug for b in catalogue.breaks}:
        raise Refused("exists", slug=slug)
    for key in symptoms:  # the CLI offers only these; scaffold() may be called directly
        if key not in catalogue.symptoms:
            raise Refused("symptom", symptom=key, keys=", ".join(catalogue.symptoms))
    pages = {lang: root / "docs" / "breaks" / f"{slug}{suffix}.md" for lang, suffix in (("en", ""), ("es", ".es"))}
    for path in [breaks_dir / f"{slug}.diff", *pages.values()]:
        if path.exists():
            raise Refused("file_exists", path=path.relative_to(root).as_posix())
    target = _changed_target(root, target)
    healthy = _git(root, "show", f"HEAD:{target}", binary=True)
    broken = (root / target).read_bytes()
    diff = _unified_diff(target, healthy.decode("utf-8"), broken.decode("utf-8"))
    _check_diff_restores(root, diff, healthy, broken)
    mkdocs_path = root / "mkdocs.yml"
    writes = {
        breaks_dir / f"{slug}.diff": diff.encode("utf-8"),
        root / target: healthy,
        catalogue_path: _with_catalogue_entry(catalogue_path.read_text(encoding="utf-8"), slug, phase, target, title_en, title_es, symptoms).encode("utf-8"),
        pages["en"]: _page("en", slug, title_en, target).encode("utf-8"),
        pages["es"]: _page("es", slug, title_es, target).encode("utf-8"),
        mkdocs_path: _with_nav_entry(mkdocs_path.read_text(encoding="utf-8"), slug, phase, catalogue).encode("utf-8"),
    }
    return _Plan(target, writes)


def _git(root, *args, binary=False):
    try:
        done = subprocess.run(["git", *args], cwd=root, capture_output=True, check=True)
    except FileNotFoundError:
        raise Refused("no_git") from None
    except subprocess.CalledProcessError as e:
        raise Refused("git_failed", command=" ".join(args), reason=e.stderr.decode(errors="replace").strip()) from None
    return done.stdout if binary else done.stdout.decode("utf-8")


def _changed_target(root, target):
    """The one file of minigrad/ (outside the catalogue) that differs from git's HEAD."""
    changed = _git(root, "diff", "HEAD", "--name-only", "--", "minigrad", ":(exclude)minigrad/breaks").split()
    if target is not None:
        target = Path(target).as_posix().removeprefix("./")
        if target not in changed:
            raise Refused("target_unchanged" if changed else "target_nothing", target=target, changed=", ".join(changed))
        return target
    if not changed:
        raise Refused("no_change")
    if len(changed) > 1:
        raise Refused("several", count=len(changed), changed=", ".join(changed))
    return changed[0]


def _unified_diff(target, healthy, broken):
    """The diff in the catalogue's shape (as scripts/refresh_breaks.py writes it)."""
    body = difflib.unified_diff(healthy.splitlines(keepends=True), broken.splitlines(keepends=True), f"a/{target}", f"b/{target}", n=3)
    return f"diff --git a/{target} b/{target}\n" + "".join(body)


def _check_diff_restores(root, diff, healthy, broken):
    """The diff must turn the healthy file into the teacher's edit exactly, as the CLI and CI will apply it."""
    try:
        (file_patch,) = patch.parse(diff)
        ok = patch.apply(file_patch, healthy.decode("utf-8")) == broken.decode("utf-8")
    except (patch.PatchError, ValueError):
        ok = False
    if not ok:
        raise Refused("not_reproducible")


def _with_catalogue_entry(text, slug, phase, target, title_en, title_es, symptoms):
    """The entry after the last break of its phase or an earlier one, comments kept."""
    chosen = (f"symptoms = [{', '.join(_toml_string(k) for k in symptoms)}]\n" if symptoms else
              "symptoms = []  # to choose: keys of the [symptom.*] tables (docs/symptoms.md); tests/test_symptoms.py needs one\n")
    entry = (f'[[break]]\nslug = "{slug}"\nphase = {phase}\ntarget = "{target}"\n'
             f"title.en = {_toml_string(title_en)}\ntitle.es = {_toml_string(title_es)}\n" + chosen)
    blocks = list(re.finditer(r"^\[\[break\]\]\n(?:.+\n)*", text, re.M))  # an entry: lines up to a blank one
    earlier = [b for b in blocks if int(re.search(r"^phase = (\d+)", b.group(0), re.M).group(1)) <= phase]
    if earlier:
        at = earlier[-1].end()
        return text[:at] + "\n" + entry + text[at:]
    at = blocks[0].start() if blocks else len(text)
    return text[:at] + entry + "\n" + text[at:]


def _toml_string(value):
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    return f'"{escaped}"'


def _with_nav_entry(text, slug, phase, catalogue):
    """`- breaks/<slug>.md` in the Breaks section of the nav, after the pages of its phase."""
    phases = {b.slug: b.phase for b in catalogue.breaks}
    lines = text.splitlines(keepends=True)
    heading = next((i for i, line in enumerate(lines) if line.strip() == "- Breaks:"), None)
    if heading is None:
        raise Refused("no_nav")
    at, indent = heading + 1, " " * (len(lines[heading]) - len(lines[heading].lstrip()) + 4)
    for i in range(heading + 1, len(lines)):
        entry = re.fullmatch(r"(\s*)- breaks/([\w-]+)\.md\s*", lines[i])
        if entry is None:
            break
        indent = entry.group(1)
        if phases.get(entry.group(2), 0) <= phase:
            at = i + 1
    lines.insert(at, f"{indent}- breaks/{slug}.md\n")
    return "".join(lines)


def _page(lang, slug, title, target):
    words = TO_WRITE[lang]
    parts = [f"---\nminigrad_break: {slug}\n---\n", f"# {title}\n", words["target"].format(target=target) + "\n"]
    for anchor, headings in SECTIONS.items():
        section = f"## {headings[0 if lang == 'en' else 1]} {{ #{anchor} }}\n\n"
        if anchor == "the-break":
            section += f'```diff\n--8<-- "minigrad/breaks/{slug}.diff"\n```\n\n'
        parts.append(section + words[anchor].format(slug=slug) + "\n")
    return "\n".join(parts)


def _write(plan):
    """Write every file; if one fails, put back the ones already written."""
    done = []
    try:
        for path, data in plan.writes.items():
            done.append((path, path.read_bytes() if path.exists() else None))
            path.write_bytes(data)
    except OSError as error:
        for path, old in reversed(done):
            if old is None:
                path.unlink(missing_ok=True)
            else:
                path.write_bytes(old)
        raise Refused("unwritable", path=error.filename, reason=error.strerror) from None
