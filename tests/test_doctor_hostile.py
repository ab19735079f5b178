"""A learner's engine never crashes or fools the doctor: whatever it does, the
command line ends with a full report and a non-zero exit, and the page's
in-process run reports the same."""

import json
import sys
from pathlib import Path

import pytest

from minigrad.doctor import check_engine
from minigrad.doctor.__main__ import main

# the classic learner style's scalar engine (tests/learner_engines), healthy, and where its backward starts
HEALTHY = (Path(__file__).parent / "learner_engines" / "classic" / "src" / "minigrad" / "engine.py").read_text()
BACKWARD = "        topo = []\n"
assert HEALTHY.count(BACKWARD) == 1
# name: (what replaces the first line of backward, or a line added to the class; what the report says)
HOSTILE = {
    "raises NotImplementedError": (BACKWARD.replace("topo = ", "raise NotImplementedError  # "),
                                   "Your engine raised NotImplementedError in every case that ran"),
    "calls sys.exit()": (BACKWARD.replace("topo = ", "import sys; sys.exit()  # "),
                         "Your engine raised RuntimeError in every case that ran"),
    "recurses in __neg__": (BACKWARD.replace("topo = ", "return -self  # "), "Your engine raised RecursionError in every case that ran"),
    "raises in __init__": ("__init__", "Your engine raised ValueError in every case that ran"),
}
ENDS_THE_PROCESS = {
    "calls os._exit(0)": (BACKWARD.replace("topo = ", "import os; os._exit(0)  # "), "(exit code 0): fix that first."),
    "segfaults": (BACKWARD.replace("topo = ", "import ctypes; ctypes.string_at(0)  # "), "(signal SIGSEGV): fix that first."),
}


def engine_file(tmp_path, change):
    if change == "__init__":
        source = HEALTHY + "\n\ndef _refuse(self, *args, **kwargs):\n    raise ValueError('not yet')\n\n\nValue.__init__ = _refuse\n"
    else:
        source = HEALTHY.replace(BACKWARD, change)
        if "-self" in change:
            source += "\n\nValue.__neg__ = lambda self: -self\n"
    (tmp_path / "engine.py").write_text(source)
    return f"{tmp_path}/engine.py:Value"


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_the_healthy_base_is_healthy(tmp_path, capsys):
    (tmp_path / "engine.py").write_text(HEALTHY)
    code, out, err = run(capsys, "--scalar", f"{tmp_path}/engine.py:Value")
    assert code == 0 and "Nothing caught" in out, out + err


@pytest.mark.parametrize("how", HOSTILE)
def test_an_engine_that_only_crashes_is_told_to_fix_that_first(how, tmp_path, capsys):
    change, says = HOSTILE[how]
    code, out, err = run(capsys, "--scalar", engine_file(tmp_path, change))
    assert code == 1
    assert says in out and ": fix that first." in out
    assert "Likely breaks" not in out and "Something is caught" not in out
    trace = out[out.index("fix that first."):]
    assert "minigrad/checks" not in trace and "minigrad/doctor" not in trace  # the learner's frames only
    if how != "calls sys.exit()":
        assert f'File "{tmp_path}/engine.py"' in trace


@pytest.mark.parametrize("how", ENDS_THE_PROCESS)
def test_an_engine_that_ends_the_process_gets_a_report_and_exit_1(how, tmp_path, capsys):
    change, says = ENDS_THE_PROCESS[how]
    code, out, err = run(capsys, "--scalar", engine_file(tmp_path, change), "--json")
    report = json.loads(out)
    assert code == 1
    assert report["fix_first"]["message"].startswith("Your engine ended the doctor's process during Finite differences")
    assert report["fix_first"]["message"].endswith(says)
    assert report["suspects"] == []
    assert [c["name"] for c in report["checks"]] == ["shape-invariant"]  # what finished before it ended


def test_an_engine_that_ends_the_process_is_told_so_in_spanish(tmp_path, capsys):
    code, out, err = run(capsys, "--scalar", engine_file(tmp_path, ENDS_THE_PROCESS["calls os._exit(0)"][0]), "--lang", "es")
    assert code == 1
    assert "Tu motor terminó el proceso del doctor durante Diferencias finitas" in out
    assert "(código de salida 0): arregla eso primero." in out


def test_a_loop_that_ignores_the_timer_is_ended_by_the_parent(tmp_path, capsys, monkeypatch):
    """Busy C code (here: a signal handler that swallows the doctor's alarm) is killed by the parent's own deadline."""
    from minigrad.doctor import isolated

    monkeypatch.setattr(isolated, "deadline", lambda time_limit: 3.0)
    change = BACKWARD.replace("topo = ", "import signal, time; signal.signal(signal.SIGALRM, signal.SIG_IGN); time.sleep(60)  # ")
    code, out, err = run(capsys, "--scalar", engine_file(tmp_path, change), "--time-limit", "0.2")
    assert code == 1
    assert "Your engine ended the doctor's process during Finite differences, case diamond (a*b + c) * (a - c) (signal SIGKILL)" in out


@pytest.mark.parametrize("how", [h for h in HOSTILE if h != "calls sys.exit()"])
def test_on_the_page_the_same_engines_get_the_same_words(how, tmp_path, capsys):
    change, says = HOSTILE[how]
    target = engine_file(tmp_path, change)
    namespace = {"__name__": "learner_engine"}
    exec(compile(Path(target.split(":")[0]).read_text(), target.split(":")[0], "exec"), namespace)
    diagnosis = check_engine(namespace["Value"])
    out = capsys.readouterr().out
    assert diagnosis.crashed and diagnosis.suspects == []
    assert says in out


def test_what_the_engine_prints_goes_to_stderr_bounded(tmp_path, capsys):
    change = BACKWARD.replace("topo = ", "print('x' * 1000); topo = ")
    code, out, err = run(capsys, "--scalar", engine_file(tmp_path, change), "--json")
    assert json.loads(out)["fix_first"] is None and code == 0
    assert "x" * 1000 in err and len(err) < 25_000


@pytest.mark.skipif(sys.platform == "win32", reason="os._exit and signals as on POSIX")
def test_an_endless_loop_names_its_check_and_case(tmp_path, capsys):
    change = BACKWARD.replace("topo = ", "while True: pass  # ")
    code, out, err = run(capsys, "--scalar", engine_file(tmp_path, change), "--time-limit", "0.2")
    assert code == 1
    assert "timed out [run]: diamond (a*b + c) * (a - c) at 2, 3, 4: raised TimeoutError: stopped after 0.2 s" in out


def test_in_the_browser_os_exit_is_the_engines_evidence_not_the_end_of_python(tmp_path, capsys, monkeypatch):
    """Pyodide has no process of its own to end: os._exit there would kill the page's Python."""
    change = ENDS_THE_PROCESS["calls os._exit(0)"][0]
    target = engine_file(tmp_path, change)
    namespace = {"__name__": "learner_engine"}
    exec(compile(Path(target.split(":")[0]).read_text(), target.split(":")[0], "exec"), namespace)
    monkeypatch.setattr(sys, "platform", "emscripten")
    diagnosis = check_engine(namespace["Value"])
    out = capsys.readouterr().out
    assert diagnosis.crashed and "Your engine raised RuntimeError in every case that ran" in out
    assert "the engine called os._exit(0)" in out


# An engine that is hostile in some cases only: the rest pass, and still no break is named.
PARTLY = {
    "recurses in __neg__ only": ("\n\nValue.__neg__ = lambda self: -self\n", "Your engine recursed without end (RecursionError) in "),
    "loops in tanh only": ("\n\ndef _tanh(self):\n    while True:\n        pass\n\n\nValue.tanh = _tanh\n",
                           "Your engine did not finish "),
    "calls sys.exit in relu only": ("\n\ndef _relu(self):\n    import sys\n    sys.exit(3)\n\n\nValue.relu = _relu\n",
                                    "Your engine tried to end the process in "),
}


@pytest.mark.parametrize("how", PARTLY)
def test_an_engine_hostile_in_some_cases_gets_fix_this_first_and_no_break(how, tmp_path, capsys):
    added, says = PARTLY[how]
    (tmp_path / "engine.py").write_text(HEALTHY + added)
    code, out, err = run(capsys, "--scalar", f"{tmp_path}/engine.py:Value", "--json", "--time-limit", "0.5")
    report = json.loads(out)
    assert code == 1 and report["fix_first"]["message"].startswith(says), report["fix_first"]
    assert report["diagnoses"] == [] and report["suspects"] == []
    assert any(c["status"] == "passed" for check in report["checks"] for c in check["cases"])  # the rest ran
