"""The module contracts diagnostic: promises of layers and optimizers that no
gradient check sees, because the gradients are right and the *use* is wrong.

Each case states one promise as torch documents it (eval-mode Dropout is the
identity; a parameter held in a list is still a parameter; clipping keeps the
update's direction; AdamW's decay is not rescaled by Adam's statistics). It
lives beside diagnostics.py (imported from there) to keep each file readable.
"""

import numpy as np


def _dropout_in_eval(engine):
    x = engine.Tensor(np.arange(1.0, 7.0).reshape(2, 3))
    saved = engine.nn._rng
    try:
        engine.nn.manual_seed(0)  # a broken layer's mask, hence the evidence, is the same every run
        got = engine.nn.Dropout(0.5).eval()(x).data
    finally:
        engine.nn._rng = saved
    if not np.array_equal(got, x.data):
        return f"Dropout(0.5) in eval changed {int(np.sum(got != x.data))} of 6 inputs: {got[0].tolist()} for {x.data[0].tolist()}"


def _parameters_in_a_list(engine):
    class Blocks(engine.nn.Module):
        def __init__(self):
            self.blocks = [engine.nn.Linear(2, 2), engine.nn.Linear(2, 2)]
            self.head = engine.nn.Linear(2, 1)

    found = len(list(Blocks().parameters()))
    if found != 6:
        return f"parameters() found {found} of 6 tensors of a model holding two Linear layers in a list"


def _clip_keeps_direction(engine):
    params = [engine.Tensor(np.zeros(2), requires_grad=True) for _ in range(2)]
    params[0].grad, params[1].grad = np.array([3.0, 0.0]), np.array([0.0, 0.4])
    total = engine.nn.clip_grad_norm_(params, 1.0)
    got = np.concatenate([p.grad for p in params])
    expected = np.array([3.0, 0.0, 0.0, 0.4]) / (np.hypot(3.0, 0.4) + 1e-6)
    if not np.isclose(total, np.hypot(3.0, 0.4)) or not np.allclose(got, expected):
        return (f"clip_grad_norm_ of grads [3, 0], [0, 0.4] to 1: returned {float(total):.4g}, grads {np.round(got, 4).tolist()}, "
                f"expected {np.hypot(3.0, 0.4):.4g} and {np.round(expected, 4).tolist()}")


def _adamw_decay_is_decoupled(engine):
    p = engine.Tensor(np.array([2.0, 0.5]), requires_grad=True)
    p.grad = np.zeros(2)
    engine.optim.AdamW([p], lr=0.1, weight_decay=0.1).step()
    if not np.allclose(p.data, [1.98, 0.495]):
        return f"AdamW(lr=0.1, weight_decay=0.1), zero gradient: weights [2, 0.5] became {np.round(p.data, 4).tolist()}, expected [1.98, 0.495]"


CONTRACTS = {
    "Dropout in eval is the identity": (("nn", "Dropout"), _dropout_in_eval),
    "parameters() sees layers held in a list": (("nn", "Module"), _parameters_in_a_list),
    "clip_grad_norm_ scales every gradient by one factor": (("nn", "clip_grad_norm_"), _clip_keeps_direction),
    "AdamW decays by lr * weight_decay, outside Adam's statistics": (("optim", "AdamW"), _adamw_decay_is_decoupled),
}


def module_contracts(engine=None):
    """Layers and optimizers keep the promises torch documents for them."""
    from .diagnostics import Case, _needs_modules, _raised, _summary, minigrad_engine

    engine = engine or minigrad_engine()
    skipped = _needs_modules(engine, "module contracts")
    if skipped:
        return skipped
    cases = []
    for name, ((kind, attr), check) in CONTRACTS.items():
        if not hasattr(getattr(engine, kind), attr):
            cases.append(Case(name, "skipped", f"needs {kind}.{attr}"))
            continue
        try:
            with np.errstate(all="ignore"):
                broken = engine.guard(lambda: check(engine))
        except Exception as e:
            cases.append(_raised(name, e))
            continue
        cases.append(Case(name, "wrong values", broken, (name,)) if broken else Case(name, "passed"))
    ran = sum(c.status != "skipped" for c in cases)
    return _summary(cases, f"{ran} layer and optimizer contracts hold")
