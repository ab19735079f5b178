"""The checks' PyTorch numbers: one file, minigrad/checks/torch_reference.json,
written by scripts/make_check_reference.py (torch is not in the uv environment)."""

import json

import numpy as np
import pytest

from minigrad import checks
from minigrad.checks import cases
from minigrad.checks.reference import REFERENCE
from module_at import module_at

try:
    import torch  # noqa: F401
except ImportError:
    torch = None


def test_the_reference_holds_exactly_the_cases_the_checks_run():
    expected = {*cases.TENSOR_CASES, *cases.MODULE_CASES, *cases.LOSS_CASES, *cases.SCALAR_CASES}
    assert set(json.loads(REFERENCE.read_text(encoding="utf-8"))) == expected


@pytest.mark.skipif(torch is None, reason="torch is not installed here (it is not a dependency): the committed data is checked above")
def test_committed_reference_matches_a_fresh_torch_run():
    from pathlib import Path

    script = module_at(Path(__file__).resolve().parents[1] / "scripts" / "make_check_reference.py", "make_check_reference")
    fresh, committed = script.compute(), json.loads(REFERENCE.read_text(encoding="utf-8"))
    for name, case in committed.items():
        for key in ("output", "grads"):
            if key in case:
                for got, want in zip(fresh[name][key] if key == "grads" else [fresh[name][key]],
                                     case[key] if key == "grads" else [case[key]]):
                    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-14, err_msg=f"{name}: {key}")


def test_loss_reference_skips_an_engine_without_functional_naming_it():
    from minigrad.scalar import Value

    verdict = checks.loss_reference(checks.Engine(Value=Value))
    assert str(verdict) == "skipped: your engine has no functional: losses"
