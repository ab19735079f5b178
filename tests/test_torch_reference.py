"""PyTorch's numbers: one script (scripts/make_torch_reference.py), one home (minigrad/reference/).

torch is not in the uv environment on purpose, so the numbers are committed
data; where torch is importable (`python3 -m pytest --noconftest -o addopts=""
tests/test_torch_reference.py` with a Python that has torch 2.13), every part
is rerun and compared with its file, as `make_torch_reference.py --check` does.
"""

from pathlib import Path

import pytest

from minigrad.checks import reference
from scripts.torch_reference import HOME, PARTS

ROOT = Path(__file__).resolve().parents[1]
from scripts import make_torch_reference as CLI  # noqa: E402

try:
    import torch  # noqa: F401
except ImportError:
    torch = None


def test_every_file_of_the_home_is_a_part_s_and_the_checks_read_it_there():
    assert sorted(p.name for p in HOME.iterdir()) == sorted(f"{name}.json" for name in PARTS)
    assert reference.HOME == HOME and set(reference.SHIPPED) == {HOME / "checks.json", HOME / "facts.json"}


def test_an_unknown_part_is_named_with_the_parts_there_are(capsys):
    with pytest.raises(SystemExit):
        CLI.main(["engine", "enigne"])
    assert "no part named enigne: the parts are engine, losses" in capsys.readouterr().err


def test_a_file_that_differs_from_a_fresh_run_is_stale(tmp_path):
    class Part:  # a part without its own `stale`: any difference of the text counts
        OUT = tmp_path / "part.json"

        @staticmethod
        def dumps(data):
            return f"{data}\n"

    assert CLI.stale(Part, 1) == ["the file is missing"]
    Part.OUT.write_text("1\n")
    assert CLI.stale(Part, 1) == [] and CLI.stale(Part, 2) == ["the file differs from a fresh run"]


@pytest.mark.skipif(torch is None, reason="torch is not installed here (it is not a dependency): the committed data is read by the parity tests")
@pytest.mark.parametrize("name", PARTS)
def test_each_file_is_what_torch_computes_now(name):
    part = CLI.part(name)
    assert part.OUT == HOME / f"{name}.json"
    assert CLI.stale(part, part.compute()) == [], f"minigrad/reference/{name}.json is stale: rerun scripts/make_torch_reference.py {name}"
