"""Load a learner's engine: a whole package folder, a class or a module.

`load_engine(folder, ...)` finds the parts in a learner's package folder:
`Value` in scalar.py, engine.py or value.py, `Tensor` in tensor.py, and the
modules nn.py, optim.py and functional.py (or packages nn/, optim/, functional/,
as torch.nn is one), each optional; a target of its own
(`path/to/file.py:Class` or `dotted.module:Class` for a class,
`path/to/file.py` or `dotted.module` for a module) names or overrides a part.
A file inside a package (a directory with `__init__.py`) is imported as part of
its package, under the package's own name (so that `import mypackage.tensor`
inside it works too), except a package called `minigrad`, which is imported
under an alias so as not to be confused with this one (its modules must import
each other relatively). A package whose files import each other by plain name
(`from engine import Value`, written to be run from inside the folder) is read
as its own scripts read it. A bad target is one clear line (`TargetError`); a
file that fails to import shows the learner's own traceback (`ImportFailure`).
"""

import importlib
import importlib.util
import sys
import types
from pathlib import Path

from ..checks.registry import engine_frames
from . import discovery

USAGE = "expected path/to/file.py:ClassName or dotted.module:ClassName"
CLASSES = discovery.CLASS_FILES  # where Value and Tensor are looked for first
MODULES = ("nn", "optim", "functional")
PARTS = ("Value", "Tensor", *MODULES)


class TargetError(Exception):
    """No such file, module or class: the message is the whole report."""


class ImportFailure(Exception):
    """The learner's module raised while importing; `traceback` shows only their frames."""

    def __init__(self, target, error):
        super().__init__(f"{target}: importing it raised {type(error).__name__}")
        self.error = f"{type(error).__name__}: {error}"
        self.traceback = engine_frames(error)
        self.missing = error.name if isinstance(error, ModuleNotFoundError) else None  # `from engine import` in a package


def load_engine(folder=None, **targets):
    """{part: class or module} for the parts found in `folder` and those named in `targets`
    (Value=..., Tensor=..., nn=..., optim=..., functional=...), and {part: where it came from}, with
    "not loaded" (the files that failed to import, one line each) and "not loaded traceback" (their
    frames) when some did: the caller shows the first and pops the second."""
    parts, where = {}, {}
    if folder is not None:
        for part, (thing, origin) in _from_folder(Path(folder)).items():
            if thing is not None:
                parts[part] = thing
            where[part] = origin
    for part, target in targets.items():
        if target:
            parts[part] = load_class(target) if part in CLASSES else load_module(target)
            where[part] = target
    return parts, where


def _from_folder(folder):
    if not folder.is_dir():
        raise TargetError(f"no such folder: {folder}")
    folder = _the_package_in(folder)
    files = python_files(folder)
    if not files:
        raise TargetError(f"{folder} holds no Python file")
    modules, unloaded = _load_all(folder, files)
    if not modules:
        raise unloaded[0][1]  # nothing imports: the first failure, with the learner's own traceback
    found = discovery.parts(folder, modules)
    if not any(part in found for part in PARTS):
        raise TargetError(f"{folder} has no Value or Tensor class and none of the names of nn, optim or functional "
                          "(name them with --scalar, --tensor, --nn, --optim, --functional)")
    found = _with_nn_functional(found)
    if unloaded:  # part by part: what cannot import is named, the rest is checked
        found["not loaded"] = (None, "; ".join(f"{path} ({e.error})" for path, e in unloaded))
        found["not loaded traceback"] = (None, "".join(e.traceback for _, e in unloaded))
    return found


SKIPPED_FOLDERS = {"tests", "test", "examples", "example", "docs", "notebooks", "scripts", "build", "dist", "venv",
                   "site-packages", "node_modules", "__pycache__", "benchmarks", "data"}
SKIPPED_FILES = {"setup.py", "conftest.py", "__main__.py", "noxfile.py"}
MOST_FILES = 60  # a package, not a whole repository


def python_files(folder):
    """The package's Python files, the course's names first (scalar, engine, value, tensor, nn, optim,
    functional), then the rest in name order; tests, examples and the like left out."""
    known = [*CLASSES["Value"], "tensor", *MODULES]
    files = []
    for path in sorted(folder.rglob("*.py")):
        relative = path.relative_to(folder)
        if len(relative.parts) > 3 or any(p in SKIPPED_FOLDERS or p.startswith(".") for p in relative.parts[:-1]):
            continue
        if path.name in SKIPPED_FILES or path.name.startswith("test_") or path.name.endswith("_test.py"):
            continue
        if path.name == "__init__.py" and path.parent == folder:
            continue  # the package itself is imported with its modules
        files.append(path)
    stem = lambda p: p.parent.name if p.name == "__init__.py" else p.stem  # noqa: E731
    files.sort(key=lambda p: (known.index(stem(p)) if stem(p) in known and p.parent in (folder, folder / stem(p)) else len(known), str(p)))
    return files[:MOST_FILES]


def _load_all(folder, files):
    """[(path, module)] that imported and [(path, ImportFailure)] that did not, with the loader the
    folder's own code expects: its package, plain names (written to run from the folder), or its
    folder's name without an __init__.py (`from tgrad.tensor import Tensor`)."""
    if not (folder / "__init__.py").is_file():
        return _import_each(folder, files, _as_namespace(folder) if _imports_itself(folder, files) else _by_plain_name(folder))
    modules, unloaded = _import_each(folder, files, _in_package)
    if any(e.missing and _is_sibling(folder, e.missing) for _, e in unloaded):
        # `from engine import Value` beside an __init__.py: files written to run from their own
        # folder, as scripts are. Read them so, as the learner's own scripts do.
        return _import_each(folder, files, _by_plain_name(folder))
    return modules, unloaded


def _import_each(folder, files, load):
    modules, unloaded = [], []
    for path in files:
        try:
            modules.append((path, load(folder, path)))
        except ImportFailure as e:
            unloaded.append((path, e))
    return modules, unloaded


def _is_sibling(folder, name):
    return (folder / f"{name.split('.')[0]}.py").is_file() or (folder / name.split(".")[0]).is_dir()


def _imports_itself(folder, files):
    """Whether the folder's files import it by its own name (`from tgrad.tensor import ...`)."""
    needles = (f"from {folder.name}.", f"import {folder.name}.", f"from {folder.name} import")
    for path in files:
        try:
            text = path.read_text(encoding="utf-8-sig", errors="replace")
        except OSError:
            continue
        if any(needle in text for needle in needles):
            return True
    return False


def _dotted(folder, path):
    relative = path.relative_to(folder).with_suffix("")
    parts = relative.parts[:-1] if relative.name == "__init__" else relative.parts
    return ".".join(parts)


def _as_namespace(folder):
    """Import the files as modules of a namespace package named after the folder."""
    parent = str(folder.parent)
    if parent not in sys.path:
        sys.path.insert(0, parent)

    def load(folder, path):
        name = ".".join([folder.name, _dotted(folder, path)])
        try:
            return importlib.import_module(name)
        except Exception as e:
            raise ImportFailure(str(path), e) from None

    return load


def _with_nn_functional(found):
    """PyTorch's layout: the losses in `nn.functional`. Without a functional.py, that is the
    functional part; beside one, names it lacks are looked up there."""
    nn = found.get("nn", (None, ""))[0]
    inner = getattr(nn, "functional", None)
    if not isinstance(inner, types.ModuleType):
        return found
    if "functional" not in found:
        found["functional"] = (inner, getattr(inner, "__file__", None) or f"{found['nn'][1]}.functional")
    elif found["functional"][0] is not inner:
        outer, where = found["functional"]
        found["functional"] = (discovery.Merged(outer, inner), f"{where}, then {getattr(inner, '__file__', None) or 'nn.functional'}")
    return found


def _file_of(folder, stem):
    """`stem.py`, or for nn, optim and functional a package `stem/` too (`nn/__init__.py`, as
    PyTorch lays out torch.nn and torch.optim); None when the folder has neither."""
    candidates = [folder / f"{stem}.py"] + ([folder / stem / "__init__.py"] if stem in MODULES else [])
    return next((path for path in candidates if path.is_file()), None)


def _in_package(folder, path):
    return load_module(str(path))


def _by_plain_name(folder):
    """Files of a folder that is no package import each other by plain name (`from tensor import
    Tensor`): import them under those names, so that every file sees the same classes."""
    sys.path.insert(0, str(folder))

    def load(folder, path):
        name = _dotted(folder, path)
        top = name.split(".")[0]
        module = sys.modules.get(top)
        if module is not None and Path(getattr(module, "__file__", "") or "").resolve().parent not in (folder.resolve(), (folder / top).resolve()):
            for stale in [n for n in sys.modules if n == top or n.startswith(top + ".")]:
                del sys.modules[stale]  # a module of that name from elsewhere (another learner's folder)
        try:
            return importlib.import_module(name)
        except Exception as e:
            raise ImportFailure(str(path), e) from None

    return load


def _the_package_in(folder):
    """`src/` for `src/minigrad/`: a folder holding exactly one package is taken to mean it."""
    if any(_file_of(folder, s) for s in ("scalar", "engine", "value", "tensor", *MODULES)):
        return folder
    packages = [d for d in folder.iterdir() if d.is_dir() and (d / "__init__.py").is_file()]
    return packages[0] if len(packages) == 1 else folder


def load_module(target):
    """A module from `path/to/file.py` or `dotted.module`."""
    if target.endswith(".py") or "/" in target or "\\" in target:
        return _load_file(target, Path(target))
    return _load_dotted(target, target)


def load_class(target):
    where, sep, name = target.rpartition(":")
    if not sep or not where or not name.isidentifier():
        raise TargetError(f"{target!r}: {USAGE}")
    module = _load_file(target, Path(where)) if where.endswith(".py") or "/" in where or "\\" in where else _load_dotted(target, where)
    try:
        return getattr(module, name)
    except AttributeError:
        classes = sorted(n for n, v in vars(module).items() if isinstance(v, type) and v.__module__ == module.__name__)
        raise TargetError(f"{where} has no {name!r} (its classes: {', '.join(classes) or 'none'})") from None


def _load_dotted(target, dotted):
    if "" not in sys.path and "." not in sys.path:
        sys.path.insert(0, "")  # "importable from the current directory", as with `python -m`
    try:
        return importlib.import_module(dotted)
    except ModuleNotFoundError as e:
        if e.name and (dotted == e.name or dotted.startswith(e.name + ".")):
            raise TargetError(f"no module named {dotted!r} importable from the current directory") from None
        raise ImportFailure(target, e) from None
    except Exception as e:
        raise ImportFailure(target, e) from None


def _load_file(target, path):
    if not path.is_file():
        raise TargetError(f"no such file: {path}")
    path = path.resolve()
    package_dir = path.parent
    parts = [path.stem] if path.stem != "__init__" else []
    while (package_dir / "__init__.py").exists():
        parts.insert(0, package_dir.name)
        package_dir = package_dir.parent
    try:
        if (path.parent / "__init__.py").exists() and parts[0] != "minigrad":
            return _import_by_name(package_dir, parts)
        if (path.parent / "__init__.py").exists():  # a package called minigrad: under an alias, then the module
            alias = f"_learner_{parts[0]}_{abs(hash(str(package_dir))) % 10**8}"
            if alias not in sys.modules:
                import_file_as(alias, package_dir / parts[0] / "__init__.py", package=True)
            return importlib.import_module(".".join([alias, *parts[1:]]))
        sys.path.insert(0, str(path.parent))  # a standalone file may import its neighbours
        return import_file_as(f"_learner_{path.stem}_{abs(hash(str(path))) % 10**8}", path)
    except Exception as e:
        raise ImportFailure(target, e) from None


def _import_by_name(package_dir, parts):
    """Import a learner's package by its name from its folder, forgetting any other package of that name."""
    own = (package_dir / parts[0]).resolve()
    for name in [n for n in sys.modules if n == parts[0] or n.startswith(parts[0] + ".")]:
        file = getattr(sys.modules[name], "__file__", None)
        if not file or own not in Path(file).resolve().parents:
            del sys.modules[name]
    if str(package_dir) not in sys.path:
        sys.path.insert(0, str(package_dir))
    return importlib.import_module(".".join(parts))


def import_file_as(name, file, package=False):
    """Import `file` (a package's __init__.py when `package`) as module `name`: a learner's
    package under a name of ours, so it never shadows minigrad nor shares modules with a copy."""
    locations = [str(file.parent)] if package else None
    spec = importlib.util.spec_from_file_location(name, file, submodule_search_locations=locations)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module
