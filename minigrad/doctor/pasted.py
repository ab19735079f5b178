"""The doctor page's boxes: a learner pastes their classes and presses Run, with no calling lines.

On the doctor page (runner/doctor.js) a run begins with `begin()` and its code
ends with `after(globals())`. When the code did not call the doctor itself
(`check_engine`, `check_folder`), `after` looks in what the code defined for
the engine: a class with `backward()` and the arithmetic operators is a Value
when its numbers are plain ones, a Tensor when they are NumPy arrays (in
`.data`, or the class subclasses `np.ndarray`); the layers, optimizers and
losses the checks ask for by name (`Linear`, `SGD`, `mse_loss`...) are passed
too. When it cannot tell (no such class, or two that could be the same part)
it says, in the page's language, exactly which lines to add. Code that defines
no class at all (the page's own examples) is left as it is: its output stands.
"""

import contextlib
import io
import sys
import types

from . import check_engine, page_module
from ..words import by_language

# What the checks ask an engine's nn, optim and functional for (minigrad/checks/), as PyTorch names them.
NN = ("Module", "Linear", "Sequential", "Tanh", "ReLU", "Sigmoid", "Dropout", "LayerNorm", "BatchNorm",
      "BatchNorm1d", "MSELoss", "CrossEntropyLoss", "clip_grad_norm_")
OPTIM = ("SGD", "Adam", "AdamW")
FUNCTIONAL = ("mse_loss", "cross_entropy", "softmax", "log_softmax", "binary_cross_entropy_with_logits")
OPERATORS = ("__add__", "__mul__")  # with backward(): what makes a class an autograd engine's number
TENSOR_ONLY = ("__matmul__", "shape", "reshape", "T")  # when an instance cannot tell: a Value has none of these

WORDS = by_language("doctor.pasted")

_reports_before = None  # the doctor's report count when the page's run began (begin)


def begin():
    """A page run starts: what the doctor reports from now on was asked for by this run's code."""
    global _reports_before
    _reports_before = _reports()


def after(namespace, lang=None):
    """The run's code has run: unless it called the doctor, check the engine it defined (or say what to add).
    Returns the Diagnosis, or None when nothing was checked."""
    if _reports_before is not None and _reports() > _reports_before:
        return None  # the code called the doctor itself
    classes = defined_classes(namespace)
    if not classes:
        return None  # not an engine: the code did something else, and its output is its own
    lang = lang or (str(page_module().language()) if page_module() else "en")
    found = find_engine(classes)
    problem = _problem(classes, found, lang)
    if problem:
        print(problem)
        return None
    parts = {part: chosen[0] for part, chosen in found.items() if chosen}
    return check_engine(**parts, **modules(namespace), lang=lang)


def _reports():
    from .. import doctor  # the package's current count, not the one at import

    return doctor.reports


def defined_classes(namespace):
    """The classes the code itself defined (not imported), in the order it defined them."""
    here = namespace.get("__name__", "__main__")
    return [v for k, v in namespace.items() if isinstance(v, type) and v.__module__ == here and not k.startswith("__")]


def find_engine(classes):
    """{"Value": [candidates], "Tensor": [candidates]}, each list reduced to one where one is the base of
    the others or the only one called by the part's name."""
    found = {"Value": [], "Tensor": []}
    for cls in classes:
        if is_engine_class(cls):
            found[kind(cls)].append(cls)
    return {part: _narrowed(part, chosen) for part, chosen in found.items()}


def is_engine_class(cls):
    """backward() and the arithmetic operators, written by the learner (not object's or ndarray's own)."""
    mro = [k for k in cls.__mro__ if k.__module__ not in ("builtins", "numpy")]
    has = lambda name: any(name in vars(k) for k in mro)  # noqa: E731
    return callable(getattr(cls, "backward", None)) and all(has(op) for op in OPERATORS)


def kind(cls):
    """"Tensor" when the class holds NumPy arrays, "Value" when it holds plain numbers."""
    np = sys.modules.get("numpy")  # not imported by the learner's code: their numbers are no arrays
    if np is not None and issubclass(cls, np.ndarray):
        return "Tensor"
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            data = getattr(cls(2.0), "data", None)
    except (Exception, SystemExit):  # a constructor that wants more than a number (or exits): its names must tell
        data = None
    if np is not None and isinstance(data, np.ndarray):
        return "Tensor"
    if isinstance(data, (int, float)):
        return "Value"
    return "Tensor" if any(hasattr(cls, name) for name in TENSOR_ONLY) else "Value"


def _narrowed(part, chosen):
    bases = [c for c in chosen if all(issubclass(other, c) for other in chosen)]
    if bases:
        return bases[:1]
    named = [c for c in chosen if c.__name__ == part]
    return named if len(named) == 1 else chosen


def _problem(classes, found, lang):
    """What the learner must add, or "" when the engine was found."""
    words = WORDS[lang]
    for part, chosen in found.items():
        if len(chosen) > 1:
            names = ", ".join(c.__name__ for c in chosen)
            return words["several"].format(part=part, found=names) + _lines(f"{part}={chosen[0].__name__}")
    if not any(found.values()):
        names = ", ".join(c.__name__ for c in classes)
        return words["nothing"].format(found=names) + _lines(f"Value={words['yours']}")
    return ""


def _lines(argument):
    return f"\n\nfrom minigrad.doctor import check_engine\n\ncheck_engine({argument})"


def modules(namespace):
    """nn, optim and functional from what the code defined under the names the checks use; a part is
    passed only when the code defined one of its names."""
    here = namespace.get("__name__", "__main__")
    mine = {k: v for k, v in namespace.items() if getattr(v, "__module__", None) == here}
    parts = {}
    for part, names in (("nn", NN), ("optim", OPTIM), ("functional", FUNCTIONAL)):
        present = {name: mine[name] for name in names if name in mine}
        if present:
            parts[part] = types.SimpleNamespace(**present)
    return parts
