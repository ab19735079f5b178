"""Checks against PyTorch: values and gradients equal torch's on fixed inputs.

PyTorch's numbers are committed in minigrad/reference/checks.json, the one home
of PyTorch's numbers, written by scripts/make_torch_reference.py (torch is not a
dependency). Layers and losses run through the engine's own
modules, so no parameter layout is assumed.
"""

import json
from pathlib import Path

import numpy as np

from .cases import LOSS_CASES, MODULE_CASES, MSE_TARGET, SCALAR_CASES, TENSOR_CASES, scalar_case
from .evidence import Failure, close, part
from .registry import CaseSpec, check
from .words import Said

HOME = Path(__file__).resolve().parents[1] / "reference"  # PyTorch's numbers, every one (scripts/make_torch_reference.py)
REFERENCE = HOME / "checks.json"
FACTS = HOME / "facts.json"  # what PyTorch does, as the pages quote it
SHIPPED = (REFERENCE, FACTS)  # what minigrad reads when it runs; the rest of HOME is for the tests


def reference():
    return json.loads(REFERENCE.read_text(encoding="utf-8"))


def torch_facts():
    return json.loads(FACTS.read_text(encoding="utf-8"))


def _ran(cases):
    return sum(c.status != "skipped" for c in cases)


def _worst(label, got, expected):
    """`input 0 (0, 1): -3 vs torch's -0.75`: where a part is furthest from the reference."""
    expected = np.asarray(expected, dtype=float)
    if got is None:
        return Said("no-gradient", label=label)
    if np.shape(got) != expected.shape:
        return Said("worst-shape", label=label, got=np.shape(got), expected=expected.shape)
    diff = np.abs(got - expected)
    at = np.unravel_index(int(np.argmax(np.where(np.isnan(diff), np.inf, diff))), expected.shape)
    got_text, expected_text = _apart(float(got[at]), float(expected[at]))
    return Said("worst", label=label, at=tuple(int(i) for i in at), got=got_text, expected=expected_text)


def _apart(got, expected):
    """Both numbers with 6 significant digits, or as many more as it takes for them to differ on the page:
    a mismatch that reads `-2.10507 vs torch's -2.10507` shows nothing."""
    for digits in range(6, 18):
        shown = f"{got:.{digits}g}", f"{expected:.{digits}g}"
        if shown[0] != shown[1]:
            return shown
    return shown


# Closer to torch than this, and yet not equal: the engine computes the same thing another way (its eps
# inside or outside the square root, a sum in another order). Every break of the catalogue moves some
# number by more (batchnorm-without-eps, the smallest, by 4e-4).
NEAR = (1e-4, 1e-7)


def _near(output, expected_output, grads, expected_grads):
    """Every wrong part within NEAR of torch's, at the scale of its largest number (an eps moves the
    small numbers of an array by as much as its large ones)."""
    pairs = ([(output, expected_output)] if output is not None else []) + list(zip(grads, expected_grads))
    rtol, atol = NEAR
    return all(g is not None and np.shape(g) == np.shape(e) and np.all(np.isfinite(g))
               and np.max(np.abs(np.asarray(g) - e), initial=0.0) <= atol + rtol * np.max(np.abs(e), initial=0.0)
               for g, e in ((g, np.asarray(e, dtype=float)) for g, e in pairs))


# float32's epsilon is 1.2e-7: a few ops in it stay within 1e-5 relative, and the breaks' errors are
# orders above 1e-4 (batchnorm-without-eps, the smallest, moves outputs by 4e-4).
SINGLE_PRECISION = (1e-4, 1e-5)


def against_torch(m, name, f, expected, grad_tol=(1e-9, 1e-12), module=False):
    """f on fresh leaves, backward of a weighted sum; output and each input's gradient against torch's
    (at float32's precision when the engine computes in float32)."""
    leaves = [m.leaf(a) for a in expected["inputs"]]
    out = f(*leaves)
    m.weighted_total(out).backward()
    output, expected_output = m.values(out), np.asarray(expected["output"], dtype=float)
    output_tol = SINGLE_PRECISION if m.single_precision(out, *leaves) else (1e-9, 1e-12)
    grad_tol = tuple(max(a, b) for a, b in zip(grad_tol, output_tol))
    grads = [m.grad(leaf) for leaf in leaves]
    bad = [i for i, (g, e) in enumerate(zip(grads, expected["grads"])) if not close(g, e, *grad_tol)]
    wrong = (("output",) if not close(output, expected_output, *output_tol) else ()) + tuple(part(f"input {i}", grads[i]) for i in bad)
    shapes = [i for i in bad if grads[i] is None or grads[i].shape != np.shape(expected["grads"][i])]
    status = "wrong shape" if shapes or output.shape != expected_output.shape else "wrong values"
    if status == "wrong values" and _near(output if "output" in wrong else None, expected_output, [grads[i] for i in bad],
                                          [expected["grads"][i] for i in bad]):
        status = "near"  # another eps, another formula for the same thing: reported, never a break's evidence
    numbers = (([_worst("output", output, expected_output)] if "output" in wrong else [])
               + [_worst(f"input {i}", grads[i], expected["grads"][i]) for i in bad])
    if "output" in wrong:
        first = np.round(output.reshape(len(output), -1)[0], 4).tolist() if output.ndim else output.item()
        shown = Said("first-row", row=first) if module else ""
        return Failure(Said("output-differs", name=name, shown=shown), wrong, status, numbers)
    if bad:
        said = Said("input-gradient-differs", name=name) if module else Said("gradient-of-input-differs", name=name, i=bad[0])
        return Failure(said, wrong, status, numbers)


def _scalar(m, name, f, expected):
    f = scalar_case(m, name, f)
    inputs = [m.Value(x) for x in expected["inputs"]]
    f(*inputs).backward()
    got = [m.scalar_grad(v) for v in inputs]
    wrong = tuple(part(f"input {i}", g) for i, (g, e) in enumerate(zip(got, expected["grads"])) if not close(g, e))
    if wrong:
        return Failure(Said("scalar-gradients", name=name, got=got, expected=expected["grads"]), wrong)


def _seeds_the_output(m, kind):
    """torch's `loss.backward()` starts from d loss / d loss = 1. Without that seed every gradient is
    zero, which looks the same as a backward run in the wrong order, except on the output itself. An
    engine that keeps no gradient on a non-leaf (as torch) is asked about a leaf right under the output."""
    if kind == "Value":
        a, b = m.Value(2.0), m.Value(3.0)
        loss = a * b + a
    else:
        a, b = m.leaf(np.array([[1.0, 2.0]])), m.leaf(np.array([[3.0, -1.0]]))  # 2-D: no engine must reduce a 1-D @
        loss = m.total(a * b + a)
    loss.backward()
    got = m.grad(loss)
    if got is None:
        leaf = m.Value(2.0) if kind == "Value" else m.leaf(np.array([[1.0, 2.0]]))
        (leaf + leaf * 0.0 if kind == "Value" else m.total(leaf)).backward()
        got = m.grad(leaf)
    if got is not None and not np.allclose(got, 1.0):
        return Failure(Said("seed", kind=kind, got=got.tolist()), (part("output", got),))


@check("torch-reference", "PyTorch reference",
       passed=lambda cases: f"{_ran(cases)} cases match PyTorch's values and gradients")
def torch_reference(engine):
    """Values and gradients equal PyTorch's, on tensors, layers, losses and scalars."""
    ref = reference()
    for name, (_, f, needs) in TENSOR_CASES.items():
        yield CaseSpec(name, ("Tensor", *needs), lambda m, name=name, f=f: against_torch(
            m, name, lambda *xs: f(m, *xs), ref[name]))
    for name, (_, _, f, needs) in MODULE_CASES.items():
        yield CaseSpec(name, ("Tensor", *needs), lambda m, name=name, f=f: against_torch(
            m, name, lambda x: f(x, m), ref[name], grad_tol=(1e-8, 1e-10), module=True))
    for name, (f, needs) in SCALAR_CASES.items():
        yield CaseSpec(name, ("Value", *needs), lambda m, name=name, f=f: _scalar(m, name, f, ref[name]))
    for kind in ("Value", "Tensor"):
        yield CaseSpec(f"backward seeds the output with 1 ({kind})", (kind,), lambda m, kind=kind: _seeds_the_output(m, kind))


SHAPE_CASE = "mse_loss (4, 1) against a (4,) target"


def _refuses_mismatched_shapes(m):
    """torch broadcasts (with a warning) to (4, 4); the course's contract is to refuse, by any exception."""
    x = m.leaf(LOSS_CASES["mse_loss (4, 1)"][0])
    try:
        loss = m.F.mse_loss(x, m.tensor(MSE_TARGET.reshape(-1)))
    except Exception:
        return None
    return Failure(Said("mse-broadcasts", name=SHAPE_CASE, loss=f"{m.number(loss):.6g}"), ("output",))


@check("loss-reference", "losses", needs=("functional",),
       passed=lambda cases: f"{len(cases)} loss cases match PyTorch and refuse mismatched shapes")
def loss_reference(engine):
    """softmax, mse_loss and binary_cross_entropy_with_logits equal PyTorch's; mismatched shapes are refused.

    The other checks reach `functional` only through `cross_entropy` and `log_softmax`, so a wrong
    default axis in `softmax`, an unstable binary cross-entropy or a loss that broadcasts passes them."""
    ref = reference()
    for name, (x, f, needs) in LOSS_CASES.items():
        yield CaseSpec(name, ("Tensor", *needs), lambda m, name=name, f=f: against_torch(
            m, name, lambda t: f(t, m), ref[name]))
    yield CaseSpec(SHAPE_CASE, ("Tensor", "functional.mse_loss"), _refuses_mismatched_shapes)
