"""The break x diagnostic matrix: computed here, committed as data, rendered by the site.

Every diagnostic must pass on healthy minigrad (or it would 'catch' everything);
every break must be caught by at least one (or it is a finding: add the
diagnostic that catches it). `pytest --update-outputs` rewrites the file.
"""

import json
import tomllib

import pytest

from minigrad import breaks, diagnostics
from minigrad.breaks import HERE

MATRIX = HERE / "matrix.json"


@pytest.fixture(scope="module")
def matrix():
    return compute_matrix()


def compute_matrix():
    matrix = {}
    for brk in breaks.catalogue():
        with breaks.applied(brk.slug):
            from minigrad.diagnostics import DIAGNOSTICS

            row = {}
            for name, check in DIAGNOSTICS.items():
                verdict = check()
                row[name] = {"caught": not verdict.passed, "detail": verdict.detail}
        matrix[brk.slug] = row
    return {"diagnostics": list(diagnostics.DIAGNOSTICS), "breaks": matrix}


@pytest.mark.parametrize("name", list(diagnostics.DIAGNOSTICS))
def test_diagnostic_passes_on_healthy_code(name):
    verdict = diagnostics.DIAGNOSTICS[name]()
    assert verdict.passed, str(verdict)


def test_every_diagnostic_has_titles_in_both_languages():
    titles = tomllib.loads((HERE / "catalogue.toml").read_text())["diagnostic"]
    assert set(titles) == set(diagnostics.DIAGNOSTICS)
    assert all(set(t["title"]) == {"en", "es"} for t in titles.values())


def test_committed_matrix_is_what_the_diagnostics_compute(request, matrix):
    computed = matrix
    if request.config.getoption("--update-outputs"):
        MATRIX.write_text(json.dumps(computed, indent=1, ensure_ascii=False) + "\n")
    committed = json.loads(MATRIX.read_text()) if MATRIX.exists() else None
    assert committed == computed, f"{MATRIX.name} is stale: run `uv run pytest --update-outputs` and commit it"


@pytest.mark.parametrize("slug", [b.slug for b in breaks.catalogue()])
def test_every_break_is_caught_by_some_diagnostic(slug, matrix):
    row = matrix["breaks"][slug]
    assert any(cell["caught"] for cell in row.values()), f"no diagnostic catches {slug}: add one that does"


def test_the_default_engine_is_resolved_when_a_diagnostic_is_called():
    """A diagnostic imported healthy still tests the broken copy inside `applied`: pages rely on it."""
    with breaks.applied("no-output-seed"):
        assert diagnostics.diamond_test().status == "caught"
    assert diagnostics.diamond_test().status == "passed"


def test_a_learner_engine_without_minigrads_modules_skips_what_needs_them():
    from minigrad.scalar import Value

    engine = diagnostics.Engine(Value=Value)
    assert diagnostics.training_smoke_test(engine).status == "skipped"
    assert diagnostics.repeatable_gradients(engine).status == "skipped"
    assert str(diagnostics.shape_invariant(engine)) == "skipped: no Tensor class: 9 cases"
    assert str(diagnostics.finite_differences(engine)).startswith("passed: 6 functions agree with central differences; skipped no Tensor class: 9 cases")
