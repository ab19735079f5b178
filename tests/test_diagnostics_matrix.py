"""The break x check matrix and the doctor's signatures: computed here, from one
run of every check under every break, committed as data, rendered by the site.

Every check must pass on healthy minigrad (or it would 'catch' everything);
every break must be caught by at least one, and leave a non-empty signature
(or it is a finding: add the check that catches it). `pytest --update-outputs`
rewrites both files.
"""

import importlib
import json

import pytest

from minigrad import breaks, checks
from minigrad.breaks import HERE, ROOT
from minigrad.checks import registry
from minigrad.doctor import diagnose, rank, signatures

MATRIX = breaks.MATRIX
from scripts import drafts  # noqa: E402  (which breaks' pages are unwritten yet)


@pytest.fixture(scope="module")
def evidence():
    return checks.catalogue_evidence()


@pytest.mark.parametrize("name", list(checks.DIAGNOSTICS))
def test_check_passes_on_healthy_code(name):
    verdict = checks.DIAGNOSTICS[name]()
    assert verdict.passed, str(verdict)
    assert all(c.status == "passed" for c in verdict.cases), [c for c in verdict.cases if c.status != "passed"]


def test_every_registered_check_is_listed_and_has_titles_in_both_languages():
    titles = breaks.load().diagnostics
    assert set(checks.DIAGNOSTICS) == set(registry.CHECKS) == set(titles)
    assert all(set(t) == {"en", "es"} for t in titles.values())


@pytest.mark.parametrize(("path", "compute"), [(MATRIX, checks.matrix), (signatures.FILE, lambda e: drafts.written_only(checks.signatures(e)))],
                         ids=["matrix", "signatures"])
def test_committed_data_is_what_the_checks_compute(request, evidence, path, compute):
    computed = json.loads(json.dumps(compute(evidence)))
    if request.config.getoption("--update-outputs"):
        path.write_text(json.dumps(computed, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    committed = json.loads(path.read_text(encoding="utf-8")) if path.exists() else None
    assert committed == computed, f"{path.name} is stale: run `uv run pytest tests/test_diagnostics_matrix.py --update-outputs` and commit it"


@pytest.mark.parametrize("slug", [b.slug for b in breaks.catalogue()])
def test_every_break_is_caught_and_leaves_a_signature(slug, evidence):
    for verdicts in evidence[slug]:  # its page's diff, then each variant
        assert any(not v.passed for v in verdicts.values()), f"no check catches {slug}: add one that does"
        assert checks.failures(verdicts), f"{slug} leaves no failed case: the doctor could never name it"


UNWRITTEN = drafts.unwritten()  # a break whose pages are placeholders yet: no suspect (scripts/drafts.py)


@pytest.mark.parametrize(("slug", "variant"), [(b.slug, v) for b in breaks.catalogue() for v in b.variants()])
def test_doctor_names_a_break_first_when_its_variant_is_applied(slug, variant):
    """Diagnosed, not ranked from the session's evidence: a learner with a Tensor only (the
    evidence is minigrad's whole engine)."""
    if slug in UNWRITTEN:
        pytest.skip(f"{slug}'s pages are not written yet: the doctor does not suspect it")
    with breaks.applied(slug, variant):
        diagnosis = diagnose(Tensor=importlib.import_module("minigrad.tensor").Tensor)
    assert diagnosis.suspects[0][0] == slug, diagnosis.suspects[:3]


@pytest.mark.parametrize("brk", breaks.catalogue(), ids=lambda b: b.slug)
def test_doctor_names_every_break_first_on_minigrads_whole_engine(brk, evidence):
    diagnosis = rank(evidence[brk.slug][0])  # what diagnose(Value, Tensor, nn, optim, functional) ranks
    if brk.slug in UNWRITTEN:  # checked, in this run, to be no suspect at all
        assert brk.slug not in [s[0] for s in diagnosis.suspects]
        return
    assert diagnosis.caught
    assert diagnosis.suspects[0][0] == brk.slug, diagnosis.suspects[:3]
    assert diagnosis.suspects[0][1] > (diagnosis.suspects[1][1] if len(diagnosis.suspects) > 1 else 0)
    assert diagnosis.diagnoses[0][0] == brk.slug and diagnosis.unexplained == [], diagnosis.diagnoses  # the verdict too


def test_the_evidence_is_what_diagnose_sees_on_a_broken_engine(evidence):
    """The two tests above rank the session's evidence instead of diagnosing again: that is the same
    verdict only while the evidence is what `diagnose` examines. One break of each kind, diagnosed."""
    for slug in ("overwrite-grad", "skip-unbroadcast"):
        with breaks.applied(slug):
            parts = {"Value": importlib.import_module("minigrad.scalar").Value,
                     "Tensor": importlib.import_module("minigrad.tensor").Tensor,
                     **{n: importlib.import_module(f"minigrad.{n}") for n in ("nn", "optim", "functional")}}
            diagnosed = diagnose(**parts)
        ranked = rank(evidence[slug][0])
        assert (diagnosed.suspects, diagnosed.diagnoses) == (ranked.suspects, ranked.diagnoses)


def test_a_stale_signature_is_seen_by_the_ranking_tests(evidence, monkeypatch):
    """Planted: overwrite-grad's signature swapped for skip-unbroadcast's. Ranking the evidence, as the
    tests above do, no longer names overwrite-grad first."""
    signed = signatures.load()
    assert rank(evidence["overwrite-grad"][0]).suspects[0][0] == "overwrite-grad"
    monkeypatch.setattr(signatures, "load", lambda: {**signed, "overwrite-grad": signed["skip-unbroadcast"]})
    assert rank(evidence["overwrite-grad"][0]).suspects[0][0] != "overwrite-grad"


def test_the_default_engine_is_resolved_when_a_check_is_called():
    """A check imported healthy still tests the broken copy inside `applied`: pages rely on it."""
    with breaks.applied("no-output-seed"):
        assert checks.diamond_test().status == "caught"
    assert checks.diamond_test().status == "passed"


def test_an_engine_with_only_a_value_skips_what_needs_the_rest_naming_it():
    from minigrad.scalar import Value

    engine = checks.Engine(Value=Value)
    assert str(checks.training_smoke_test(engine)) == "skipped: your engine has no Tensor, nn, optim: training"
    assert checks.repeatable_gradients(engine).status == "skipped"
    assert str(checks.shape_invariant(engine)) == "skipped: your engine has no Tensor: 14 cases"
    assert str(checks.finite_differences(engine)).startswith(
        "passed: 10 functions agree with central differences; skipped your engine has no Tensor: 14 cases")
