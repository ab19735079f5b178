"""The edit loop a teacher lives in: how long `uv run mkdocs serve` takes to start, and to serve a prose edit.

    uv run python benchmarks/bench_edit_loop.py [--page docs/breaks/mean-forgets-n.md] [--repeats 3] [--out FILE]
                                                [--serve COMMAND --root CHECKOUT]  (another server, for comparison)

Starts the README's command, `uv run mkdocs serve` (a full rebuild on each save: no `--dirty`),
on a free local port and times (a) from the start to its `Serving on` line and to the first
page answered over HTTP, then (b), REPEATS times, from appending one prose sentence to a
break page to the moment the served page contains it. The page is restored after each
repetition (and always on the way out, on a failure too), and the next repetition waits until
the served page has lost the sentence again. Writes benchmarks/edit_loop.json with each
figure's runs and median, the date, the machine's cores and load, and the command. Goal
(issue 41): a first start in at most GOAL_START_S, a prose edit served again in at most
GOAL_EDIT_S. Not a test: a missed goal is reported, never raised. The server is a whole
process, so the script times it from outside; where the seconds of one rebuild go:
benchmarks/EDIT_LOOP.md (cProfile of `mkdocs build`).
"""

import argparse
import datetime
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
import urllib.request
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "benchmarks" / "edit_loop.json"
GOAL_START_S, GOAL_EDIT_S = 15.0, 3.0
POLL_S, LIMIT_S = 0.1, 300.0
SERVE = "uv run mkdocs serve"  # the README's command; no --dirty: every save rebuilds the whole site
LOGGED = ("Build", "Documentation built", "Serving on", "Detected file changes", "Reloading", "WARNING", "ERROR")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def fetch(url):
    """The page's text, or None while the server does not answer it."""
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.read().decode("utf-8", "replace")
    except OSError:
        return None


def wait_for(test, what):
    """Seconds until test() is true, polling every POLL_S; RuntimeError after LIMIT_S."""
    start = time.perf_counter()
    while not test():
        if time.perf_counter() - start > LIMIT_S:
            raise RuntimeError(f"no {what} after {LIMIT_S:.0f} s")
        time.sleep(POLL_S)
    return time.perf_counter() - start


class Server:
    """The serve process, its output lines kept with their time since start (for the log and `Serving on`)."""

    def __init__(self, command, root):
        self.lines, self.start = [], time.perf_counter()
        self.process = subprocess.Popen(command, cwd=root, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                        text=True, start_new_session=True)
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.process.stdout:
            self.lines.append((time.perf_counter() - self.start, line.rstrip()))

    def alive(self):
        if self.process.poll() is not None:
            raise RuntimeError(f"the server exited ({self.process.returncode}):\n" + "\n".join(l for _, l in self.lines[-30:]))
        return True

    def seen(self, text):
        self.alive()
        return next((t for t, line in self.lines if text in line), None)

    def stop(self):
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGINT)  # its own session: uv and mkdocs, no one else
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()


def measure(page, repeats, serve=SERVE, root=ROOT):
    source = root / page
    original = source.read_bytes()
    url_path = page.removeprefix("docs/").removesuffix(".md") + "/"
    port = free_port()
    command = serve.split() + ["-a", f"127.0.0.1:{port}"]
    url = f"http://127.0.0.1:{port}/{url_path}"
    server = Server(command, root)
    edits, restores = [], []
    try:
        wait_for(lambda: server.alive() and fetch(url) is not None, "answer")
        first_page = time.perf_counter() - server.start
        time.sleep(0.5)  # MkDocs logs `Serving on` as it starts listening: its line is read by now
        serving = server.seen("Serving on")  # None from a server that does not say it (Zensical)
        for _ in range(repeats):
            token = f"edit-loop-{uuid.uuid4().hex[:12]}"
            source.write_bytes(original + f"\nA sentence for the edit-loop benchmark: {token}.\n".encode())
            edits.append(wait_for(lambda: token in (fetch(url) or ""), "edit served"))
            source.write_bytes(original)
            restores.append(wait_for(lambda: token not in (fetch(url) or token), "restore served"))
    finally:
        if source.read_bytes() != original:  # a failure mid-edit: put the page back (an equal write would rebuild once more)
            source.write_bytes(original)
        server.stop()
    return {"command": f"{serve}  (on a free port: -a 127.0.0.1:PORT)", "page": page, "url_path": url_path,
            "start_to_serving_on_s": serving and round(serving, 2), "start_to_first_page_s": round(first_page, 2),
            "edit_served_s": [round(x, 2) for x in edits], "edit_served_median_s": round(statistics.median(edits), 2),
            "restore_served_s": [round(x, 2) for x in restores],
            "log": [f"{t:7.2f} {line.split(' -  ')[-1]}" for t, line in server.lines if any(w in line for w in LOGGED)]}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--page", default="docs/breaks/mean-forgets-n.md")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--serve", default=SERVE, help="another server to compare (e.g. a Zensical trial's `zensical serve`)")
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout it runs in and whose page it edits")
    args = parser.parse_args()
    load_before = os.getloadavg()
    figures = measure(args.page, args.repeats, args.serve, args.root.resolve())
    # the checkout measured (--root), and whether its tracked files differ from that commit (the
    # benchmarks' own figures left out: a run before this one may have written them)
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=args.root, capture_output=True, text=True).stdout.strip()
    if subprocess.run(["git", "diff", "--quiet", "HEAD", "--", ".", ":(exclude)benchmarks/*.json"], cwd=args.root).returncode:
        commit += " (with uncommitted changes)"
    report = {"when": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"), "commit": commit,
              "cores": os.cpu_count(), "load_average_before": [round(x, 2) for x in load_before],
              "load_average_after": [round(x, 2) for x in os.getloadavg()], "python": sys.version.split()[0],
              "goals_s": {"first_start": GOAL_START_S, "edit_served": GOAL_EDIT_S},
              "met": {"first_start": figures["start_to_first_page_s"] <= GOAL_START_S,
                      "edit_served": figures["edit_served_median_s"] <= GOAL_EDIT_S}, **figures}
    args.out.write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"start: `Serving on` {figures['start_to_serving_on_s']} s, first page {figures['start_to_first_page_s']} s "
          f"(goal {GOAL_START_S} s); edit served: {figures['edit_served_s']} s, median {figures['edit_served_median_s']} s "
          f"(goal {GOAL_EDIT_S} s) -> {args.out.relative_to(ROOT) if args.out.is_relative_to(ROOT) else args.out}")


if __name__ == "__main__":
    main()
