"""Module contracts: promises of layers and optimizers that no gradient check
sees, because the gradients are right and the *use* is wrong.

Each case states one promise as torch documents it (eval-mode Dropout is the
identity, training-mode Dropout keeps the mean; BatchNorm1d's running variance
is the unbiased one; a parameter held in a list is still a parameter; clipping
keeps the update's direction; AdamW's decay is not rescaled by Adam's
statistics; SGD steps against the gradient and zero_grad() clears it, tried on
one parameter, so a wrong model gradient cannot hide them; a Linear layer's
initial weights are not all equal), through the course's protocol only.
"""

import numpy as np

from .engine import Missing
from .evidence import Failure
from .registry import CaseSpec, check
from .words import Said


def _with_gradient(m, start, grad):
    """A leaf holding `start` whose gradient, `grad`, came through the engine's own backward
    (p * w summed), so it has whatever type and layout the engine's optimizers expect."""
    p = m.leaf(np.array([start]))  # (1, n): some engines' @ and sum take 2-D only; an optimizer takes any shape
    m.total(p * m.tensor(np.array([grad]))).backward()
    if m.grad(p) is None or not np.allclose(m.grad(p), [grad]):  # a wrong product rule is the gradient checks' finding, not this one's
        raise Missing("call: the gradient of sum(p * w) is not w on this engine (see the gradient checks)")
    return p


def _dropout_in_eval(m):
    x = m.tensor(np.arange(1.0, 7.0).reshape(2, 3))
    with m.seeded(0):  # a broken layer's mask, hence the evidence, is the same every run
        dropout = m.nn.Dropout(0.5)
        dropout.eval()
        got = m.values(dropout(x))
    expected = m.values(x)
    if not np.array_equal(got, expected):
        return Failure(Said("dropout", n=int(np.sum(got != expected)), got=got[0].tolist(), expected=expected[0].tolist()),
                       ("Dropout in eval",))


def _dropout_rescales(m):
    """In training, what Dropout keeps is scaled by 1/(1-p), so the expected output is the input."""
    x = m.tensor(np.full((4, 50), 3.0))
    with m.seeded(0):
        dropout = m.nn.Dropout(0.5)
        dropout.train()
        got = m.values(dropout(x))
    kept = got[got != 0]
    if kept.size == 0 or not np.allclose(kept, 6.0):
        value = f"{np.median(kept):.4g}" if kept.size else "none"
        return Failure(Said("dropout-scale", kept=value, mean=f"{got.mean():.4g}"), ("Dropout in training",))


def _running_var_is_unbiased(m):
    """torch keeps the *unbiased* batch variance in running_var (Bessel's n/(n-1)), and normalises the
    batch itself with the biased one: two variances, two divisors."""
    x = np.array([[1.0, 0.0, 2.0], [3.0, 0.0, -2.0], [2.0, 6.0, 0.0], [6.0, 2.0, 0.0]])
    bn = m.nn.BatchNorm1d(3)
    bn.train()
    bn(m.tensor(x))
    got = m.values(bn.running_var).reshape(-1)  # a plain array, or a tensor of the engine's
    expected = 0.9 + 0.1 * x.var(axis=0, ddof=1)
    if not np.allclose(got, expected, rtol=1e-4):
        biased = 0.9 + 0.1 * x.var(axis=0)
        which = Said("running-var-biased") if np.allclose(got, biased, rtol=1e-4) else ""
        return Failure(Said("running-var", got=np.round(got, 4).tolist(), expected=np.round(expected, 4).tolist(),
                            which=which), ("running_var",))


def _parameters_in_a_list(m):
    nn = m.nn
    holder = getattr(nn, "ModuleList", list)  # a torch-style engine registers list items through ModuleList

    class Blocks(nn.Module):
        def __init__(self):
            super().__init__()
            self.blocks = holder([nn.Linear(2, 2), nn.Linear(2, 2)])
            self.head = nn.Linear(2, 1)

    class Direct(nn.Module):
        def __init__(self):
            super().__init__()
            self.head = nn.Linear(2, 1)

    expected = 2 * len(m.parameters(nn.Linear(2, 2))) + len(m.parameters(nn.Linear(2, 1)))
    if len(m.parameters(Direct())) != len(m.parameters(nn.Linear(2, 1))):
        # micrograd's way: Module.parameters() is [] and every layer lists its own. A module of the
        # learner's own would override it too: holding layers in a list is not this engine's contract.
        raise Missing("call: your Module.parameters() does not look into a module's attributes (each of your"
                      " layers lists its own parameters), so layers held in a list are up to the module that holds them")
    found = len(m.parameters(Blocks()))
    if found != expected:
        return Failure(Said("parameters-in-a-list", found=found, expected=expected), ("parameters() in a list",))


def _clip_keeps_direction(m):
    params = [_with_gradient(m, [0.0, 0.0], [3.0, 0.0]), _with_gradient(m, [0.0, 0.0], [0.0, 0.4])]
    total = m.number(m.nn.clip_grad_norm_(params, 1.0))
    got = np.concatenate([m.grad(p).reshape(-1) for p in params])
    expected = np.array([3.0, 0.0, 0.0, 0.4]) / (np.hypot(3.0, 0.4) + 1e-6)
    if not np.isclose(total, np.hypot(3.0, 0.4)) or not np.allclose(got, expected, atol=1e-6):
        return Failure(Said("clip", total=f"{total:.4g}", got=np.round(got, 4).tolist(), norm=f"{np.hypot(3.0, 0.4):.4g}",
                            expected=np.round(expected, 4).tolist()), ("clipping",))


def _adamw_decay_is_decoupled(m):
    p = _with_gradient(m, [2.0, 0.5], [0.0, 0.0])
    m.optim.AdamW([p], lr=0.1, weight_decay=0.1).step()
    got = m.values(p).reshape(-1)
    if not np.allclose(got, [1.98, 0.495]):
        return Failure(Said("adamw", got=np.round(got, 4).tolist()), ("AdamW decay",))


def _sgd_steps_against_the_gradient(m):
    """One step of plain SGD is p - lr * grad, written into the parameter the optimizer was given."""
    p = _with_gradient(m, [1.0, -2.0], [0.5, 0.25])
    m.optim.SGD([p], lr=0.1).step()
    got, start = m.values(p).reshape(-1), np.array([1.0, -2.0])
    expected = start - 0.1 * np.array([0.5, 0.25])
    if not np.allclose(got, expected):
        how = "unchanged" if np.allclose(got, start) else "with" if np.allclose(got, 2 * start - expected) else "elsewhere"
        return Failure(Said("sgd-step", got=np.round(got, 4).tolist(), expected=np.round(expected, 4).tolist(), how=Said(f"moved-{how}")),
                       (f"SGD step {how}",))


def _zero_grad_clears(m):
    p = _with_gradient(m, [1.0, -2.0], [0.5, 0.25])
    m.optim.SGD([p], lr=0.1).zero_grad()
    got = m.grad(p)
    if got is not None and np.any(got):
        return Failure(Said("zero-grad-kept", got=np.round(got.reshape(-1), 4).tolist()), ("zero_grad",))


def _zero_grad_before_backward(m):
    """torch's zero_grad() on parameters that never had a gradient does nothing, and says nothing."""
    params = m.parameters(m.nn.Linear(3, 2))
    m.optim.SGD(params, lr=0.1).zero_grad()


def _linear_starts_unequal(m):
    """Equal initial weights give every unit the same gradient: they stay equal, and the layer is one unit wide.
    (A bias that starts at zero is a choice many make: only the largest parameter, the weight, is asked.)"""
    with m.seeded(0):
        params = m.parameters(m.nn.Linear(3, 4))
    weight = max((m.values(p) for p in params), key=np.size)
    if np.size(weight) > 1 and np.all(weight == weight.flat[0]):
        return Failure(Said("equal-init", n=int(np.size(weight)), value=f"{float(weight.flat[0]):g}"), ("initial weights",))


CONTRACTS = {
    "Dropout in eval is the identity": (("nn.Dropout",), _dropout_in_eval),
    "Dropout in training scales what it keeps by 1/(1-p)": (("nn.Dropout",), _dropout_rescales),
    "BatchNorm1d keeps the unbiased batch variance in running_var": (("nn.BatchNorm1d",), _running_var_is_unbiased),
    "parameters() sees layers held in a list": (("nn.Module", "nn.Linear"), _parameters_in_a_list),
    "clip_grad_norm_ scales every gradient by one factor": (("nn.clip_grad_norm_",), _clip_keeps_direction),
    "AdamW decays by lr * weight_decay, outside Adam's statistics": (("optim.AdamW",), _adamw_decay_is_decoupled),
    "SGD.step() moves a parameter by -lr * grad": (("optim.SGD",), _sgd_steps_against_the_gradient),
    "zero_grad() clears a gradient": (("optim.SGD",), _zero_grad_clears),
    "zero_grad() before any backward": (("optim.SGD", "nn.Linear"), _zero_grad_before_backward),
    "Linear's initial weights differ": (("nn.Linear",), _linear_starts_unequal),
}


@check("module-contracts", "module contracts", needs=("Tensor",),
       passed=lambda cases: f"{sum(c.status != 'skipped' for c in cases)} layer and optimizer contracts hold")
def module_contracts(engine):
    """Layers and optimizers keep the promises torch documents for them."""
    for name, (needs, run) in CONTRACTS.items():
        yield CaseSpec(name, needs, run)
