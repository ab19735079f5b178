"""What PyTorch does, as the pages quote it: one file, minigrad/checks/torch_facts.json,
written by scripts/make_torch_facts.py (torch is not in the uv environment on purpose).

The pages' claims blocks print these facts (next to minigrad's own numbers where
there are some), so the doc tests check every page that quotes one against the
file; here, that each fact is quoted by some page, and, where torch is importable,
that the file is what torch does now.
"""

import json
from pathlib import Path

import pytest

from markdown_blocks import parse_page
from minigrad.checks.reference import FACTS, torch_facts
from module_at import module_at

try:
    import torch  # noqa: F401
except ImportError:
    torch = None

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "make_torch_facts.py"


def script():
    return module_at(SCRIPT, "make_torch_facts")


def test_every_fact_is_printed_by_a_pages_claims_block():
    claims = "\n".join(b.code for path in sorted((ROOT / "docs").rglob("*.md")) for b in parse_page(path).blocks if b.claims)
    unquoted = sorted(fact for fact in torch_facts() if fact != "torch" and f'"{fact}"' not in claims and f"'{fact}'" not in claims)
    assert not unquoted, f"facts no page's claims block prints (print them where the page says them, or drop them): {unquoted}"


def test_the_file_is_as_the_script_writes_it():
    text = FACTS.read_text(encoding="utf-8")
    assert script().dumps(json.loads(text)) == text, "edit scripts/make_torch_facts.py and rerun it, not the JSON"


@pytest.mark.skipif(torch is None, reason="torch is not installed here (it is not a dependency): the committed data is checked above")
def test_committed_facts_match_a_fresh_torch_run():
    make = script()
    assert make.dumps(make.compute()) == FACTS.read_text(encoding="utf-8"), "stale: rerun scripts/make_torch_facts.py"
