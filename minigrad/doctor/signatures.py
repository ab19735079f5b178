"""Each break's signature: the evidence the checks collect on minigrad with it applied.

Computed, never written by hand, by minigrad.checks.catalogue_evidence(): every
check on minigrad's whole engine (Value, Tensor, nn, optim, functional) under
every break of the catalogue, the same run that gives the diagnostics matrix.
The result is committed as signatures.json so the doctor itself is fast;
tests/test_diagnostics_matrix.py fails when it is stale, or when a break's
signature is empty, and `uv run pytest tests/test_diagnostics_matrix.py
--update-outputs` rewrites it, so a new break joins the ranking with no other change,
once its pages are written: a break whose page still holds the scaffold's placeholders is left
out (scripts/drafts.py), so the doctor never names a break its page cannot explain yet.
"""

import json
from pathlib import Path

FILE = Path(__file__).with_name("signatures.json")


def load():
    return json.loads(FILE.read_text(encoding="utf-8"))
