"""A learner's own settings for the doctor: `[tool.minigrad-doctor]` in their pyproject.toml.

The convention Python tools use (ruff, pytest, mypy): the nearest pyproject.toml
above the folder, with a table of this tool's name. It maps what does not fit
the course's protocol without editing the engine: where the parts are, and the
attributes that hold the numbers and the gradient.

    [tool.minigrad-doctor]
    engine = "src/mygrad"          # the package folder (what --engine names)
    value = "src/mygrad/core.py:Scalar"   # a class: path/to/file.py:Class or dotted.module:Class
    tensor = "mygrad.array:Array"
    nn = "src/mygrad/layers.py"    # a module: path/to/file.py or dotted.module
    optim = "mygrad.optimizers"
    functional = "mygrad.losses"
    data = "value"                 # the attribute that holds a Value's number or a Tensor's array
    grad = "grad"                  # the attribute that holds the gradient

Paths are relative to the pyproject.toml's folder. Command-line flags win over the table.
"""

import tomllib
from pathlib import Path

from .loading import TargetError

TABLE = "minigrad-doctor"
TARGETS = {"value": "Value", "tensor": "Tensor", "nn": "nn", "optim": "optim", "functional": "functional"}
NAMES = ("data", "grad")
KEYS = ("engine", *TARGETS, *NAMES)


def find(start):
    """(the pyproject.toml that holds the table, the table) nearest `start` and above it, or (None, {})."""
    here = Path(start).resolve()
    for folder in [here, *here.parents] if here.is_dir() else here.parents:
        path = folder / "pyproject.toml"
        if path.is_file():
            try:
                table = tomllib.loads(path.read_text(encoding="utf-8")).get("tool", {}).get(TABLE)
            except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
                raise TargetError(f"{path}: not valid TOML ({e})") from None
            if table is not None:
                return path, _checked(path, table)
    return None, {}


def _checked(path, table):
    unknown = sorted(set(table) - set(KEYS))
    if unknown:
        raise TargetError(f"{path}: [tool.{TABLE}] has no key {', '.join(map(repr, unknown))} (its keys: {', '.join(KEYS)})")
    for key, value in table.items():
        if not isinstance(value, str) or not value:
            raise TargetError(f"{path}: [tool.{TABLE}] {key} must be a non-empty string")
        if key in NAMES and not value.isidentifier():
            raise TargetError(f"{path}: [tool.{TABLE}] {key} = {value!r} is not an attribute name")
    return table


def settings(start, folder=None, targets=None):
    """(folder, targets, names) after the table: flags given on the command line win over it."""
    path, table = find(start)
    base = path.parent if path else Path(start)

    def resolved(target):
        where, sep, name = target.rpartition(":")
        location = where if sep else target
        if location.endswith(".py") or "/" in location or "\\" in location:
            location = str(base / location)
        return f"{location}:{name}" if sep else location

    folder = folder or (str(base / table["engine"]) if "engine" in table else None)
    merged = {part: resolved(table[key]) for key, part in TARGETS.items() if key in table}
    merged.update(targets or {})
    return folder, merged, {name: table[name] for name in NAMES if name in table}, path
