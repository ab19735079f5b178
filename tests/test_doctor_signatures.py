"""Break signatures: computed from the catalogue, committed as data, never stale.

`uv run pytest tests/test_doctor_signatures.py --update-outputs` rewrites
minigrad/doctor/signatures.json; a break added to the catalogue fails the
staleness test until then, and joins the ranking with no other change.
"""

import importlib
import json

import pytest

from minigrad import breaks
from minigrad.doctor import diagnose, signatures

ENGINE_FILES = {"minigrad/scalar.py", "minigrad/tensor.py", "minigrad/graph.py"}


@pytest.fixture(scope="module")
def computed():
    return signatures.compute()


def test_committed_signatures_are_what_the_doctor_computes(request, computed):
    if request.config.getoption("--update-outputs"):
        signatures.FILE.write_text(json.dumps(computed, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    committed = signatures.load() if signatures.FILE.exists() else None
    assert committed == computed, (
        f"{signatures.FILE.name} is stale: run `uv run pytest tests/test_doctor_signatures.py --update-outputs` and commit it"
    )


def _changes_the_engine(brk):
    return any(fp.path in ENGINE_FILES for fp in brk.file_patches())


@pytest.mark.parametrize("brk", [b for b in breaks.catalogue() if _changes_the_engine(b)], ids=lambda b: b.slug)
def test_doctor_names_every_value_or_tensor_break_first(brk):
    with breaks.applied(brk.slug):
        Value = importlib.import_module("minigrad.scalar").Value
        Tensor = importlib.import_module("minigrad.tensor").Tensor
        diagnosis = diagnose(Value, Tensor)
    assert diagnosis.caught
    assert diagnosis.suspects[0][0] == brk.slug, diagnosis.suspects[:3]
    assert diagnosis.suspects[0][1] > (diagnosis.suspects[1][1] if len(diagnosis.suspects) > 1 else 0)


@pytest.mark.parametrize("brk", breaks.catalogue(), ids=lambda b: b.slug)
def test_only_breaks_outside_value_and_tensor_are_invisible(brk, computed):
    """The protocol page lists the invisible ones (computed there from signatures.json)."""
    assert bool(computed[brk.slug]) == _changes_the_engine(brk)
