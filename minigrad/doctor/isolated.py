"""The doctor's checks in a process of their own, so the learner's code cannot take the report down.

`python -m minigrad.doctor` (the parent) starts this module in a child
process: it loads the engine, runs every check, and writes what happens as
JSON lines into a file the parent named: "case" before each case (so the
parent can say where an engine that called os._exit or crashed ended), a
"verdict" after each check, "done" at the end. The learner's prints are the
child's stdout and stderr, which the parent shows on its stderr. The report is
the parent's, built from what arrived, whatever became of the child.
"""

import json
import os
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

from .. import checks
from .evidence import as_data, examine, from_data
from .loading import ImportFailure, TargetError, load_engine

ROOT = str(Path(__file__).resolve().parents[2])  # the folder holding this minigrad package
OUTPUT_LIMIT = 20_000  # characters of the learner's prints shown on stderr


def child(events_path, request):
    with open(events_path, "a", encoding="utf-8") as events:

        def emit(**event):
            events.write(json.dumps(event) + "\n")
            events.flush()

        try:
            parts, where = load_engine(request["folder"], **request["targets"])
        except TargetError as e:
            return emit(event="bad-target", message=str(e))
        except ImportFailure as e:
            return emit(event="import-failure", message=str(e), traceback=e.traceback)
        tracebacks = where.pop("not loaded traceback", "")
        if tracebacks:
            sys.stderr.write(tracebacks)  # the learner's own frames, on the command line's stderr
        emit(event="loaded", where=where)
        engine = checks.Engine(**parts, **request.get("names", {}))
        examine(engine, request["time_limit"], on_case=lambda check, case: emit(event="case", check=check, case=case),
                on_verdict=lambda check, verdict: emit(event="verdict", check=check, verdict=as_data(verdict)))
        emit(event="done")


def run(folder, targets, time_limit, names=None):
    """The events of a child process's run, and how it ended ({"code", "signal", "check", "case"} or None)."""
    with tempfile.TemporaryDirectory(prefix="minigrad-doctor-") as tmp:
        events_path = os.path.join(tmp, "events.jsonl")
        request = json.dumps({"folder": folder, "targets": targets, "time_limit": time_limit, "names": names or {}})
        code = f"import sys; sys.path[0] = {ROOT!r}; sys.path.append(''); from minigrad.doctor.isolated import child; child(sys.argv[1], __import__('json').loads(sys.argv[2]))"
        try:
            result = subprocess.run([sys.executable, "-c", code, events_path, request], capture_output=True, text=True,
                                    timeout=deadline(time_limit), stdin=subprocess.DEVNULL, errors="replace",
                                    env={**os.environ, "PYTHONHASHSEED": "0"}, preexec_fn=_same_addresses)
            returncode, printed = result.returncode, result.stdout + result.stderr
        except subprocess.TimeoutExpired as e:
            returncode, printed = -signal.SIGKILL, (e.stdout or "") + (e.stderr or "")
            printed = printed.decode(errors="replace") if isinstance(printed, bytes) else printed
        events = _read(events_path)
    if printed:
        sys.stderr.write(printed[:OUTPUT_LIMIT] + ("\n[...]\n" if len(printed) > OUTPUT_LIMIT else ""))
    return events, _ending(events, returncode)


def _same_addresses():
    """In the child, before it starts: no address randomisation (Linux's ADDR_NO_RANDOMIZE personality).
    A learner's Value hashes by its address, so children kept in a `set` come out in an order that
    follows the addresses; with the same addresses in every run (and PYTHONHASHSEED for strings) the
    same engine gives the same report, byte for byte. Elsewhere, or where it is refused, nothing changes."""
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).personality(ADDR_NO_RANDOMIZE)
    except (OSError, AttributeError):
        pass


ADDR_NO_RANDOMIZE = 0x0040000


def deadline(time_limit):
    """The parent's own bound on the child: for code that no timer interrupts (a long call into C)."""
    return None if time_limit is None else 60 + 2 * time_limit * (len(checks.DIAGNOSTICS) + 1)


def _read(path):
    events = []
    if os.path.exists(path):
        with open(path, encoding="utf-8") as lines:
            for line in lines:
                try:
                    events.append(json.loads(line))
                except ValueError:
                    break  # the line the child was writing when it ended
    return events


def _ending(events, returncode):
    if any(e["event"] in ("done", "bad-target", "import-failure") for e in events):
        return None
    last = next((e for e in reversed(events) if e["event"] == "case"), {})
    ended = {"code": returncode, "signal": None, "check": last.get("check"), "case": last.get("case")}
    if returncode < 0:
        ended["signal"] = signal.Signals(-returncode).name if -returncode in signal.valid_signals() else str(-returncode)
    return ended


def verdicts_of(events):
    return {e["check"]: from_data(e["verdict"]) for e in events if e["event"] == "verdict"}
