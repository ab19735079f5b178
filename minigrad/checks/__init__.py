"""The standard diagnostics a learner runs when gradients look wrong, in one package.

Each check is a function of the engine it checks (`Engine`: Value, Tensor, nn,
optim, functional, any of them absent) returning a `Verdict`, one `Case` per
case run: it passes on healthy minigrad and, if it can, catches a break.
Called with no engine it checks minigrad as it is *at call time*, so inside
`minigrad.breaks.applied(slug)` it tests the broken copy (pages rely on it).
`DIAGNOSTICS` lists them in the site's order; `catalogue_evidence()` runs them
all under every break, which gives both the matrix and the doctor's signatures.
"""

from .contracts import module_contracts
from .engine import Engine, Missing
from .evidence import Case, Verdict
from .gradients import diamond_test, finite_differences, shape_invariant
from .reference import loss_reference, torch_reference
from .registry import run_check
from .runner import DIAGNOSTICS, catalogue_evidence, failures, matrix, ran, run_all, signatures
from .training import repeatable_gradients, training_smoke_test

__all__ = ["DIAGNOSTICS", "Case", "Engine", "Missing", "Verdict", "catalogue_evidence", "diamond_test", "failures", "ran",
           "finite_differences", "loss_reference", "matrix", "module_contracts", "repeatable_gradients",
           "run_all", "run_check", "shape_invariant", "signatures", "torch_reference", "training_smoke_test"]
