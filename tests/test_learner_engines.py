"""The learner engines (tests/learner_engines): fixtures for the doctor.

Each style is a healthy engine written unlike minigrad, plus one diff per
catalogue bug. Here: every style imports as a package from its folder (under
an alias: classic is called `minigrad`), matches PyTorch's numbers
(minigrad/reference/learner_engines.json, written by
scripts/make_torch_reference.py with torch) and finite
differences, keeps the facts its manifest states; every diff is what
make_bugs.py generates, applies with minigrad.breaks.patch, and changes the
behaviour its bug names (bug_checks.py)."""

import json

import numpy as np
import pytest

from minigrad.breaks import patch
from tests.learner_engines import bug_checks, make_bugs
from scripts.torch_reference import learner_engines as reference
from scripts.torch_reference.learner_engines import SCALARS  # scalar cases read alike in torch and in every engine
from tests.learner_engines.harness import (HERE, STYLES, broken_copy, catalogue_slugs, finite_difference_grads,
                                           healthy, load_package, package_folder)

REFERENCE = json.loads(reference.OUT.read_text(encoding="utf-8"))
ENGINES = {style: healthy(style) for style in STYLES}


def close(got, want, atol=1e-9):
    return np.allclose(np.asarray(got, dtype=float), np.asarray(want, dtype=float), rtol=1e-6, atol=atol)


# ---- the same cases as scripts/torch_reference/learner_engines.py, on the engines' own ops ------------

I, J = np.array([0, 1, 2, 1]), np.array([3, 0, 1, 0])
OPS = {
    "add (4,3) + (3,)": lambda a, b: a + b,
    "add (3,1) + (3,5)": lambda a, b: a + b,
    "sub (3,) - (4,3)": lambda a, b: a - b,
    "mul (3,1) * (1,4)": lambda a, b: a * b,
    "div (4,3) / (3,)": lambda a, b: a / (b * b + 1),
    "pow a**3 - b**-2": lambda a, b: a**3 - b**-2,
    "numbers on either side": lambda a: 2 - a * 3 + 1 / (a * a + 1) + a / 4 - 1,
    "ndarray on either side": lambda a, c: c + a * c - c / (a * a + 1) + (a - c),
    "neg": lambda a: -a,
    "matmul (3,4) @ (4,2)": lambda a, b: a @ b,
    "matmul a.T @ b": lambda a, b: a.T @ b,
    "matmul (4,) @ (4,2)": lambda a, b: a @ b,
    "matmul batched (2,3,4) @ (4,2)": lambda a, b: a @ b,
    "sum all (3,4)": lambda a: a.sum(),
    "sum axis 1 (3,4)": lambda a: a.sum(axis=1),
    "sum axis 0 keepdims (4,3)": lambda a: a.sum(axis=0, keepdims=True),
    "mean all (3,4)": lambda a: a.mean(),
    "mean axis 0 (4,3)": lambda a: a.mean(axis=0),
    "mean axis -1 keepdims (3,4)": lambda a: a.mean(axis=-1, keepdims=True),
    "max axis 1 (3,4)": lambda a: a.max(axis=1),
    "max all (3,4)": lambda a: a.max(),
    "exp (2,3)": lambda a: a.exp(),
    "log (2,3)": lambda a: a.log(),
    "tanh (2,3)": lambda a: a.tanh(),
    "relu (2,3)": lambda a: a.relu(),
    "sigmoid (2,3), wide": lambda a: a.sigmoid(),
    "index rows, cols (3,4)": lambda a: a[I, J],
    "transpose (3,4)": lambda a: a.T,
}
LOSSES = {
    "softmax (3,4)": lambda F, x, _: F.softmax(x),
    "softmax axis 0 (3,4)": lambda F, x, _: F.softmax(x, axis=0),
    "log_softmax near 1000 (2,3)": lambda F, x, _: F.log_softmax(x),
    "log_softmax axis 0 (3,4)": lambda F, x, _: F.log_softmax(x, axis=0),
    "cross_entropy (4,3)": lambda F, x, t: F.cross_entropy(x, np.array(t)),
    "mse_loss (4,1)": lambda F, x, t: F.mse_loss(x, np.array(t)),
    "bce with logits up to ±800 (6,)": lambda F, x, t: F.binary_cross_entropy_with_logits(x, np.array(t)),
}


def test_the_tables_are_the_references():
    assert list(OPS) == list(REFERENCE["ops"]) and list(SCALARS) == list(REFERENCE["scalars"])
    assert list(LOSSES) == list(REFERENCE["losses"])


@pytest.mark.parametrize("style", STYLES)
def test_each_style_imports_as_a_package_from_its_folder(style):
    folder = package_folder(style)
    assert sorted(p.name for p in folder.glob("*.py")) == sorted(STYLES[style]["files"])
    package = load_package(folder)
    assert package.__name__ != STYLES[style]["package"]  # an alias, never the real minigrad
    import minigrad

    assert not hasattr(minigrad, "engine") and minigrad.__file__ != package.__file__
    E = ENGINES[style]
    protocol = ["Value", "Tensor.max", "nn.Module", "nn.Linear", "nn.ReLU", "nn.Tanh", "nn.Dropout", "nn.Sequential",
                "nn.LayerNorm", "nn.BatchNorm1d", "nn.clip_grad_norm_", "optim.SGD", "optim.Adam", "optim.AdamW",
                "F.softmax", "F.log_softmax", "F.cross_entropy", "F.mse_loss", "F.binary_cross_entropy_with_logits"]
    lacks = {"Value": E.Value is None} | {name: not E.has(name) for name in protocol if name != "Value"}
    assert sorted(name for name, missing in lacks.items() if missing) == sorted(STYLES[style]["lacks"])


@pytest.mark.parametrize("style", STYLES)
def test_ops_match_torch(style):
    E, skipped = ENGINES[style], STYLES[style]["skip_reference"]
    for name, case in REFERENCE["ops"].items():
        if name in skipped:
            continue
        leaves = [np.array(x) if const else E.tensor(x) for x, const in zip(case["inputs"], case["const"])]
        out = OPS[name](*leaves)
        E.loss_of(out, case["weight"]).backward()
        assert close(out.data, case["output"]), name
        for leaf, want in zip(leaves, case["grads"]):
            if want is not None:
                assert close(E.grad(leaf), want), name


def test_values_match_torch():
    Value = ENGINES["classic"].Value
    for name, case in REFERENCE["scalars"].items():
        leaves = [Value(x) for x in case["inputs"]]
        out = SCALARS[name](*leaves)
        out.backward()
        assert close(out.data, case["output"]) and close([v.grad for v in leaves], case["grads"]), name


@pytest.mark.parametrize("style", STYLES)
def test_losses_match_torch(style):
    E = ENGINES[style]
    for name, case in REFERENCE["losses"].items():
        x = E.tensor(case["input"])
        out = LOSSES[name](E.F, x, case["extra"])
        E.loss_of(out, case["weight"]).backward()
        assert close(out.data, case["output"]) and close(E.grad(x), case["grad"]), name


def _layer(E, name, case):
    state = {k: np.array(v) for k, v in case["state"].items()}
    if name.startswith("linear"):
        layer = E.nn.Linear(3, 2)
        E.set_linear(layer, state["weight"], state["bias"])
    elif name.startswith("layernorm"):
        layer = E.nn.LayerNorm(4)
        E.set_norm(layer, state["weight"], state["bias"])
    elif name.startswith("batchnorm"):
        layer = E.nn.BatchNorm1d(3)
        E.set_norm(layer, state["weight"], state["bias"])
        for batch in case.get("batches", []):
            layer(E.tensor(batch, grad=False))
        if "batches" in case:
            E.eval(layer)
    else:
        layer = E.nn.Sequential(E.nn.Linear(3, 4), E.nn.Tanh(), E.nn.Linear(4, 2))
        first, last = (getattr(layer, "layers", None) or list(layer.children()))[::2]
        E.set_linear(first, state["0.weight"], state["0.bias"])
        E.set_linear(last, state["2.weight"], state["2.bias"])
    return layer


def _layer_grads(E, name, layer):
    if name.startswith("linear"):
        return dict(zip(["weight", "bias"], E.linear_grads(layer)))
    if name.startswith("mlp"):
        first, last = (getattr(layer, "layers", None) or list(layer.children()))[::2]
        return dict(zip(["0.weight", "0.bias", "2.weight", "2.bias"], E.linear_grads(first) + E.linear_grads(last)))
    return dict(zip(["weight", "bias"], E.norm_grads(layer)))


@pytest.mark.parametrize("style", STYLES)
def test_layers_match_torch(style):
    E = ENGINES[style]
    for name, case in REFERENCE["layers"].items():
        if name in STYLES[style]["skip_reference"]:
            continue
        layer = _layer(E, name, case)
        x = E.tensor(case["input"])
        out = layer(x)
        E.loss_of(out, case["weight"]).backward()
        assert close(out.data, case["output"]) and close(E.grad(x), case["input_grad"]), name
        for key, want in _layer_grads(E, name, layer).items():
            assert close(want, case["grads"][key]), (name, key)
        if name.startswith("batchnorm"):
            assert close(layer.running_mean, case["state"]["running_mean"]), name
            assert close(layer.running_var, case["state"]["running_var"]), name


@pytest.mark.parametrize("style", STYLES)
def test_optimizers_match_torch(style):
    E, ref = ENGINES[style], REFERENCE["optimizers"]
    for name, run in ref["runs"].items():
        params = [E.tensor(p) for p in ref["start"]]
        opt = getattr(E.optim, run["class"])(params, **run["options"])
        for grads, want in zip(ref["grads"], run["after"]):
            for p, g in zip(params, grads):
                p.grad = np.array(g)
            opt.step()
            assert all(close(p.data, w) for p, w in zip(params, want)), name


@pytest.mark.parametrize("style", STYLES)
def test_clip_grad_norm_matches_torch(style):
    E = ENGINES[style]
    for name, case in REFERENCE["clipping"].items():
        params = [E.tensor(np.zeros(np.shape(g))) for g in case["grads"]]
        for p, g in zip(params, case["grads"]):
            p.grad = np.array(g)
        total = E.nn.clip_grad_norm_(params, case["max_norm"])
        assert close(total, case["total"]), name
        assert all(close(p.grad, want) for p, want in zip(params, case["clipped"])), name


@pytest.mark.parametrize("style", STYLES)
def test_a_model_s_gradients_match_finite_differences(style):
    """LayerNorm, ReLU, a matmul and cross_entropy at once; `.data` perturbed in place, as the doctor does."""
    E = ENGINES[style]
    rng = np.random.default_rng(7)
    model = E.nn.Sequential(E.nn.Linear(3, 5), E.nn.LayerNorm(5), E.nn.ReLU(), E.nn.Linear(5, 3))
    x, targets = E.tensor(rng.normal(size=(4, 3))), np.array([0, 2, 1, 2])
    params = E.params(model)
    assert len(params) == 6

    def loss():
        return E.F.cross_entropy(model(x), targets)

    loss().backward()
    numeric = finite_difference_grads(loss, params + [x])
    for leaf, want in zip(params + [x], numeric):
        assert close(E.grad(leaf), want, atol=1e-6), leaf


@pytest.mark.parametrize("style", STYLES)
def test_dropout_scales_in_training_and_is_the_identity_in_eval(style):
    E = ENGINES[style]
    x = E.tensor(np.ones((20, 50)))
    drop = E.nn.Dropout(0.25)
    kept = drop(x).data
    assert set(np.unique(kept)) == {0.0, 1 / 0.75} and 0.6 < np.mean(kept > 0) < 0.9
    assert np.array_equal(E.eval(drop)(x).data, x.data)


@pytest.mark.parametrize("style", STYLES)
def test_a_small_model_learns(style):
    """zero_grad, forward, backward, step: twenty SGD steps halve the loss."""
    E = ENGINES[style]
    rng = np.random.default_rng(3)
    X = rng.normal(size=(16, 2))
    y = (X[:, 0] * X[:, 1] > 0).astype(int)
    model = E.nn.Sequential(E.nn.Linear(2, 16), E.nn.Tanh(), E.nn.Linear(16, 2))
    opt = E.optim.SGD(E.params(model), lr=0.5, momentum=0.5)
    losses = []
    for _ in range(40):
        opt.zero_grad()
        loss = E.F.cross_entropy(model(E.tensor(X, grad=False)), y)
        loss.backward()
        opt.step()
        losses.append(float(np.asarray(loss.data)))
    assert losses[-1] < losses[0] / 2, losses[::10]


def test_the_manifest_s_api_facts_hold():
    classic, functions, ndarray = (ENGINES[s] for s in ("classic", "functions", "ndarray"))
    assert classic.Value(1.0).grad == 0 and type(classic.Value(1.0).grad) is int
    assert np.array_equal(classic.Tensor(np.ones(2)).grad, np.zeros(2))
    assert classic.eval(classic.nn.Linear(2, 3)) and classic.nn.Linear(2, 3).eval() is None
    assert classic.nn.Linear(2, 3).W.shape == (2, 3) and ndarray.nn.Linear(2, 3).weight.shape == (2, 3)
    assert functions.nn.Linear(2, 3).weight.shape == (3, 2)
    a, unused = functions.tensor([1.0, 2.0]), functions.tensor([1.0])
    (a * a).sum().backward()
    assert unused.grad is None and functions.Tensor([1.0]).grad is None
    assert isinstance(classic.nn.Sequential().parameters(), list)
    assert not isinstance(functions.nn.Sequential().parameters(), list)

    class Blocks(functions.nn.Module):  # torch's rule: a plain list is not registered
        def __init__(self):
            super().__init__()
            self.blocks = [functions.nn.Linear(2, 2)]
            self.head = functions.nn.Linear(2, 1)

    assert len(list(Blocks().parameters())) == 2
    with pytest.raises(AttributeError, match="before Module.__init__"):
        type("NoInit", (functions.nn.Module,), {"__init__": lambda self: setattr(self, "l", functions.nn.Linear(1, 1))})()
    x = np.array([1.0, 2.0])
    t = ndarray.Tensor(x)
    assert isinstance(t, np.ndarray) and type(t.data) is np.ndarray and not hasattr(t, "max")
    t.data[0] = 5.0
    assert x[0] == 5.0  # the same memory
    with pytest.raises(TypeError):
        np.exp(t)


# ---- the bugs ------------------------------------------------------------------

SLUGS = catalogue_slugs()
PLANTED = [(style, slug) for style in STYLES for slug in STYLES[style].get("bugs", {})]
PHASE_8 = {"skip-unbroadcast", "matmul-without-transpose", "sum-forgets-reduced-axis", "mean-forgets-n"}
SCALAR_ONLY = {"tanh-grad-from-input", "relu-gated-on-upstream", "pow-exponent-off-by-one",
               "recursive-backward", "no-reflected-add", "tanh-from-exp", "sub-backward-sign-flipped",
               "value-exponent-gets-no-gradient"}
# functions keeps intermediate gradients in a dict local to backward(): a second pass cannot see the first's.
NO_PLACE_IN_FUNCTIONS = {"backward-keeps-old-intermediate-grads"}


@pytest.mark.parametrize("style", STYLES)
def test_the_manifest_places_or_excuses_every_catalogue_bug(style):
    bugs, excused = STYLES[style].get("bugs", {}), STYLES[style].get("no_bug", {})
    assert not set(bugs) & set(excused) and sorted({*bugs, *excused}) == sorted(SLUGS)
    assert all(reason.strip() and "\n" not in reason for reason in excused.values())
    assert sorted(bugs) == sorted(make_bugs.EDITS[style]) and set(bugs) <= set(bug_checks.CHECKS)
    assert all(path == f"{style}/bugs/{slug}.diff" for slug, path in bugs.items())
    assert sorted(p.stem for p in (HERE / style / "bugs").glob("*.diff")) == sorted(bugs)
    wanted = {"classic": set(SLUGS), "functions": set(SLUGS) - SCALAR_ONLY - NO_PLACE_IN_FUNCTIONS, "ndarray": PHASE_8}[style]
    assert wanted <= set(bugs) and len(bugs) >= len(wanted | PHASE_8) + (4 if style == "ndarray" else 0)


@pytest.mark.parametrize("style, slug", PLANTED)
def test_each_diff_is_what_make_bugs_writes_and_reverses(style, slug):
    text = (HERE / STYLES[style]["bugs"][slug]).read_text(encoding="utf-8")
    assert text == make_bugs.diff(style, slug)
    for file_patch in patch.parse(text, slug):
        healthy_text = (HERE / style / file_patch.path).read_text(encoding="utf-8")
        broken = patch.apply(file_patch, healthy_text)
        assert broken != healthy_text and patch.apply(file_patch.reversed(), broken) == healthy_text


@pytest.mark.parametrize("style, slug", PLANTED)
def test_each_diff_applies_and_plants_its_bug(style, slug, tmp_path):
    check = bug_checks.CHECKS[slug]
    with np.errstate(all="ignore"):
        assert not check(ENGINES[style]), f"healthy {style} already shows {slug}"
        assert check(broken_copy(style, slug, tmp_path)), f"{style} with {slug}.diff does not show it"
