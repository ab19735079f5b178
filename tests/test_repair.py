"""A page's "Repair it": the units a break touches, and Check on a reader's text (minigrad/repair/check.py).

For every break, CI proves what the page promises: the untouched broken code is refused and the
healthy code (the diff reversed) is accepted; by text for every break (they are the broken copy and
minigrad's source, whose check results the matrix holds), by running Check for two of each phase. The rest tries what a reader types: a loop, an
exception, a syntax error, a lost header, a fix that breaks something else.
"""

import io
import json
import sys
import textwrap
import types
from contextlib import redirect_stdout

import pytest

from minigrad.breaks import ROOT, catalogue, get, patched_sources
from minigrad.repair import check, substituted
from minigrad.repair.units import HEADER, editor_text, healthy_text, split, units

SLUGS = [b.slug for b in catalogue()]


def quietly(*args, **kwargs):
    out = io.StringIO()
    with redirect_stdout(out):
        outcome = check(*args, **kwargs)
    return outcome, out.getvalue()


def _first_of_each_phase(count=2):
    """A few breaks of each phase, in catalogue order: the ones whose repair runs every check here."""
    by_phase = {}
    for b in catalogue():
        by_phase.setdefault(b.phase, []).append(b.slug)
    return [slug for slugs in by_phase.values() for slug in slugs[:count]]


@pytest.mark.parametrize("slug", SLUGS)
def test_the_editors_text_is_the_broken_code_and_its_repair_is_minigrads_source(slug):
    """What the page promises for every break, proven by text: Check runs the checks on `substituted`'s
    files, and these are, byte for byte, the broken copy for the untouched editor (the matrix proves its
    catching checks fail on it: tests/test_diagnostics_matrix.py) and minigrad's own files for the diff
    reversed (where every check passes: the same file). The runs themselves are below, for a few breaks."""
    found = units(slug)
    assert substituted(slug, editor_text(found)) == patched_sources(slug)
    healthy = substituted(slug, healthy_text(found))
    assert healthy == {path: (ROOT / path).read_text(encoding="utf-8") for path in healthy}
    assert get(slug).caught_by(), f"{slug}: no check catches it, so Check could never refuse it"


@pytest.mark.parametrize("slug", _first_of_each_phase())
def test_the_broken_code_is_refused_and_the_healthy_code_accepted(slug):
    found = units(slug)
    broken, report = quietly(slug, editor_text(found))
    assert not broken.repaired, report
    caught = get(slug).caught_by()
    assert caught and all(not broken.results[name][0] for name in caught), report
    healthy, report = quietly(slug, healthy_text(found))
    assert healthy.repaired, report
    assert list(healthy.results)[: len(caught)] == caught  # the catching checks come first


def test_the_text_proof_sees_a_repair_that_is_not_minigrads_source():
    """Planted: a repair that leaves one character of the broken code is not minigrad's source."""
    (unit,) = units("mean-forgets-n")
    text = unit.healthy.replace("a.data.mean(", "a.data.mean( ")
    assert text != unit.healthy
    healthy = substituted("mean-forgets-n", text)
    assert healthy != {path: (ROOT / path).read_text(encoding="utf-8") for path in healthy}


@pytest.mark.parametrize("slug", SLUGS)
def test_units_are_whole_statements_holding_every_changed_line(slug):
    for unit in units(slug):
        compile(unit.broken, unit.header, "exec")  # whole functions, dedented
        compile(unit.healthy, unit.header, "exec")
        assert unit.broken != unit.healthy, unit.header
        pointed = unit.changed + unit.missing
        assert pointed and all(1 <= n <= len(unit.broken.splitlines()) for n in pointed), unit
        assert HEADER.match(unit.header)


def test_a_deleted_method_widens_to_its_neighbours():
    (unit,) = units("no-reflected-add")
    assert unit.names == ("Value.__truediv__", "Value.__rmul__")
    assert "__radd__" not in unit.broken and "def __radd__" in unit.healthy


def test_several_functions_come_in_file_order_each_under_its_header():
    found = units("overwrite-grad")
    assert len(found) > 1 and [u.lines for u in found] == sorted(u.lines for u in found)
    text = editor_text(found)
    assert split(text, found) == [u.broken for u in found]


def test_one_unit_needs_no_header():
    (unit,) = units("mean-forgets-n")
    assert quietly("mean-forgets-n", unit.healthy)[0].repaired


def test_a_lost_header_is_named_and_nothing_runs():
    found = units("overwrite-grad")
    text = healthy_text(found).replace(found[2].header + "\n", "")
    outcome, report = quietly("overwrite-grad", text)
    assert outcome.problem == "headers" and not outcome.results
    assert found[2].header in report


def test_a_syntax_error_names_the_editors_line():
    outcome, report = quietly("mean-forgets-n", "def mean(self):\n    return (\n")
    assert outcome.problem == "syntax" and "(line 2 of the editor)" in report, report


def test_a_syntax_error_in_a_later_unit_names_the_editors_line():
    found = units("overwrite-grad")
    text = healthy_text(found)
    lines = text.splitlines()
    at = lines.index(found[3].header) + 2  # the line under tanh's `def`, 1-based in the editor
    lines[at - 1] = lines[at - 1] + " +"
    outcome, report = quietly("overwrite-grad", "\n".join(lines) + "\n")
    assert outcome.problem == "syntax" and f"(line {at} of the editor)" in report, report


def test_a_method_pasted_with_its_class_indent_is_a_repair():
    """A learner copies the fixed method out of their own class: it comes with the class's indent."""
    found = units("overwrite-grad")
    indented = "\n".join(line if line.startswith("# === ") or not line else "    " + line
                         for line in healthy_text(found).splitlines())
    assert indented != healthy_text(found)
    assert quietly("overwrite-grad", indented)[0].repaired
    (unit,) = units("relu-gated-on-upstream")  # one unit, no header, tab-free four-space indent
    assert quietly("relu-gated-on-upstream", textwrap.indent(unit.healthy, "    "))[0].repaired


def test_a_function_that_raises_is_evidence_not_a_crash():
    text = "def mean(self, axis=None, keepdims=False):\n    raise ValueError('not yet')\n"
    outcome, report = quietly("mean-forgets-n", text)
    assert not outcome.repaired and "ValueError: not yet" in report


def test_an_endless_loop_is_stopped_by_the_time_limit():
    (unit,) = units("sgd-sign-flipped")
    looping = unit.broken.replace("def step(self):", "def step(self):\n    while True:\n        pass", 1)
    outcome, report = quietly("sgd-sign-flipped", looping, time_limit=0.2)
    assert not outcome.repaired
    assert any("TimeoutError: stopped after 0.2 s" in d for _, d in outcome.results.values()), report


def test_a_fix_that_breaks_something_else_is_not_accepted():
    (unit,) = units("mean-forgets-n")
    overdone = unit.healthy.replace("a.data.mean(", "2 * a.data.mean(")  # the gradient healed, the value broken
    outcome, report = quietly("mean-forgets-n", overdone)
    assert not outcome.repaired, report


def test_module_level_trouble_is_reported_as_an_import_failure():
    (unit,) = units("mean-forgets-n")
    outcome, report = quietly("mean-forgets-n", "@undefined_decorator\n" + unit.healthy)
    assert outcome.problem == "import" and "NameError" in report


def test_the_reader_prints_go_under_the_report():
    (unit,) = units("mean-forgets-n")
    chatty = unit.healthy.replace("    def _backward():", "    print('mean called')\n\n    def _backward():", 1)
    outcome, report = quietly("mean-forgets-n", chatty)
    assert outcome.repaired and report.index("mean called") > report.index("Repaired")


def test_spanish_report_and_the_pages_verdict(monkeypatch):
    heard = []
    page = types.SimpleNamespace(language=lambda: "es", repaired=heard.append)
    monkeypatch.setitem(sys.modules, "minigrad_page", page)
    outcome, report = quietly("mean-forgets-n", healthy_text(units("mean-forgets-n")))
    assert "Reparado" in report
    sent = json.loads(heard[0])
    assert sent["repaired"] and sent["slug"] == "mean-forgets-n" and set(sent["checks"]) == set(outcome.results)


def test_the_healthy_modules_come_back():
    import minigrad.tensor

    before = minigrad.tensor.Tensor.mean
    quietly("mean-forgets-n", editor_text(units("mean-forgets-n")))
    assert minigrad.tensor.Tensor.mean is before


def test_substitution_keeps_the_rest_of_the_file():
    (unit,) = units("mean-forgets-n")
    source = substituted("mean-forgets-n", unit.healthy)["minigrad/tensor.py"]
    assert source == (ROOT / "minigrad/tensor.py").read_text(encoding="utf-8")
