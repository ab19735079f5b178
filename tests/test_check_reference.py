"""The checks' PyTorch numbers: one file, minigrad/reference/checks.json, written by
scripts/make_torch_reference.py (torch is not in the uv environment; its freshness
is tests/test_torch_reference.py's)."""

import json

import numpy as np
import pytest

from minigrad import checks
from minigrad.checks import cases
from minigrad.checks.reference import REFERENCE


def test_the_reference_holds_exactly_the_cases_the_checks_run():
    expected = {*cases.TENSOR_CASES, *cases.MODULE_CASES, *cases.LOSS_CASES, *cases.SCALAR_CASES}
    assert set(json.loads(REFERENCE.read_text(encoding="utf-8"))) == expected


def test_loss_reference_skips_an_engine_without_functional_naming_it():
    from minigrad.scalar import Value

    verdict = checks.loss_reference(checks.Engine(Value=Value))
    assert str(verdict) == "skipped: your engine has no functional: losses"
