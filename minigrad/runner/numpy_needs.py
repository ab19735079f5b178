"""Which chains of blocks need NumPy: the browser fetches its 12 MB wheel only for those.

One decision, three users: the build (minigrad_site/build/runtime.py writes `needs.json`;
minigrad_site/pages/fences.py marks a block whose chain needs NumPy, so the page can fetch
the wheel at the reader's first intent, while Python itself downloads), the
browser's worker (before a run: load NumPy or not) and the Node harness that
runs every block in Pyodide. Both halves are computed from source, never kept
by hand: the package's own import graph, and a chain's own imports.
"""

import ast
import json


def _imports(path, name):
    """(module-level imports, imports anywhere) of one module, as absolute names.

    Module-level ones run on import; the rest (inside functions, e.g. the
    package's lazy `__getattr__`) may run once the module's attributes are used.
    `from X import a` counts X and X.a (a module, if one exists by that name).
    """
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    inside = {id(n) for f in ast.walk(tree) if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))
              for n in ast.walk(f) if n is not f}
    top, anywhere = set(), set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parts + ([node.module] if node.module else []))
            names = {base} | {f"{base}.{a.name}" for a in node.names}
        else:
            continue
        anywhere |= names
        if id(node) not in inside:
            top |= names
    return top, anywhere


def numpy_needs():
    """Which of minigrad's modules need NumPy, from the package's own import graph:

    {"modules": every module, "on_import": importing it loads NumPy,
     "on_use": using its attributes may (a lazy import inside a function)}.
    """
    from pathlib import Path  # only the build and the harness compute this; the worker reads needs.json

    package = Path(__file__).resolve().parents[1]
    graph = {}
    for path in sorted(package.rglob("*.py")):
        if "__pycache__" in path.parts:
            continue
        parts = list(path.relative_to(package.parent).with_suffix("").parts)
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        graph[name] = _imports(path, name)

    def parents(name):  # importing a.b.c runs a and a.b first
        parts = name.split(".")
        return {".".join(parts[:i]) for i in range(1, len(parts))}

    def loads_numpy(names, seen):
        for name in names:
            if name == "numpy" or name.startswith("numpy."):
                return True
            for module in {name} | parents(name):
                if module in graph and module not in seen:
                    seen.add(module)
                    if loads_numpy(graph[module][0] | parents(module), seen):
                        return True
        return False

    return {
        "modules": sorted(graph),
        "on_import": sorted(m for m in graph if loads_numpy({m}, set())),
        "on_use": sorted(m for m in graph if loads_numpy({m} | graph[m][1], set())),
    }


def chain_needs_numpy(codes, needs):
    """Whether a chain of blocks (their code, in order) imports NumPy or a minigrad module that does.

    `needs` is `numpy_needs()`. A block that does not parse counts for nothing:
    its run reports the SyntaxError.
    """
    modules, on_import, on_use = (set(needs[k]) for k in ("modules", "on_import", "on_use"))
    wanted = set()
    for code in codes:
        try:
            tree = ast.parse(code)
        except SyntaxError:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                wanted |= {a.name for a in node.names}
            elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                subs = {f"{node.module}.{a.name}" for a in node.names} & modules
                wanted |= subs | ({node.module} if len(subs) < len(node.names) else set())
                if subs and node.module in on_import:
                    return True
    return any(n == "numpy" or n.startswith("numpy.") or n in on_use for n in wanted)


def chain_json_needs_numpy(blocks_json, needs_json):
    """The worker's form: the run's blocks as JSON ([{code, ...}]) and needs.json's "numpy"."""
    return chain_needs_numpy([b["code"] for b in json.loads(blocks_json)], json.loads(needs_json))
