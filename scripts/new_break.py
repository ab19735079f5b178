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
SLUG = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")  # one URL path segment, as the other breaks' slugs
PHASES = range(7, 11)
SECTIONS = {  # anchor: (English heading, Spanish heading), the order every break page follows
    "hypothesis": ("Hypothesis", "Hipótesis"),
    "the-break": ("The break", "La rotura"),
    "prediction": ("Your prediction", "Tu predicción"),
    "procedure": ("Procedure", "Procedimiento"),
    "expected-failure-mode": ("Expected failure mode", "Modo de fallo esperado"),
    "diagnosis": ("Diagnosis", "Diagnóstico"),
    "lesson": ("Lesson", "Lección"),
    "references": ("References", "Referencias"),
}
TO_WRITE = {
    "en": {
        "hypothesis": "*To write: what the learner predicts, in their words. It may be partly wrong; "
                      "Expected failure mode says what really happens.*",
        "the-break": "Apply it to your own copy with `python -m minigrad.breaks apply {slug}`\n"
                     "(and `revert` to fix it), or use the break toggle on each block below.",
        "prediction": "*To write: two or three numbered questions (`**1.** ...`), each followed by three or four choices\n"
                      "(`- [ ] a learner's mistake`, one `- [x] the right one`) or by `<!-- md:value answer=N -->` for one number,\n"
                      "then its folded answer (`??? success \"Answer\"`) quoting a checked output or a diagnostic that catches the break.*",
        "procedure": "*To write: the blocks that show the break. Each runs healthy and with the break applied;\n"
                     "`uv run pytest --update-outputs` writes what they print.*",
        "expected-failure-mode": "*To write: what CI observes with the break applied, and where it differs from the hypothesis.*",
        "diagnosis": "*To write: a check that passes on healthy code and catches the break.*",
        "lesson": "*To write: the lesson, in two or three sentences.*",
        "references": "*To write: where the learner reads more.*",
        "target": "**Target:** `{target}`.",
    },
    "es": {
        "hypothesis": "*Por escribir: lo que predice el aprendiz, con sus palabras. Puede ser en parte falso; "
                      "Modo de fallo esperado dice lo que pasa de verdad.*",
        "the-break": "Aplícala a tu propia copia con `python -m minigrad.breaks apply {slug}`\n"
                     "(y `revert` para arreglarla), o usa el interruptor sano/roto de cada bloque de abajo.",
        "prediction": "*Por escribir: dos o tres preguntas numeradas (`**1.** ...`), cada una seguida de tres o cuatro opciones\n"
                      "(`- [ ] un error de aprendiz`, una `- [x] la correcta`) o de `<!-- md:value answer=N -->` para un número,\n"
                      "y después su respuesta plegada (`??? success \"Respuesta\"`) que cite una salida comprobada o un diagnóstico que detecte la rotura.*",
        "procedure": "*Por escribir: los bloques que muestran la rotura. Cada uno se ejecuta sano y roto;\n"
                     "`uv run pytest --update-outputs` escribe lo que imprimen.*",
        "expected-failure-mode": "*Por escribir: lo que observa CI con la rotura aplicada, y en qué difiere de la hipótesis.*",
        "diagnosis": "*Por escribir: una comprobación que pasa con el código sano y detecta la rotura.*",
        "lesson": "*Por escribir: la lección, en dos o tres frases.*",
        "references": "*Por escribir: dónde seguir leyendo.*",
        "target": "**Objetivo:** `{target}`.",
    },
}


MESSAGES = {
    "en": {
        "slug": "{slug!r} is not a valid slug: use lowercase letters, digits and single hyphens (e.g. mul-grad-swapped); it becomes the page's URL",
        "phase": "phase {phase} is not one of the site's phases ({first}-{last})",
        "title": "{option} must be one line of text",
        "symptom": "--symptom {symptom} is not a symptom of minigrad/breaks/catalogue.toml; its symptoms are: {keys}",
        "exists": "a break named {slug} is already in minigrad/breaks/catalogue.toml: choose another slug",
        "file_exists": "{path} already exists: choose another slug, or remove it",
        "no_git": "git is not installed: `new` reads the healthy file from git",
        "git_failed": "git {command} failed: {reason} (is this a git clone of the repository?)",
        "target_unchanged": "--target {target} has no change: the changed files are {changed}",
        "target_nothing": "--target {target} has no change: nothing in minigrad/ has changed",
        "no_change": "nothing in minigrad/ differs from git's HEAD: edit the file to introduce the bug first, then run `new`",
        "several": "minigrad/ has changes in {count} files ({changed}): give --target with the one the break edits",
        "not_reproducible": "the edit cannot be written as a diff that reproduces it exactly (a missing newline at the end of the file?)",
        "no_nav": "mkdocs.yml has no `- Breaks:` section in its nav to add the page to",
        "unwritable": "cannot write {path}: {reason}; nothing was changed",
        "done": """new break {slug} (phase {phase}): {target} is healthy again, its edit is in minigrad/breaks/{slug}.diff
wrote minigrad/breaks/{slug}.diff, the entry in minigrad/breaks/catalogue.toml,
docs/breaks/{slug}.md and docs/breaks/{slug}.es.md (in mkdocs.yml's nav)

The site builds now: NO_MKDOCS_2_WARNING=1 uv run mkdocs serve, then open breaks/{slug}/.

Next:
1. Write the Procedure blocks in docs/breaks/{slug}.md and the same code in
   docs/breaks/{slug}.es.md; mark what the break does to each block:
   {{.python broken="silent"}} or {{.python broken="raises ValueError: text"}}.
2. uv run pytest --update-outputs docs/breaks/{slug}.md docs/breaks/{slug}.es.md tests/test_diagnostics_matrix.py
   writes their outputs and the diagnostics matrix: read them.
3. Write the other sections, then translate them in docs/breaks/{slug}.es.md.
4. {symptoms}
5. uv run pytest""",
        "chosen": "Its symptoms: {keys} (symptoms = [...] in minigrad/breaks/catalogue.toml: change them there if\n   the outputs show others).",
        "to_choose": "Choose the break's symptoms: symptoms = [...] in its entry of minigrad/breaks/catalogue.toml\n"
                     "   (`uv run python -m minigrad.breaks new --help` lists the keys). Until then the symptom index\n"
                     "   lists it under \"symptoms not chosen yet\" and tests/test_symptoms.py fails.",
    },
    "es": {
        "slug": "{slug!r} no es un slug válido: usa minúsculas, dígitos y guiones sueltos (p. ej. mul-grad-swapped); será la URL de la página",
        "phase": "la fase {phase} no es una de las fases del sitio ({first}-{last})",
        "title": "{option} debe ser una línea de texto",
        "symptom": "--symptom {symptom} no es un síntoma de minigrad/breaks/catalogue.toml; sus síntomas son: {keys}",
        "exists": "ya hay una rotura llamada {slug} en minigrad/breaks/catalogue.toml: elige otro slug",
        "file_exists": "{path} ya existe: elige otro slug, o bórralo",
        "no_git": "git no está instalado: `new` lee el archivo sano de git",
        "git_failed": "git {command} falló: {reason} (¿es un clon git del repositorio?)",
        "target_unchanged": "--target {target} no tiene cambios: los archivos cambiados son {changed}",
        "target_nothing": "--target {target} no tiene cambios: nada ha cambiado en minigrad/",
        "no_change": "nada en minigrad/ difiere del HEAD de git: primero edita el archivo para introducir el bug, luego ejecuta `new`",
        "several": "minigrad/ tiene cambios en {count} archivos ({changed}): indica con --target el que edita la rotura",
        "not_reproducible": "la edición no se puede escribir como un diff que la reproduzca exactamente (¿falta el salto de línea final?)",
        "no_nav": "mkdocs.yml no tiene una sección `- Breaks:` en su nav donde añadir la página",
        "unwritable": "no se puede escribir {path}: {reason}; no se cambió nada",
        "done": """nueva rotura {slug} (fase {phase}): {target} vuelve a estar sano, su edición está en minigrad/breaks/{slug}.diff
se escribieron minigrad/breaks/{slug}.diff, la entrada en minigrad/breaks/catalogue.toml,
docs/breaks/{slug}.md y docs/breaks/{slug}.es.md (en el nav de mkdocs.yml)

El sitio ya se construye: NO_MKDOCS_2_WARNING=1 uv run mkdocs serve, y abre breaks/{slug}/.

Siguientes pasos:
1. Escribe los bloques de Procedimiento en docs/breaks/{slug}.md y el mismo código en
   docs/breaks/{slug}.es.md; marca qué le hace la rotura a cada bloque:
   {{.python broken="silent"}} o {{.python broken="raises ValueError: texto"}}.
2. uv run pytest --update-outputs docs/breaks/{slug}.md docs/breaks/{slug}.es.md tests/test_diagnostics_matrix.py
   escribe sus salidas y la matriz de diagnósticos: léelas.
3. Escribe las demás secciones y tradúcelas en docs/breaks/{slug}.es.md.
4. {symptoms}
5. uv run pytest""",
        "chosen": "Sus síntomas: {keys} (symptoms = [...] en minigrad/breaks/catalogue.toml: cámbialos ahí si\n   las salidas muestran otros).",
        "to_choose": "Elige los síntomas de la rotura: symptoms = [...] en su entrada de minigrad/breaks/catalogue.toml\n"
                     "   (`uv run python -m minigrad.breaks new --help` lista las claves). Mientras tanto el índice de\n"
                     "   síntomas la lista en \"síntomas aún sin elegir\" y tests/test_symptoms.py falla.",
    },
}


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
