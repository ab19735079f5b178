"""Load a learner engine (healthy, or a copy with one bug's diff applied) and
drive it through one small adapter, whatever its style calls things.

The adapter reads each style's facts from manifest.toml ([style.X.api]): the
tests then check that those facts are true, so the manifest that the doctor's
author reads cannot drift from the engines."""

import itertools
import shutil
import tomllib
from pathlib import Path

import numpy as np

from minigrad import breaks
from minigrad.doctor.loading import import_file_as
from minigrad.breaks import patch

HERE = Path(__file__).resolve().parent
MANIFEST = tomllib.loads((HERE / "manifest.toml").read_text(encoding="utf-8"))
STYLES = MANIFEST["style"]
_names = itertools.count()


def load_package(folder, alias=None):
    """Import the package in `folder` under a fresh name, so that classic's
    `minigrad` never shadows the real one and two copies never share modules."""
    folder = Path(folder)
    name = alias or f"learner_{folder.name}_{next(_names)}"
    return import_file_as(name, folder / "__init__.py", package=True)


def style_root(style):
    return HERE / STYLES[style]["root"]


def package_folder(style, root=None):
    """The folder a learner passes as --engine DIR: root/<package path>."""
    folder = HERE / STYLES[style]["folder"]
    return folder if root is None else Path(root) / folder.relative_to(style_root(style))


def diff_path(style, slug):
    return HERE / STYLES[style]["bugs"][slug]


def apply_diff(style, slug, root):
    """Apply the bug's diff to the style's files under `root` (a copy), strictly."""
    text = diff_path(style, slug).read_text(encoding="utf-8")
    for file_patch in patch.parse(text, f"{style}/{slug}.diff"):
        target = Path(root) / file_patch.path
        target.write_text(patch.apply(file_patch, target.read_text(encoding="utf-8")), encoding="utf-8")


def broken_copy(style, slug, tmp_path):
    """A copy of the style's folder with the bug's diff applied, imported."""
    root = Path(tmp_path) / f"{style}-{slug}"
    shutil.copytree(style_root(style), root, ignore=shutil.ignore_patterns("bugs", "__pycache__"))
    apply_diff(style, slug, root)
    return Engine(style, load_package(package_folder(style, root)))


def package_copy(style, root, slug=None):
    """A copy of the style's files under `root`, with the bug's diff applied when `slug` is given:
    the package folder a learner would pass as --engine DIR."""
    copy = Path(root) / style
    shutil.copytree(style_root(style), copy, ignore=shutil.ignore_patterns("bugs", "__pycache__"))
    if slug:
        apply_diff(style, slug, copy)
    return package_folder(style, copy)


def healthy(style):
    return Engine(style, load_package(package_folder(style)))


class Engine:
    """One style's engine, driven the same way for every style."""

    def __init__(self, style, package):
        self.style, self.pkg, self.api = style, package, STYLES[style]["api"]
        self.Tensor, self.Value = package.Tensor, getattr(package, "Value", None)
        self.nn, self.optim, self.F = package.nn, package.optim, package.functional

    def has(self, dotted):
        """`nn.BatchNorm1d`, `Tensor.max`: whether the engine has it (manifest's `lacks`)."""
        if dotted.startswith("Tensor."):
            return hasattr(self.tensor(np.zeros((2, 2))), dotted.split(".", 1)[1])
        kind, name = dotted.split(".")
        return hasattr(getattr(self, kind), name)

    def tensor(self, x, grad=True):
        x = np.array(x, dtype=float)  # a copy: the ndarray style shares its input's memory
        if self.api["requires_grad_keyword"]:
            return self.Tensor(x, requires_grad=grad)
        return self.Tensor(x)

    def grad(self, t):
        return None if t.grad is None else np.array(t.grad, dtype=float)

    def params(self, module):
        return list(module.parameters())

    def eval(self, module):
        module.eval()  # classic's eval() returns None
        return module

    # layers, with weights given and read back in torch's layout (W is (out, in))
    def _weight(self, layer):
        return getattr(layer, self.api["linear_weight"]), getattr(layer, self.api["linear_bias"])

    def _transposed(self):
        return self.api["linear_weight_shape"] == "(in, out)"

    def set_linear(self, layer, W, b):
        w, bias = self._weight(layer)
        w.data[...] = np.asarray(W).T if self._transposed() else W
        bias.data[...] = b

    def linear_grads(self, layer):
        w, bias = self._weight(layer)
        return self.grad(w).T if self._transposed() else self.grad(w), self.grad(bias)

    def _norm(self, layer):
        return getattr(layer, self.api["norm_weight"]), getattr(layer, self.api["norm_bias"])

    def set_norm(self, layer, weight, bias):
        w, b = self._norm(layer)
        w.data[...], b.data[...] = weight, bias

    def norm_grads(self, layer):
        return [self.grad(t) for t in self._norm(layer)]

    def loss_of(self, out, weight):
        """sum(out * weight), the reference's loss for an op or a layer."""
        return (out * np.asarray(weight, dtype=float)).sum()


def finite_difference_grads(loss_fn, leaves, eps=1e-6):
    """Central differences of loss_fn() over every entry of every leaf, perturbing `.data` in place."""
    grads = []
    for leaf in leaves:
        data = leaf.data
        g = np.zeros(data.shape)
        for i in np.ndindex(data.shape):
            old = data[i]
            data[i] = old + eps
            up = float(np.asarray(loss_fn().data))
            data[i] = old - eps
            down = float(np.asarray(loss_fn().data))
            data[i] = old
            g[i] = (up - down) / (2 * eps)
        grads.append(g)
    return grads


def catalogue_slugs():
    return [b.slug for b in breaks.load().breaks]

