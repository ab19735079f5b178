"""Find the course's parts in a learner's package, whatever its files are called.

Learners name their files as they like (`core.py`, `tensor_operations.py`,
`nn/layers.py`, `neural_net.py`), so the parts are looked for by what is in
the files, not by the files' names: a class called `Value` or `Tensor` (in the
course's files first: scalar.py, engine.py, value.py, tensor.py), and the
protocol's names of nn, optim and functional (`Linear`, `SGD`, `cross_entropy`,
...) wherever they are defined. A module called nn, optim or functional is
that part, as before; names it lacks are looked up in the other files. The
order is the files' order, never a set's, so the same folder gives the same
engine.
"""

import inspect
import types
from pathlib import Path

CLASS_FILES = {"Value": ("scalar", "engine", "value"), "Tensor": ("tensor", "engine")}
PROTOCOL = {
    "nn": ("Module", "Linear", "ReLU", "Tanh", "Sigmoid", "Sequential", "ModuleList", "LayerNorm", "BatchNorm1d",
           "Dropout", "CrossEntropyLoss", "MSELoss", "clip_grad_norm_"),
    "optim": ("SGD", "Adam", "AdamW"),
    "functional": ("softmax", "log_softmax", "cross_entropy", "mse_loss", "binary_cross_entropy_with_logits"),
}


def parts(folder, modules):
    """{part: (class or module or namespace, where it came from)} from [(path, module)] in load order."""
    found = {}
    for part, stems in CLASS_FILES.items():
        named = [(path, cls) for path, module in modules for cls in _defined(module) if cls.__name__ == part]
        named.sort(key=lambda item: (_rank(item[0], stems), str(item[0])))
        if named:
            found[part] = (named[0][1], f"{named[0][0]}:{part}")
    for part, names in PROTOCOL.items():
        whole = next(((path, m) for path, m in modules if _stem(path) == part), None)
        gathered, origins = {}, []
        for path, module in modules:
            if whole and module is whole[1]:
                continue
            for name in names:
                thing = _protocol_name(module, name, part)
                if thing is not None and name not in gathered and not (whole and hasattr(whole[1], name)):
                    gathered[name] = thing
                    origins.append(f"{name} from {path}")
        if whole and gathered:
            found[part] = (Merged(whole[1], types.SimpleNamespace(**gathered)), f"{_where(whole[0])}, then {', '.join(origins)}")
        elif whole:
            found[part] = (whole[1], _where(whole[0]))
        elif gathered:
            found[part] = (types.SimpleNamespace(**gathered), ", ".join(origins))
    return found


class Merged:
    """A module of the learner's, with the protocol's names it lacks found in their other files."""

    def __init__(self, first, second):
        self._modules = (first, second)

    def __getattr__(self, name):
        for module in self._modules:
            if hasattr(module, name):
                return getattr(module, name)
        raise AttributeError(name)


def _defined(module):
    """The classes a module defines itself (not those it imports), in the order they are written."""
    return [v for v in vars(module).values() if isinstance(v, type) and v.__module__ == module.__name__]


def _protocol_name(module, name, part):
    """`name` as this module defines it: a class for nn and optim (its case aside: `Relu` is ReLU), a
    function for functional (and clip_grad_norm_ in nn)."""
    wanted_function = part == "functional" or name == "clip_grad_norm_"
    for key, value in vars(module).items():
        if key.lower() != name.lower() or getattr(value, "__module__", None) != module.__name__:
            continue
        if wanted_function and inspect.isfunction(value):
            return value
        if not wanted_function and isinstance(value, type) and (part != "nn" or name in ("Module", "ModuleList") or _called(value)):
            return value
    return None


def _called(cls):
    """A layer is called on its input: its class (or a base of the learner's) defines __call__ or forward
    as a method of its instances. A `Function` of the same name (static forward(ctx, ...)) is not a layer."""
    for klass in inspect.getmro(cls):
        if klass is object:
            continue
        if "__call__" in vars(klass):
            return True
        forward = vars(klass).get("forward")
        if forward is not None and not isinstance(forward, (staticmethod, classmethod)):
            return True
    return False


def _stem(path):
    path = Path(path)
    return path.parent.name if path.name == "__init__.py" else path.stem


def _rank(path, stems):
    return stems.index(_stem(path)) if _stem(path) in stems else len(stems)


def _where(path):
    path = Path(path)
    return str(path.parent if path.name == "__init__.py" else path)
