"""Where a command's CPU goes, by kind of process: Chromium's renderers, its browser and GPU
processes, the Node that runs Pyodide for the doc blocks, Playwright's driver, the mkdocs
builds, the pytest workers, their controller, and the rest.

The suite runs on two cores that it keeps busy (about 95 %), so its time is its CPU-seconds
over the cores: a part of the suite can only be made faster by taking CPU away from it, and
this says which part holds the CPU. bench_suite.py samples the whole run with it.

Linux only (/proc). Every process alive during the run is sampled every SAMPLE_S seconds; what
one spent after its last sample, or a child too short-lived to be sampled, is read from its
parent's reaped children's CPU (Sampler says how). "Unattributed" is the machine's busy CPU
that no sampled process accounts for.
"""

import os
import threading
import time
from pathlib import Path

SAMPLE_S = 0.5
PROC = Path("/proc")
TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100

KINDS = {  # kind -> what the report calls it
    "chromium-renderer": "Chromium: renderers (the pages, and Python in their workers)",
    "chromium-browser": "Chromium: browser process",
    "chromium-gpu": "Chromium: GPU process (compositing)",
    "chromium-other": "Chromium: utility and zygote processes",
    "node-pyodide-blocks": "Node: Pyodide running the doc blocks (tests/pyodide/run_blocks.mjs)",
    "node-playwright": "Node: Playwright's driver",
    "node-other": "Node: other scripts (tests/node, pictures, npm)",
    "mkdocs": "mkdocs builds",
    "pytest-controller": "pytest: the controller (xdist's, collection and reports)",
    "pytest-workers": "pytest: the workers (the tests' own Python)",
    "python-other": "Python: subprocesses the tests start (CLIs, nested sessions, imports)",
    "other": "other processes (git, uv, shells, the machine)",
}


def classify(argv, parent_kind=None, is_root=False):
    """The kind of a process, from its command line (argv, a list of strings) and its parent's
    kind: a Python whose parent is the pytest controller is a worker (xdist starts them with
    `python -u -c`); the root is the command bench_suite.py started."""
    if len(argv) == 1 and " " in argv[0]:
        argv = argv[0].split()  # Chromium's children retitle themselves: their whole command line in one string
    if not argv:
        return "other"
    exe = os.path.basename(argv[0])
    line = " ".join(argv)
    if "chrom" in exe or exe == "headless_shell":  # chromium, chrome, chrome-headless-shell
        for flag, kind in (("--type=renderer", "chromium-renderer"), ("--type=gpu-process", "chromium-gpu")):
            if flag in argv:
                return kind
        return "chromium-other" if any(a.startswith("--type=") for a in argv) else "chromium-browser"
    if exe == "node" or exe.startswith("node"):
        if any(a.endswith("run_blocks.mjs") for a in argv):
            return "node-pyodide-blocks"
        return "node-playwright" if "playwright" in line else "node-other"
    if exe.startswith("python") or exe in ("pytest", "mkdocs"):
        if is_root:
            return "pytest-controller"
        if parent_kind == "pytest-controller" and "-c" in argv:
            return "pytest-workers"
        return "mkdocs" if "mkdocs" in line else "python-other"
    if exe in ("npm", "npx") or (exe == "sh" and "npm" in line):
        return "node-other"
    return "other"


def _read(path, mode="r"):
    with open(path, mode) as f:
        return f.read()


def _stat(pid):
    """(parent pid, its own CPU-seconds so far, its reaped children's) of a live process, or None."""
    try:
        fields = _read(PROC / str(pid) / "stat").rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return int(fields[1]), (int(fields[11]) + int(fields[12])) / TICKS, (int(fields[13]) + int(fields[14])) / TICKS


def _argv(pid):
    try:
        return [a.decode(errors="replace") for a in _read(PROC / str(pid) / "cmdline", "rb").split(b"\0") if a]
    except OSError:
        return []


def _busy():
    """The machine's busy CPU-seconds so far (every core; idle and iowait left out)."""
    values = [int(v) for v in _read(PROC / "stat").splitlines()[0].split()[1:]]
    return (sum(values) - values[3] - values[4]) / TICKS


CHILD_OF = {"pytest-workers": "python-other", "pytest-controller": "python-other", "python-other": "python-other",
            "mkdocs": "node-other", "node-playwright": "chromium-other", "node-other": "node-other",
            "chromium-browser": "chromium-other", "chromium-other": "chromium-renderer"}  # a child never seen, by its parent's kind


class Sampler:
    """Samples the processes of a run while the block runs: `with Sampler() as s: ...` with
    `s.root_pid = process.pid` set once the run's process exists, then s.report(cores).
    The run is that process and every process under it; the rest of the machine is "outside".

    A process's kind is read again at every sample and its CPU since the last sample goes to the
    kind it has now: a forked child has its parent's command line until it execs (a worker's
    `node`), and Chromium's zygote forks renderers that retitle themselves.

    What a process of the run spent after its last sample, or a child that lived less than a
    sample, shows in its parent's reaped children's CPU once the parent waits for it: that tail
    goes to the child's kind (for a child never seen, to CHILD_OF its parent's). A process that
    ends with children that ended before it was sampled again hands their counted CPU up, so a
    tree that ends at once (a browser and its renderers) is not counted twice. Children of one
    parent reaped within one sample share one tail, which goes to the one that had spent the
    most. The machine's other processes are counted by their samples alone, and what a run's
    orphan spent last, reaped by init, is left unattributed."""

    def __init__(self, root_pid=None, every=SAMPLE_S):
        self.root_pid, self.every = root_pid, every
        self.by_kind = dict.fromkeys(KINDS, 0.0)
        self.outside = 0.0  # CPU-seconds of the machine's other processes
        self._procs = {}  # pid -> its last sample: kind, parent, cpu, reaped, in_run
        self._gone = {}  # parent pid -> [(kind, CPU counted for an ended child and its ended descendants, in_run)]
        self._stop = threading.Event()

    def __enter__(self):
        self._me = os.getpid()
        self._before = {int(p.name) for p in PROC.iterdir() if p.name.isdigit()}
        self._started, self._busy0, self._own0 = time.monotonic(), _busy(), time.process_time()
        self._thread = threading.Thread(target=self._loop, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()
        self._sample()
        self.wall, self.busy = time.monotonic() - self._started, _busy() - self._busy0
        self.own = time.process_time() - self._own0  # the sampling's cost (this process does nothing else meanwhile)

    def _loop(self):
        while not self._stop.wait(self.every):
            self._sample()

    def _in_run(self, pid, parents, memo):
        """Under the root (by the parents now, or once seen under it: an orphan stays in the run)."""
        if pid not in memo:
            known = self._procs.get(pid)
            memo[pid] = False  # a cycle through a reused pid ends here
            memo[pid] = pid == self.root_pid or bool(known and known["in_run"]) or (
                parents.get(pid) in parents and self._in_run(parents[pid], parents, memo))
        return memo[pid]

    def _depth(self, pid):
        depth, seen = 0, set()
        while pid in self._procs and pid not in seen:
            seen.add(pid)
            pid, depth = self._procs[pid]["parent"], depth + 1
        return depth

    def _sample(self):
        read = {}
        for pid in (int(e.name) for e in PROC.iterdir() if e.name.isdigit()):
            stat, argv = _stat(pid), _argv(pid)
            if stat is not None and argv:  # else gone, or a zombie: its tail is read from its parent once reaped
                read[pid] = (stat, argv)
        parents, memo, now = {pid: stat[0] for pid, (stat, _) in read.items()}, {}, {}
        for pid in sorted(read, key=lambda p: p != self.root_pid):
            (parent, cpu, reaped), argv = read[pid]
            known = self._procs.get(pid)
            if known is None or cpu < known["cpu"]:  # new, or the pid was reused
                known = {"cpu": cpu, "reaped": reaped} if pid in self._before else {"cpu": 0.0, "reaped": 0.0}
            parent_kind = (now.get(parent) or self._procs.get(parent) or {}).get("kind")
            now[pid] = {"kind": classify(argv, parent_kind, is_root=(pid == self.root_pid)), "parent": parent, "cpu": cpu,
                        "reaped": reaped, "was": known, "in_run": self._in_run(pid, parents, memo)}
            if pid == self._me:
                continue  # the sampler's own CPU is not the run's (its reaped child, the run's root, is)
            if now[pid]["in_run"]:
                self.by_kind[now[pid]["kind"]] += cpu - known["cpu"]
            else:
                self.outside += cpu - known["cpu"]
        ended = sorted((pid for pid in self._procs if pid not in now), key=self._depth, reverse=True)  # children first
        for pid in ended:
            proc = self._procs[pid]
            handed_up = sum(counted for _, counted, _ in self._gone.pop(pid, []))
            self._gone.setdefault(proc["parent"], []).append((proc["kind"], proc["cpu"] + proc["reaped"] + handed_up, proc["in_run"]))
        for pid, proc in now.items():
            grown = proc["reaped"] - proc["was"]["reaped"]
            if grown <= 0:
                continue  # an ended child not reaped yet (a zombie) waits in _gone for its parent's wait
            children = self._gone.pop(pid, [])
            if not (proc["in_run"] or pid == self._me):
                continue
            tail = grown - sum(counted for _, counted, _ in children)
            biggest = max(children, key=lambda child: child[1]) if children else None
            if tail > 0 and (biggest[2] if biggest else proc["in_run"]):
                self.by_kind[biggest[0] if biggest else CHILD_OF.get(proc["kind"], "other")] += tail
        self._procs = {pid: {k: v for k, v in proc.items() if k != "was"} for pid, proc in now.items()}

    def report(self, cores):
        """The run's CPU by kind; its floor is the CPU-seconds seen in the run's processes over the
        cores (what the samples missed, the run's or the machine's, is left out: a floor, not an
        estimate), and never more than the machine's busy CPU less the rest's (a tail counted twice)."""
        run = sum(self.by_kind.values())
        unattributed = max(0.0, self.busy - run - self.outside - self.own)  # the run's missed tails, and the machine's
        return {
            "wall_seconds": round(self.wall, 1),
            "cores": cores,
            "busy_cpu_seconds": round(self.busy, 1),
            "busy_share": round(self.busy / (self.wall * cores), 3) if self.wall else None,
            "run_cpu_seconds": round(run, 1),
            "floor_seconds": round(min(run, self.busy - self.outside - self.own) / cores, 1),
            "sampler_cpu_seconds": round(self.own, 1),
            "by_kind": {kind: round(seconds, 1) for kind, seconds in sorted(self.by_kind.items(), key=lambda kv: -kv[1])},
            "outside_cpu_seconds": round(self.outside, 1),
            "unattributed_cpu_seconds": round(unattributed, 1),
        }
