"""A file outside any package (a MkDocs hook, a script) loaded as a module, for its tests."""

import importlib.util
import sys


def module_at(path, name):
    """The module run from `path`, registered under `name` (dataclasses look their module up there)."""
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
