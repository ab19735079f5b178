"""minigrad/runner/worker.py, the browser worker's Python side, run here in CPython as
worker.js calls it: output a line at a time, pictures made by the build's rules (a
broken graph marked, a curve beside the other run), and a reader's folder written
where it belongs and nowhere else."""

import json
import signal
import sys

import pytest

from minigrad.runner import pictures, worker

DIAMOND = """
from minigrad.scalar import Value
from minigrad.viz import draw
a = Value(2.0, label="a")
b = Value(-3.0, label="b")
c = a * a
c.label = "c"
L = c * b
L.label = "L"
L.backward()
draw(L)
print(f"a.grad = {a.grad}")
"""
CURVE = """
from minigrad.viz import plot
plot([3.0, 2.0, 1.5], label="loss")
"""


def chain(*codes):
    return json.dumps([{"code": code, "name": f"<block {i + 1}>", "first_line": 1} for i, code in enumerate(codes)])


def run(code, slug="", **picture):
    """Run `code` as worker.js does: broken when `slug` is set; `picture` is the page's options."""
    printed = []
    result = json.loads(worker.runner(printed.append)(chain(code), slug, json.dumps({"slug": slug, **picture})))
    return printed, result


def test_output_goes_out_a_line_at_a_time_and_a_last_partial_line_at_the_end():
    printed, result = run("print('one'); print('two', end=''); print(' three'); print('tail', end='')")
    assert printed == ["one\n", "two three\n", "tail"]
    assert result["error"] is None


def test_a_stream_never_writes_a_line_before_its_newline():
    written = []
    stream = worker.LineStream(written.append)
    stream.write("half")
    assert written == []
    stream.write(" and\nmore")
    assert written == ["half and\n"]
    stream.reset()
    stream.flush()
    assert written == ["half and\n"]  # what a stopped run left is not the next run's


def test_an_error_is_reported_by_type_with_the_readers_traceback_only():
    printed, result = run("x = 1\n{}['k']\n")
    assert result["error"] == "KeyError"
    assert '<block 1>", line 2' in result["traceback"] and "worker.py" not in result["traceback"]


def test_a_healthy_graph_is_sent_unmarked_and_named_healthy():
    _, result = run(DIAMOND, lang="en")
    (graph,) = result["pictures"]
    assert graph["kind"] == "graph" and graph["caption"] == "healthy"
    assert graph["dot"] == graph["text"] and "penwidth" not in graph["dot"]
    assert graph["alt"] == pictures.alt_of_dot(graph["text"]) and "a: data 2" in graph["alt"]


def test_a_broken_graph_is_marked_where_the_break_changed_it_as_the_build_marks_it():
    printed, result = run(DIAMOND, "overwrite-grad", lang="es")
    (graph,) = result["pictures"]
    _, healthy = run(DIAMOND)
    assert printed == ["a.grad = -6.0\n"]
    assert graph["caption"] == "roto (overwrite-grad)"
    assert graph["dot"] == pictures.mark_changes(healthy["pictures"][0]["text"], graph["text"])
    assert graph["dot"] != graph["text"]  # a and c changed


def test_a_curve_is_drawn_beside_the_other_runs_curve_healthy_first():
    _, healthy = run(CURVE, lang="en")
    assert healthy["pictures"][0]["caption"] == "healthy"
    assert "broken" not in healthy["pictures"][0]["alt"]  # no other run yet: one series
    other = healthy["pictures"][0]["text"]
    _, broken = run(CURVE.replace("1.5", "4.0"), "sgd-sign-flipped", lang="en", other=other)
    curve = broken["pictures"][0]
    assert curve["caption"] == "healthy / broken"
    assert curve["alt"].index("healthy:") < curve["alt"].index("broken (sgd-sign-flipped):")
    assert "<svg" in curve["svg"]


def test_hear_stops_calls_back_before_the_keyboard_interrupt():
    before = signal.getsignal(signal.SIGINT)
    heard = []
    try:
        worker.hear_stops(lambda: heard.append(True))
        with pytest.raises(KeyboardInterrupt):
            signal.getsignal(signal.SIGINT)(signal.SIGINT, None)
        assert heard == [True]
    finally:
        signal.signal(signal.SIGINT, before)


def test_a_readers_folder_replaces_the_last_and_nothing_leaves_it(tmp_path):
    home = str(tmp_path / "learner")
    files = [{"path": "mine/__init__.py", "text": "X = 1\n"}, {"path": "../escape.py", "text": "bad"},
             {"path": "notes.txt", "text": "not python"}, {"path": "mine/deep/../ok.py", "text": "Y = 2\n"}]
    worker.learner_files(json.dumps(files), home)
    written = sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*") if p.is_file())
    assert written == ["learner/mine/__init__.py", "learner/mine/ok.py"]
    sys.path.insert(0, home)
    try:
        import mine

        assert mine.X == 1
        worker.learner_files(json.dumps([{"path": "mine/__init__.py", "text": "X = 2\n"}]), home)
        assert "mine" not in sys.modules and home not in sys.path  # forgotten: loaded again, imported again
        sys.path.insert(0, home)
        import mine

        assert mine.X == 2
    finally:
        sys.modules.pop("mine", None)
        sys.path[:] = [p for p in sys.path if p != home]
