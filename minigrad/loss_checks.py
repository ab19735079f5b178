"""The `loss-reference` diagnostic: minigrad's losses and softmax against PyTorch.

The other checks reach `functional` only through `cross_entropy` and
`log_softmax` with an explicit axis, so a wrong default axis in `softmax`, an
unstable binary cross-entropy or a loss that broadcasts mismatched shapes
passes all of them. Each case here keeps its own evidence, like the others'.
PyTorch's numbers are committed in torch_reference_losses.json, written by
scripts/make_torch_reference_breaks_a.py. Import it through minigrad.diagnostics
(which registers it), not on its own: it builds on that module's helpers.
"""

import json
from pathlib import Path

import numpy as np

from .diagnostic_cases import LOSS_CASES, MSE_TARGET
from .diagnostics import Case, _against_torch, _missing, _raised, _summary, _tensor_grads_case, minigrad_engine

REFERENCE = Path(__file__).with_name("torch_reference_losses.json")

SHAPE_CASE = "mse_loss (4, 1) against a (4,) target"


def _refuses_mismatched_shapes(engine):
    """torch broadcasts (with a warning) to (4, 4); minigrad's contract is to refuse."""
    x = engine.Tensor(LOSS_CASES["mse_loss (4, 1)"][0], requires_grad=True)
    try:
        loss = engine.guard(lambda: engine.F.mse_loss(x, MSE_TARGET.reshape(-1)))
    except ValueError:
        return Case(SHAPE_CASE, "passed")
    except Exception as e:
        return _raised(SHAPE_CASE, e)
    detail = f"{SHAPE_CASE}: returned {float(loss.item()):.6g} (averaged over (4, 4)) instead of raising ValueError"
    return Case(SHAPE_CASE, "wrong values", detail, ("output",))


def loss_reference(engine=None):
    """softmax, mse_loss and binary_cross_entropy_with_logits equal PyTorch's; mismatched shapes are refused."""
    engine = engine or minigrad_engine()
    if engine.F is None:
        return _summary([Case("losses", "skipped", "needs minigrad's functional")], "")
    reference = json.loads(REFERENCE.read_text())
    cases = []
    for name, (x, f) in LOSS_CASES.items():
        expected = reference[name]
        cases.append(_missing(engine, "Tensor", name) or _tensor_grads_case(
            engine, name, lambda t: f(t, engine.F), [x], expected["grads"], expected["output"], _against_torch))
    cases.append(_refuses_mismatched_shapes(engine))
    return _summary(cases, f"{len(cases)} loss cases match PyTorch and refuse mismatched shapes")
