"""Each break's signature: the evidence the doctor collects on minigrad with it applied.

Computed, never written by hand: `compute()` runs the doctor on the `Value` and
`Tensor` of `minigrad.breaks.applied(slug)` for every break in the catalogue.
The result is committed as signatures.json so the doctor itself is fast;
tests/test_doctor_signatures.py fails when it is stale, and
`uv run pytest tests/test_doctor_signatures.py --update-outputs` rewrites it, so a
new break joins the ranking with no other change. A break whose signature is
empty changes nothing the doctor can see (it lives in nn, optim or functional).
"""

import importlib
import json
from pathlib import Path

from .. import breaks
from .evidence import examine, failures

FILE = Path(__file__).with_name("signatures.json")


def compute():
    signatures = {}
    for brk in breaks.catalogue():
        with breaks.applied(brk.slug):
            Value = importlib.import_module("minigrad.scalar").Value
            Tensor = importlib.import_module("minigrad.tensor").Tensor
            signatures[brk.slug] = failures(examine(Value, Tensor, time_limit=None))
    return signatures


def load():
    return json.loads(FILE.read_text(encoding="utf-8"))
