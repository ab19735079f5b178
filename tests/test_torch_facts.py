"""What PyTorch does, as the pages quote it: one file, minigrad/reference/facts.json,
written by scripts/make_torch_reference.py (torch is not in the uv environment on purpose).

The pages' claims blocks print these facts (next to minigrad's own numbers where
there are some), so the doc tests check every page that quotes one against the
file; here, that each fact is quoted by some page (tests/test_torch_reference.py
checks, where torch is importable, that the file is what torch does now).
"""

import json
from pathlib import Path

from markdown_blocks import parse_page
from minigrad.checks.reference import FACTS, torch_facts
from scripts.torch_reference import facts

ROOT = Path(__file__).resolve().parents[1]


def test_every_fact_is_printed_by_a_pages_claims_block():
    claims = "\n".join(b.code for path in sorted((ROOT / "docs").rglob("*.md")) for b in parse_page(path).blocks if b.claims)
    unquoted = sorted(fact for fact in torch_facts() if fact != "torch" and f'"{fact}"' not in claims and f"'{fact}'" not in claims)
    assert not unquoted, f"facts no page's claims block prints (print them where the page says them, or drop them): {unquoted}"


def test_the_file_is_as_the_script_writes_it():
    text = FACTS.read_text(encoding="utf-8")
    assert facts.dumps(json.loads(text)) == text, "edit scripts/torch_reference/facts.py and rerun the script, not the JSON"
