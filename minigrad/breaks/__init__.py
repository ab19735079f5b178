"""The breaks catalogue: one unified diff per classic autograd bug.

`applied(slug)` gives an isolated broken copy of minigrad for a block of code
(tests, doc blocks, the browser): new module objects built from the patched
source in memory, swapped into `sys.modules` only inside the `with` block.
Nothing is written to disk; the healthy modules come back on exit.
`python -m minigrad.breaks` edits a learner's working copy instead.
"""

import importlib.abc
import importlib.util
import linecache
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import NamedTuple

from . import patch

HERE = Path(__file__).resolve().parent
PACKAGE_DIR = HERE.parent  # .../minigrad
ROOT = PACKAGE_DIR.parent  # diff paths ("minigrad/tensor.py") are relative to this


class Break(NamedTuple):  # not a dataclass: see minigrad/runner/blocks.py
    slug: str
    phase: int
    target: str  # the file the diff edits, e.g. "minigrad/tensor.py"
    title: dict  # language -> title
    symptoms: tuple = ()  # keys of Catalogue.symptoms; empty until the teacher chooses them

    def caught_by(self):
        """The checks that catch this break, as the committed matrix says (empty before it is computed)."""
        row = matrix()["breaks"].get(self.slug, {})
        return [name for name, cell in row.items() if cell["caught"]]

    @property
    def diff_path(self):
        return HERE / f"{self.slug}.diff"

    def diff_text(self):
        return self.diff_path.read_text(encoding="utf-8")

    def file_patches(self, variant=None):
        path = self.diff_path if variant is None else HERE / "variants" / f"{self.slug}.{variant}.diff"
        return patch.parse(path.read_text(encoding="utf-8"), name=path.name)

    def variants(self):
        """The same bug in minigrad's other engine (variants/<slug>.tensor.diff): not the page's
        lesson, but what a learner's engine shows when the bug is in its Tensor instead."""
        return sorted(p.name[len(self.slug) + 1 : -len(".diff")] for p in (HERE / "variants").glob(f"{self.slug}.*.diff"))


class Catalogue(NamedTuple):
    """Everything catalogue.toml says, read in one place: pages, hooks, the doctor and tests use this."""

    breaks: list  # Break, by phase then as listed
    symptoms: dict  # key -> {language: title}, in the file's order
    diagnostics: dict  # check name -> {language: title}
    phases: dict  # phase number -> {language: name}
    symptom_groups: dict = {}  # group -> {language: title}, the symptom index's sections in order
    symptom_group: dict = {}  # symptom key -> its group
    symptom_also: dict = {}  # symptom key -> {language: [phrases the index's filter also finds it by]}


_read = {}  # the file's (mtime, size) -> Catalogue: `mkdocs serve` sees a teacher's edit at once


MATRIX = HERE / "matrix.json"  # every break against every check, computed by tests/test_diagnostics_matrix.py


def matrix():
    """The committed diagnostics matrix, {"diagnostics": [...], "breaks": {slug: {check: cell}}}: the one reader
    of minigrad/breaks/matrix.json (the site's table, Repair it's hints, the tests)."""
    import json

    return json.loads(MATRIX.read_text(encoding="utf-8"))


def load(text=None):
    """The catalogue from catalogue.toml (or from `text`, a catalogue to check before it is written)."""
    import tomllib  # here, not at the top: the browser's worker imports this package at boot, before any break is asked for

    path = HERE / "catalogue.toml"
    key = None if text is not None else (path.stat().st_mtime_ns, path.stat().st_size)
    if key in _read:
        return _read[key]
    data = tomllib.loads(path.read_text(encoding="utf-8") if text is None else text)
    breaks = sorted((Break(b["slug"], b["phase"], b["target"], dict(b["title"]), tuple(b.get("symptoms", ())))
                     for b in data["break"]), key=lambda b: b.phase)
    read = Catalogue(breaks, {k: dict(v.get("title", {})) for k, v in data.get("symptom", {}).items()},
                     {k: dict(v["title"]) for k, v in data.get("diagnostic", {}).items()},
                     {int(k): dict(v["title"]) for k, v in data.get("phase", {}).items()},
                     {k: dict(v.get("title", {})) for k, v in data.get("symptom_group", {}).items()},
                     {k: v.get("group") for k, v in data.get("symptom", {}).items()},
                     {k: {lang: list(p) for lang, p in v.get("also", {}).items()} for k, v in data.get("symptom", {}).items()})
    if key is not None:
        _read.clear()
        _read[key] = read
    return read


def catalogue():
    """Every break, in catalogue order (phase, then as listed)."""
    return load().breaks


def get(slug):
    for b in catalogue():
        if b.slug == slug:
            return b
    known = ", ".join(b.slug for b in catalogue())
    raise KeyError(f"no break named {slug!r}; known breaks: {known}")


def patched_sources(slug, root=ROOT, variant=None):
    """{relative path: text} of every file the break (or its variant) changes, patched in memory."""
    out = {}
    for fp in get(slug).file_patches(variant):
        source = (Path(root) / fp.path).read_text(encoding="utf-8")
        out[fp.path] = patch.apply(fp, source)
    return out


def _is_engine_module(name):
    """minigrad and its submodules, except this catalogue (which stays healthy)."""
    return (name == "minigrad" or name.startswith("minigrad.")) and not name.startswith("minigrad.breaks")


class _BrokenFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Serves minigrad's modules from source text, patched where the break says."""

    def __init__(self, label, changed):
        self.label, self.changed = label, changed

    def find_spec(self, name, path=None, target=None):
        if not _is_engine_module(name):
            return None
        relative = name.replace(".", "/")
        is_package = (ROOT / relative / "__init__.py").exists()
        file = f"{relative}/__init__.py" if is_package else f"{relative}.py"
        if not (ROOT / file).exists():
            return None
        spec = importlib.util.spec_from_loader(name, self, is_package=is_package)
        spec.origin = file
        return spec

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        file = module.__spec__.origin
        source = self.changed.get(file) or (ROOT / file).read_text(encoding="utf-8")
        shown_as = f"<{self.label}>/{file}"
        linecache.cache[shown_as] = (len(source), None, source.splitlines(keepends=True), shown_as)
        module.__file__ = str(ROOT / file)  # real, so data files beside it are found
        exec(compile(source, shown_as, "exec"), module.__dict__)


def applied(slug, variant=None):
    """Inside the block, `import minigrad...` gives the broken copy; yields its package."""
    changed = patched_sources(slug, variant=variant)  # a stale diff fails here, before anything is swapped
    return swapped(f"broken by {slug}", changed)


@contextmanager
def swapped(label, changed):
    """Inside the block, minigrad's modules come from `changed` ({relative path: source}) where it
    has them (tracebacks name them `<label>/path`), else from their files; yields the package."""
    healthy = {name: mod for name, mod in sys.modules.items() if _is_engine_module(name)}
    for name in healthy:
        del sys.modules[name]
    finder = _BrokenFinder(label, changed)
    sys.meta_path.insert(0, finder)
    try:
        import minigrad

        yield minigrad
    finally:
        sys.meta_path.remove(finder)
        for name in [n for n in sys.modules if _is_engine_module(n)]:
            del sys.modules[name]
        sys.modules.update(healthy)
