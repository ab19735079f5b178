"""The standard diagnostics a learner runs when gradients look wrong.

Each one is a function of the engine it checks (`Engine`: a `Value` class, a
`Tensor` class, either may be absent) returning a `Verdict`: it passes on
healthy minigrad and, if it can, catches a break. The default engine is
minigrad as it is *at call time*, so inside `minigrad.breaks.applied(slug)`
they test the broken copy; that is how CI computes the break x diagnostic
matrix. Pages call them with no argument; `python -m minigrad.doctor` calls
the same functions on a learner's classes (their code is foreign: every call
into it goes through `engine.guard`, and an exception is evidence, not a crash).

A verdict keeps one `Case` per case run, so two breaks that fail the same
check can still be told apart by *which* outputs and inputs went wrong.
"""

import importlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import numpy as np

from .diagnostic_cases import MODULE_CASES, NEEDS, SCALAR_CASES, TENSOR_CASES, _module_input, _weight_array  # noqa: F401
from .gradcheck import gradcheck

REFERENCE = Path(__file__).with_name("torch_reference.json")


def _call(fn):
    return fn()


@dataclass(frozen=True)
class Engine:
    """What a diagnostic checks. `nn`/`optim`/`F` are minigrad's own modules:
    a learner's engine (the doctor's protocol) has only Value and Tensor."""

    Value: Any = None
    Tensor: Any = None
    nn: Any = None
    optim: Any = None
    F: Any = None
    guard: Callable = _call  # runs one case's call into the engine (the doctor adds a time limit)

    def has(self, kind, op):
        return hasattr(getattr(self, kind), op)


def minigrad_engine():
    """minigrad's modules as imported now: the broken copy inside `applied(slug)`."""
    mod = {n: importlib.import_module(f"minigrad.{n}") for n in ("scalar", "tensor", "nn", "optim", "functional")}
    return Engine(mod["scalar"].Value, mod["tensor"].Tensor, mod["nn"], mod["optim"], mod["functional"])


@dataclass
class Case:
    """One case of one check: passed, wrong values, wrong shape, raised, timed out or skipped.

    `wrong` names the parts that were wrong ("output", "input 0", "a", ...);
    with the status they are the evidence the doctor matches against breaks."""

    name: str
    status: str
    detail: str = ""
    wrong: tuple = ()
    numbers: str = ""  # the worst element of each wrong part, against the reference

    @property
    def failed(self):
        return self.status not in ("passed", "skipped")


@dataclass
class Verdict:
    passed: bool
    detail: str
    cases: list = field(default_factory=list)

    @property
    def status(self):
        """passed, caught, or skipped (when no case could run on this engine)."""
        if not self.passed:
            return "caught"
        return "skipped" if self.cases and all(c.status == "skipped" for c in self.cases) else "passed"

    def __str__(self):
        return f"{self.status}: {self.detail}"


def _summary(cases, passed_detail):
    """The first failing case's detail (what pages print), or how many passed and which ops were missing."""
    failed = [c for c in cases if c.failed]
    if failed:
        return Verdict(False, failed[0].detail, cases)
    by_reason = {}
    for c in cases:
        if c.status == "skipped":
            by_reason.setdefault(c.detail, []).append(c.name)
    skipped = "; ".join(f"{reason}: " + ("; ".join(names) if len(names) <= 2 else f"{len(names)} cases")
                        for reason, names in by_reason.items())
    if len(by_reason) and all(c.status == "skipped" for c in cases):
        return Verdict(True, skipped, cases)  # nothing ran: say why, claim nothing
    return Verdict(True, f"{passed_detail}; skipped {skipped}" if skipped else passed_detail, cases)


def _raised(name, e, prefix="raised", named=True):
    """An exception is evidence; a TimeoutError (the doctor's time limit) says only that it did not finish."""
    detail = f"{prefix} {type(e).__name__}: {e}"
    status = "timed out" if isinstance(e, TimeoutError) else "raised"
    return Case(name, status, f"{name}: {detail}" if named else detail, ("run",))


def _missing(engine, kind, name):
    """A case needing an op the engine lacks is skipped, naming the op."""
    if getattr(engine, kind) is None:
        return Case(name, "skipped", f"no {kind} class")
    ops = [op for op in NEEDS.get(name, ()) if not engine.has(kind, op)]
    return Case(name, "skipped", f"needs {', '.join(ops)}") if ops else None


def _weights(shape, engine=None):
    """The loss weight as a tensor of the engine under test (mixing engines would not add up)."""
    Tensor = (engine or minigrad_engine()).Tensor
    return Tensor(_weight_array(shape), requires_grad=True)


def _random_inputs(shapes):
    return [np.random.default_rng(seed).normal(size=s) for seed, s in enumerate(shapes)]


def _shape(x):
    return np.shape(x.data)


def _part(label, got):
    """A wrong part's name, marked when the gradient is all zeros: a gradient that
    never arrived (no seed, wrong order) looks different from one that is off."""
    return f"{label} (zero)" if got is not None and np.size(got) and not np.any(got) else label


def _grad_array(leaf):
    return None if leaf.grad is None else np.asarray(leaf.grad, dtype=float)


def _weighted_backward(engine, f, leaves):
    """f's output, after backward of a non-uniformly weighted sum of it."""
    out = f(*leaves)
    (out * _weights(_shape(out), engine)).sum().backward()
    return out


def _tensor_grads_case(engine, name, f, arrays, expected_grads, expected_output=None, check=None):
    """Run f on fresh leaves, compare output and each input's gradient; one Case with every wrong part."""
    leaves = [engine.Tensor(np.array(a, dtype=float), requires_grad=True) for a in arrays]
    try:
        with np.errstate(all="ignore"):  # a broken layer may divide by zero: that is the finding
            out = engine.guard(lambda: _weighted_backward(engine, f, leaves))
    except Exception as e:
        return _raised(name, e)
    return check(name, out, leaves, expected_output, expected_grads)


def shape_invariant(engine=None):
    """After every backward, each gradient has its tensor's shape."""
    engine = engine or minigrad_engine()
    cases = []
    for name, (shapes, f) in TENSOR_CASES.items():
        skipped = _missing(engine, "Tensor", name)
        if skipped:
            cases.append(skipped)
            continue
        leaves = [engine.Tensor(a, requires_grad=True) for a in _random_inputs(shapes)]
        try:
            out = engine.guard(lambda: f(*leaves))
        except Exception as e:
            cases.append(_raised(name, e))
            continue
        try:
            engine.guard(lambda: (out * _weights(_shape(out), engine)).sum().backward())
        except Exception as e:
            cases.append(_raised(name, e, "backward raised"))
            continue
        wrong = []
        for i, leaf in enumerate(leaves):
            grad = _grad_array(leaf)
            if grad is None or grad.shape != _shape(leaf):
                wrong.append((i, None if grad is None else grad.shape))
        if wrong:
            i, got = wrong[0]
            detail = f"{name}: input {i} has shape {_shape(leaves[i])}, its gradient {got}"
            cases.append(Case(name, "wrong shape", detail, tuple(f"input {i}" for i, _ in wrong)))
        else:
            cases.append(Case(name, "passed"))
    ran = sum(c.status != "skipped" for c in cases)
    return _summary(cases, f"every gradient has its tensor's shape ({ran} cases)")


def _gradcheck_case(name, run):
    try:
        result = run()
    except Exception as e:
        return _raised(name, e)
    if result.ok:
        return Case(name, "passed")
    status = "wrong shape" if "shape" in result.message else "wrong values"
    return Case(name, status, f"{name}: {result}", (_part(f"input {result.input}", result.analytic),))


def finite_differences(engine=None):
    """Analytic gradients agree with central differences on non-uniform losses."""
    engine = engine or minigrad_engine()
    cases = []
    for name, f in SCALAR_CASES.items():
        V = engine.Value
        cases.append(_missing(engine, "Value", name) or _gradcheck_case(
            name, lambda: engine.guard(lambda: gradcheck(f, V(2.0), V(3.0), V(4.0)))))
    for name, (shapes, f) in TENSOR_CASES.items():

        def run():
            leaves = [engine.Tensor(a, requires_grad=True) for a in _random_inputs(shapes)]
            weight = _weights(_shape(f(*leaves)), engine)
            return gradcheck(lambda *xs: (f(*xs) * weight).sum(), *leaves)

        cases.append(_missing(engine, "Tensor", name) or _gradcheck_case(name, lambda: engine.guard(run)))
    ran = sum(c.status != "skipped" for c in cases)
    return _summary(cases, f"{ran} functions agree with central differences")


def diamond_test(engine=None):
    """The hand-worked diamond of theory page 03: L = (a*b + c) * (a - c) at 2, 3, 4."""
    engine = engine or minigrad_engine()
    name = "diamond (a*b + c) * (a - c) at 2, 3, 4"
    if engine.Value is None:
        return _summary([Case(name, "skipped", "no Value class")], "")
    a, b, c = (engine.Value(x) for x in (2.0, 3.0, 4.0))
    try:
        engine.guard(lambda: ((a * b + c) * (a - c)).backward())
        got = tuple(float(v.grad) for v in (a, b, c))
    except Exception as e:
        return _summary([_raised(name, e)], "")
    if got != (4.0, -4.0, -12.0):
        wrong = tuple(_part(n, g) for n, g, e in zip("abc", got, (4.0, -4.0, -12.0)) if g != e)
        case = Case(name, "wrong values", f"(a.grad, b.grad, c.grad) = {got}, by hand (4.0, -4.0, -12.0)", wrong)
        return _summary([case], "")
    return _summary([Case(name, "passed")], "(a.grad, b.grad, c.grad) = (4.0, -4.0, -12.0), as by hand")


def _close(got, expected, rtol=1e-9, atol=1e-12):
    return got is not None and np.shape(got) == np.shape(expected) and np.allclose(got, expected, rtol=rtol, atol=atol)


def _worst(label, got, expected):
    """`input 0 (0, 1): -3 vs torch's -0.75`: where a part is furthest from the reference."""
    expected = np.asarray(expected, dtype=float)
    if got is None:
        return f"{label}: no gradient"
    if np.shape(got) != expected.shape:
        return f"{label}: shape {np.shape(got)} vs torch's {expected.shape}"
    diff = np.abs(got - expected)
    at = np.unravel_index(int(np.argmax(np.where(np.isnan(diff), np.inf, diff))), expected.shape)
    return f"{label} {tuple(int(i) for i in at)}: {float(got[at]):.6g} vs torch's {float(expected[at]):.6g}"


def _against_torch(name, out, leaves, expected_output, expected_grads, grad_tol=(1e-9, 1e-12)):
    output = np.asarray(out.data, dtype=float)
    grads = [_grad_array(leaf) for leaf in leaves]
    bad = [i for i, (g, e) in enumerate(zip(grads, expected_grads)) if not _close(g, e, *grad_tol)]
    wrong = (("output",) if not _close(output, expected_output) else ()) + tuple(_part(f"input {i}", grads[i]) for i in bad)
    shapes = [i for i in bad if grads[i] is None or grads[i].shape != np.shape(expected_grads[i])]
    status = "wrong shape" if shapes or np.shape(output) != np.shape(expected_output) else "wrong values"
    numbers = "; ".join(([_worst("output", output, expected_output)] if "output" in wrong else [])
                        + [_worst(f"input {i}", grads[i], expected_grads[i]) for i in bad])
    if "output" in wrong:
        first = np.round(output.reshape(len(output), -1)[0], 4).tolist() if output.ndim else output.item()
        shown = f" (first row {first})" if name in MODULE_CASES else ""
        return Case(name, status, f"{name}: output differs from torch's{shown}", wrong, numbers)
    if bad:
        what = "input gradient" if name in MODULE_CASES else f"gradient of input {bad[0]}"
        return Case(name, status, f"{name}: {what} differs from torch's", wrong, numbers)
    return Case(name, "passed")


def torch_reference(engine=None):
    """Values and gradients equal PyTorch's, committed as data by scripts/make_diagnostic_reference.py."""
    engine = engine or minigrad_engine()
    reference = json.loads(REFERENCE.read_text())
    cases = []
    for name, (_, f) in TENSOR_CASES.items():
        expected = reference[name]
        cases.append(_missing(engine, "Tensor", name) or _tensor_grads_case(
            engine, name, f, expected["inputs"], expected["grads"], expected["output"], _against_torch))
    for name, (_, _, f) in MODULE_CASES.items():
        expected = reference[name]
        if engine.nn is None:
            cases.append(Case(name, "skipped", "needs minigrad's nn and functional"))
            continue

        def check(name, out, leaves, expected_output, expected_grads):
            return _against_torch(name, out, leaves, expected_output, expected_grads, grad_tol=(1e-8, 1e-10))

        cases.append(_tensor_grads_case(
            engine, name, lambda x: f(x, engine), expected["inputs"], expected["grads"], expected["output"], check))
    for name, f in SCALAR_CASES.items():
        cases.append(_missing(engine, "Value", name) or _scalar_against_torch(engine, name, f, reference[name]))
    ran = sum(c.status != "skipped" for c in cases)
    return _summary(cases, f"{ran} cases match PyTorch's values and gradients")


def _scalar_against_torch(engine, name, f, expected):
    inputs = [engine.Value(x) for x in expected["inputs"]]
    try:
        engine.guard(lambda: f(*inputs).backward())
        got = [float(v.grad) for v in inputs]
    except Exception as e:
        return _raised(name, e)
    wrong = tuple(_part(f"input {i}", g) for i, (g, e) in enumerate(zip(got, expected["grads"])) if not _close(g, e))
    if wrong:
        return Case(name, "wrong values", f"{name}: gradients {got} differ from torch's {expected['grads']}", wrong)
    return Case(name, "passed")


def _needs_modules(engine, check):
    """Training and zero_grad checks need minigrad's nn and optim, which a learner's engine lacks."""
    if engine.nn is None:
        return _summary([Case(check, "skipped", "needs minigrad's nn and optim")], "")
    return None


def training_smoke_test(engine=None):
    """A small MLP learns XOR with SGD: loss falls below 0.05 within 300 steps."""
    engine = engine or minigrad_engine()
    skipped = _needs_modules(engine, "training")
    if skipped:
        return skipped
    nn, optim, F = engine.nn, engine.optim, engine.F
    saved = nn._rng
    try:
        nn.manual_seed(0)
        x = engine.Tensor(np.array([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]]))
        y = np.array([0, 1, 1, 0])
        model = nn.MLP([2, 8, 2], activation=nn.Tanh)
        opt = optim.SGD(model.parameters(), lr=0.5, momentum=0.9)
        first = None
        with np.errstate(all="ignore"):
            for _ in range(300):
                opt.zero_grad()
                loss = F.cross_entropy(model(x), y)
                loss.backward()
                opt.step()
                first = loss.item() if first is None else first
    except Exception as e:
        return _summary([_raised("XOR", e, "training raised", named=False)], "")
    finally:
        nn._rng = saved
    final = loss.item()
    if not final < 0.05:
        detail = f"XOR loss {first:.4f} -> {final:.4f} after 300 steps (expected < 0.05)"
        return _summary([Case("XOR", "wrong values", detail, ("loss",))], "")
    return _summary([Case("XOR", "passed")], f"XOR loss {first:.4f} -> {final:.4f} after 300 steps")


def repeatable_gradients(engine=None):
    """The same loss, backpropagated twice with zero_grad() between, gives the same gradients."""
    engine = engine or minigrad_engine()
    skipped = _needs_modules(engine, "two passes")
    if skipped:
        return skipped
    x = engine.Tensor(np.random.default_rng(1).normal(size=(4, 3)))
    layer = engine.nn.Linear(3, 2)
    opt = engine.optim.SGD(layer.parameters(), lr=0.1)
    grads = []
    try:
        for _ in range(2):
            opt.zero_grad()
            (layer(x).tanh() * engine.Tensor(_weight_array((4, 2)))).sum().backward()
            grads.append([p.grad.copy() for p in layer.parameters()])
    except Exception as e:
        return _summary([_raised("two passes", e, named=False)], "")
    for name, first, second in zip(("weight", "bias"), *grads):
        if not np.allclose(first, second):
            ratio = float(np.median(second / np.where(first == 0, np.nan, first)))
            detail = f"second pass {name}.grad is {ratio:g}x the first: gradients leaked across zero_grad()"
            return _summary([Case("two passes", "wrong values", detail, (name,))], "")
    return _summary([Case("two passes", "passed")], "two passes with zero_grad() between give identical gradients")


from .loss_checks import loss_reference  # noqa: E402 (it builds on the helpers above)

DIAGNOSTICS = {
    "shape-invariant": shape_invariant,
    "finite-differences": finite_differences,
    "diamond-test": diamond_test,
    "torch-reference": torch_reference,
    "training-smoke-test": training_smoke_test,
    "repeatable-gradients": repeatable_gradients,
    "loss-reference": loss_reference,
}
