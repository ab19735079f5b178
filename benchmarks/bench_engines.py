"""minigrad's two engines against their references, timed side by side in one run.

Run from anywhere, with a Python that has torch (CPU) and micrograd (PyPI):

    pip install micrograd && python3 benchmarks/bench_engines.py

(torch and micrograd are never project dependencies: run this with the system
python3, not the project's .venv. minigrad is imported from this checkout, whose
root the script puts first on sys.path; nothing is installed.)

It writes benchmarks/RESULTS.md (overwritten: machine, versions, date, tables)
and prints the same Markdown. `--quick` (a smoke run of a few seconds) and
`--only scalar|tensor` print without writing RESULTS.md unless `--out PATH` is
given. A full run takes one to two minutes on 2 cores.

What is measured:

1. Scalar engine, minigrad.scalar.Value vs micrograd.engine.Value. One training
   step of micrograd's own demo: micrograd.nn.MLP(2, [16, 16, 1]) on a batch of
   two-moons points, SVM max-margin loss + L2, zero_grad, backward, SGD update.
   minigrad runs the same step on a Value-based MLP written below (minigrad.nn
   is tensor-based) holding copies of micrograd's weights; losses and gradients
   are checked equal before timing. Second harness: MLP(2, [16, 16, 1]) built
   from new Values every step, forward + backward of each of 40 points (the
   same micrograd.nn code run on both Value classes; outputs checked equal).
   Then the deepest chain y = x.relu().relu()...
   each engine can backpropagate: micrograd's recursive topological sort raises
   RecursionError (depth found by doubling, then bisection, at the default
   recursion limit), minigrad's explicit stack must take 100x that.
2. Tensor engine, minigrad.tensor.Tensor vs torch float64 on CPU. One training
   step (zero_grad, MLP forward with ReLU, cross-entropy, backward, SGD step)
   from identical weights and data; losses are checked equal before timing.
   Each case runs at the default thread counts and at one thread each
   (torch.set_num_threads, and NumPy's OpenBLAS through ctypes), and reports
   the page faults per step as well, which on this VM cost microseconds each.

Timing: every case is warmed up, then timed `repeat` times, each time a loop of
`number` calls; the engines alternate within each repeat (and swap who goes
first every repeat), so drift hits both alike. The garbage collector stays on
(objects from before, torch's among them, frozen out of its sweeps): minigrad
and micrograd graphs are reference cycles that only the collector frees, and a
training loop pays for that. The scalar step is also timed with it off, like
timeit. The ratio is minigrad / reference, so < 1 means minigrad is faster: the
verdict uses the ratio of the minima (noise only ever adds time), and the tables
also give the median of the per-repeat ratios as a check on it.

The machine should be quiet: the summary says what share of its CPU other
processes took during the run (from /proc/stat), and flags a busy run.
"""

import argparse
import datetime
import gc
import math
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

try:
    import resource
except ImportError:  # not on Windows
    resource = None

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

import numpy as np  # noqa: E402

from minigrad import functional as mF  # noqa: E402
from minigrad import nn as mnn  # noqa: E402
from minigrad import optim as moptim  # noqa: E402
from minigrad.scalar import Value as MValue  # noqa: E402
from minigrad.tensor import Tensor  # noqa: E402

try:
    import micrograd
    import micrograd.nn as micro_nn
    from micrograd.engine import Value as MicroValue
except ImportError:
    sys.exit("micrograd is missing: pip install micrograd (into the python3 that runs this script)")
try:
    import torch
except ImportError:
    sys.exit("torch is missing: run this with a python3 that has torch (CPU), not the project .venv")

SCALAR_GOAL = 0.8  # minigrad step time <= 0.8x micrograd's
FRESH_POINTS = 40  # points per step in the fresh-network harness
DEPTH_GOAL = 100  # minigrad backpropagates a chain >= 100x deeper than micrograd can
TENSOR_GOAL = 1.5  # minigrad step time <= 1.5x torch's


# ---- timing ---------------------------------------------------------------------


def bench(fns, number, repeat, warmup, collector=True, settle=0.0):
    """Time each callable in `fns` (name -> fn), interleaved.

    Returns {name: [seconds per call, one per repeat]} and {name: minor page
    faults per call (median)}. collector=True leaves the garbage collector on,
    as in a plain training loop; the objects that exist beforehand (torch's
    among them) are frozen out of its sweeps with gc.freeze, so importing torch
    does not tax the Python engines. collector=False switches it off inside a
    timed loop, like timeit. settle: seconds to sleep before each timed loop, so
    that the worker threads the other engine left spinning have gone to sleep.
    """
    names = list(fns)
    for _ in range(warmup):
        for name in names:
            fns[name]()
    gc.collect()
    gc.freeze()
    times = {name: [] for name in names}
    faults = {name: [] for name in names}
    try:
        for r in range(repeat):
            for name in names if r % 2 == 0 else reversed(names):
                fn = fns[name]
                gc.collect()
                time.sleep(settle)
                if not collector:
                    gc.disable()
                try:
                    f0 = _minor_faults()
                    t0 = time.perf_counter()
                    for _ in range(number):
                        fn()
                    dt = time.perf_counter() - t0
                    f1 = _minor_faults()
                finally:
                    gc.enable()
                times[name].append(dt / number)
                faults[name].append((f1 - f0) / number)
    finally:
        gc.unfreeze()
        gc.collect()
    return times, {name: statistics.median(v) for name, v in faults.items()}


def _minor_faults():
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt if resource else 0


def compare(times, ours, ref):
    """The ratio of the minima ours/ref (the verdict), and the median of the per-repeat ratios."""
    paired = [a / b for a, b in zip(times[ours], times[ref])]
    return min(times[ours]) / min(times[ref]), statistics.median(paired)


def fmt_time(seconds):
    if seconds >= 1:
        return f"{seconds:.2f} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds * 1e6:.0f} µs"


def fmt_ratio(ratio, goal):
    """Two decimals, or more where two would round onto the goal and hide which side it is on."""
    for digits in (2, 3, 4):
        if f"{ratio:.{digits}f}" != f"{goal:.{digits}f}":
            break
    return f"{ratio:.{digits}f}x"


def verdict(ratio, goal):
    return f"**met** (≤ {goal}x)" if ratio <= goal else f"**missed** (goal ≤ {goal}x)"


# ---- 1. scalar engines ----------------------------------------------------------


def two_moons(n, seed=0):
    """n points of two interleaved half circles with a little noise; labels +-1."""
    rng = np.random.default_rng(seed)
    k = n // 2
    t = rng.uniform(0, math.pi, n)
    x = np.where(np.arange(n)[:, None] < k,
                 np.stack([np.cos(t), np.sin(t)], 1),
                 np.stack([1 - np.cos(t), 0.5 - np.sin(t)], 1))
    x += rng.normal(0, 0.1, x.shape)
    y = np.where(np.arange(n) < k, 1, -1)
    return x.tolist(), y.tolist()


class ScalarMLP:
    """micrograd.nn.MLP's forward, on any Value class, with weights copied from one."""

    def __init__(self, value_cls, micro_mlp):
        self.layers = [
            [([value_cls(w.data) for w in n.w], value_cls(n.b.data), n.nonlin) for n in layer.neurons]
            for layer in micro_mlp.layers
        ]

    def __call__(self, x):
        for layer in self.layers:
            out = []
            for w, b, nonlin in layer:
                act = sum((wi * xi for wi, xi in zip(w, x)), b)  # micrograd's Neuron.__call__
                out.append(act.relu() if nonlin else act)
            x = out[0] if len(out) == 1 else out
        return x

    def parameters(self):
        return [p for layer in self.layers for w, b, _ in layer for p in [*w, b]]


def scalar_step(model, params, xs, ys, lr=0.05, alpha=1e-4):
    """One step of micrograd's demo.ipynb: max-margin loss + L2, backward, SGD."""
    for p in params:
        p.grad = 0.0
    scores = [model(x) for x in xs]
    losses = [(1 + -yi * si).relu() for yi, si in zip(ys, scores)]
    data_loss = sum(losses) * (1.0 / len(losses))
    reg_loss = alpha * sum(p * p for p in params)
    loss = data_loss + reg_loss
    loss.backward()
    for p in params:
        p.data -= lr * p.grad
    return loss.data


class FreshMLP:
    """micrograd.nn's Neuron / Layer / MLP, line for line, on any Value class.

    Both engines run this same code, so only `Value` differs; the weights are
    new Values each time it is built (random.uniform(-1, 1), bias 0, as micrograd does).
    """

    def __init__(self, value_cls, nin, nouts):
        sizes = [nin] + nouts
        self.layers = [
            [([value_cls(random.uniform(-1, 1)) for _ in range(sizes[i])], value_cls(0), i != len(nouts) - 1)
             for _ in range(sizes[i + 1])]
            for i in range(len(nouts))
        ]

    def __call__(self, x):
        for layer in self.layers:
            out = []
            for w, b, nonlin in layer:
                act = sum((wi * xi for wi, xi in zip(w, x)), b)
                out.append(act.relu() if nonlin else act)
            x = out[0] if len(out) == 1 else out
        return x


def fresh_step(value_cls, points, seed=1):
    """Build MLP(2, [16, 16, 1]) from new Values, then forward + backward each point; the outputs summed."""
    random.seed(seed)
    model = FreshMLP(value_cls, 2, [16, 16, 1])
    total = 0.0
    for x in points:
        y = model(x)
        y.backward()
        total += y.data
    return total


def deep_chain(value_cls, depth):
    x = value_cls(1.0)
    y = x
    for _ in range(depth):
        y = y.relu()
    return x, y


def micrograd_can_backprop(depth):
    x, y = deep_chain(MicroValue, depth)
    try:
        y.backward()
    except RecursionError:
        return False
    return x.grad == 1


def micrograd_max_depth():
    """The longest relu chain micrograd's backward takes, at the default recursion limit."""
    ok, depth = 0, 64
    while micrograd_can_backprop(depth):
        ok, depth = depth, depth * 2
    bad = depth
    while bad - ok > 1:
        mid = (ok + bad) // 2
        if micrograd_can_backprop(mid):
            ok = mid
        else:
            bad = mid
    return ok


def run_scalar(args, lines):
    batch = args.scalar_batch
    xs, ys = two_moons(batch)
    random.seed(1337)
    micro = micro_nn.MLP(2, [16, 16, 1])
    mini = ScalarMLP(MValue, micro)
    micro_params, mini_params = micro.parameters(), mini.parameters()

    # Same numbers first: one step each from the same weights, then compare.
    l_micro = scalar_step(micro, micro_params, xs, ys)
    l_mini = scalar_step(mini, mini_params, xs, ys)
    assert abs(l_micro - l_mini) <= 1e-12 * max(1.0, abs(l_micro)), (l_micro, l_mini)
    for a, b in zip(micro_params, mini_params):
        assert abs(a.grad - b.grad) <= 1e-12 and abs(a.data - b.data) <= 1e-12, (a, b)

    n_nodes = _count_nodes(mini, mini_params, xs, ys)
    steps = {
        "minigrad": lambda: scalar_step(mini, mini_params, xs, ys),
        "micrograd": lambda: scalar_step(micro, micro_params, xs, ys),
    }
    rows, ratios = [], {}
    for collector, mode in [(True, "on (as in a training loop)"), (False, "off (timeit style)")]:
        times, _ = bench(steps, number=args.scalar_number, repeat=args.repeat, warmup=2, collector=collector)
        ratio, med = compare(times, "minigrad", "micrograd")
        ratios[collector] = ratio
        print(f"scalar step, GC {mode}: minigrad {fmt_time(min(times['minigrad']))}, "
              f"micrograd {fmt_time(min(times['micrograd']))}, ratio {ratio:.2f}", file=sys.stderr)
        rows.append(
            f"| {mode} | {fmt_time(min(times['micrograd']))} / {fmt_time(statistics.median(times['micrograd']))} "
            f"| {fmt_time(min(times['minigrad']))} / {fmt_time(statistics.median(times['minigrad']))} "
            f"| **{fmt_ratio(ratio, SCALAR_GOAL)}** | {med:.2f}x | {verdict(ratio, SCALAR_GOAL)} |"
        )

    # Second harness: a freshly built network each step, one backward per point.
    points = [list(p) for p in two_moons(FRESH_POINTS, seed=2)[0]]
    assert abs(fresh_step(MValue, points) - fresh_step(MicroValue, points)) <= 1e-9 * FRESH_POINTS
    fresh = {"minigrad": lambda: fresh_step(MValue, points), "micrograd": lambda: fresh_step(MicroValue, points)}
    times, _ = bench(fresh, number=1, repeat=args.repeat, warmup=2, collector=True)
    fresh_ratio, med = compare(times, "minigrad", "micrograd")
    print(f"scalar fresh MLP, GC on: minigrad {fmt_time(min(times['minigrad']))}, "
          f"micrograd {fmt_time(min(times['micrograd']))}, ratio {fresh_ratio:.2f} (median {med:.2f})", file=sys.stderr)
    fresh_row = (
        f"| on | {fmt_time(min(times['micrograd']))} / {fmt_time(statistics.median(times['micrograd']))} "
        f"| {fmt_time(min(times['minigrad']))} / {fmt_time(statistics.median(times['minigrad']))} "
        f"| **{fmt_ratio(fresh_ratio, SCALAR_GOAL)}** | {med:.2f}x | {verdict(fresh_ratio, SCALAR_GOAL)} |"
    )

    lines += [
        "## 1. Scalar engine: `minigrad.scalar.Value` vs micrograd",
        "",
        f"One training step of micrograd's demo: `MLP(2, [16, 16, 1])` ({len(micro_params)} parameters), "
        f"a batch of {batch} two-moons points, max-margin loss + 1e-4 L2, zero_grad, backward, SGD update "
        f"({n_nodes:,} graph nodes per step). minigrad runs the same expressions on a Value-based copy of "
        f"micrograd's network (same weights; loss and gradients checked equal to 1e-12 before timing). "
        f"Both engines leave reference cycles (each node's `_backward` closure holds the node), so "
        f"the cyclic garbage collector's share is timed too in the first row.",
        "",
        f"| garbage collector | micrograd {micrograd_version()} min / median | minigrad min / median "
        f"| minigrad / micrograd (minima) | median per-repeat ratio | goal ≤ {SCALAR_GOAL}x |",
        "| --- | ---: | ---: | ---: | ---: | --- |",
        *rows,
        "",
        "### A fresh network every step",
        "",
        f"`MLP(2, [16, 16, 1])` built from new Values (micrograd.nn's code, run by both engines), then "
        f"forward + `backward()` of each of {FRESH_POINTS} two-moons points in turn, the outputs summed; "
        "garbage collector on. Allocation dominates here: every weight and node is new, and the graphs are "
        "reference cycles the collector must free.",
        "",
        f"| garbage collector | micrograd {micrograd_version()} min / median | minigrad min / median "
        f"| minigrad / micrograd (minima) | median per-repeat ratio | goal ≤ {SCALAR_GOAL}x |",
        "| --- | ---: | ---: | ---: | ---: | --- |",
        fresh_row,
        "",
    ]

    # Deepest chain.
    micro_depth = micrograd_max_depth()
    print(f"micrograd max depth: {micro_depth}", file=sys.stderr)
    rows = [f"| micrograd | {micro_depth:,} | — | — | ok |",
            f"| micrograd | {micro_depth + 1:,} | — | — | RecursionError |"]
    deepest = 0
    for depth in args.depths:
        gc.collect()
        t0 = time.perf_counter()
        x, y = deep_chain(MValue, depth)
        t1 = time.perf_counter()
        try:
            y.backward()
            status = "ok" if x.grad == 1.0 else f"wrong gradient {x.grad}"
        except RecursionError:
            status = "RecursionError"
        t2 = time.perf_counter()
        del x, y
        gc.collect()
        if status == "ok":
            deepest = max(deepest, depth)
        rows.append(f"| minigrad | {depth:,} | {fmt_time(t1 - t0)} | {fmt_time(t2 - t1)} | {status} |")
        print(f"minigrad depth {depth}: {status}, build {t1 - t0:.2f}s, backward {t2 - t1:.2f}s", file=sys.stderr)
    factor = deepest / micro_depth
    lines += [
        "### Deepest chain",
        "",
        "`y = x.relu().relu()...` (`x = 1`, so dy/dx = 1), then `y.backward()`. "
        f"micrograd's recursive `build_topo` at Python's default recursion limit "
        f"({sys.getrecursionlimit()}), found by doubling then bisection; minigrad's explicit stack "
        "on the depths below (gradient checked = 1).",
        "",
        "| engine | relu ops in the chain | build | backward | result |",
        "| --- | ---: | ---: | ---: | --- |",
        *rows,
        "",
        f"minigrad's deepest / micrograd's deepest: **{factor:,.0f}x**. "
        f"Goal ≥ {DEPTH_GOAL}x: " + (f"**met** (≥ {DEPTH_GOAL}x)" if factor >= DEPTH_GOAL else
                                     f"**missed** (goal ≥ {DEPTH_GOAL}x)") + ".",
        "",
    ]
    return {"scalar step, GC on": (ratios[True], SCALAR_GOAL), "scalar step, GC off": (ratios[False], SCALAR_GOAL),
            "scalar fresh MLP, GC on": (fresh_ratio, SCALAR_GOAL),
            "chain depth": (factor, DEPTH_GOAL)}


def _count_nodes(model, params, xs, ys):
    from minigrad.graph import topological_order

    scores = [model(x) for x in xs]
    loss = sum((1 + -yi * si).relu() for yi, si in zip(ys, scores)) * (1.0 / len(xs))
    loss = loss + 1e-4 * sum(p * p for p in params)
    return len(topological_order(loss))


def micrograd_version():
    try:
        from importlib.metadata import version

        return version("micrograd")
    except Exception:
        return getattr(micrograd, "__version__", "?")


# ---- 2. tensor engines ----------------------------------------------------------


def tensor_case(batch, sizes):
    """A minigrad and a torch training step on the same MLP, weights and data."""
    rng = np.random.default_rng(0)
    x_np = rng.normal(size=(batch, sizes[0]))
    y_np = rng.integers(0, sizes[-1], size=batch)

    mnn.manual_seed(0)
    m_model = mnn.MLP(sizes)
    m_opt = moptim.SGD(m_model.parameters(), lr=0.1)
    m_x = Tensor(x_np)

    layers = []
    for i, (a, b) in enumerate(zip(sizes, sizes[1:])):
        layers.append(torch.nn.Linear(a, b, dtype=torch.float64))
        if i < len(sizes) - 2:
            layers.append(torch.nn.ReLU())
    t_model = torch.nn.Sequential(*layers)
    with torch.no_grad():
        for tl, ml in zip([m for m in t_model if isinstance(m, torch.nn.Linear)],
                          [m for m in m_model.layers if isinstance(m, mnn.Linear)]):
            tl.weight.copy_(torch.from_numpy(ml.weight.data))
            tl.bias.copy_(torch.from_numpy(ml.bias.data))
    t_opt = torch.optim.SGD(t_model.parameters(), lr=0.1)
    t_x, t_y = torch.from_numpy(x_np.copy()), torch.from_numpy(y_np.copy())

    def m_step():
        m_opt.zero_grad()
        loss = mF.cross_entropy(m_model(m_x), y_np)
        loss.backward()
        m_opt.step()
        return loss.item()

    def t_step():
        t_opt.zero_grad()
        loss = torch.nn.functional.cross_entropy(t_model(t_x), t_y)
        loss.backward()
        t_opt.step()
        return loss.item()

    for _ in range(2):  # the same trajectory: the first loss, and the one after an update
        lm, lt = m_step(), t_step()
        assert abs(lm - lt) <= 1e-10 * max(1.0, abs(lt)), (sizes, lm, lt)
    return {"minigrad": m_step, "torch": t_step}


def openblas_threads():
    """(get, set) for the OpenBLAS that NumPy loaded, through ctypes; (None, None) if not found."""
    import ctypes
    import glob

    here = os.path.dirname(np.__file__)
    paths = glob.glob(os.path.join(here, os.pardir, "numpy.libs", "*openblas*"))
    paths += glob.glob(os.path.join(here, ".dylibs", "*openblas*"))
    names = [(f"{p}_get_num_threads{s}", f"{p}_set_num_threads{s}")
             for p in ("scipy_openblas", "openblas") for s in ("64_", "")]
    for path in paths:
        lib = ctypes.CDLL(path)
        for get_name, set_name in names:
            get, put = getattr(lib, get_name, None), getattr(lib, set_name, None)
            if get and put:
                put.argtypes = [ctypes.c_int]
                return get, put
    return None, None


def run_tensor(args, lines):
    blas_get, blas_set = openblas_threads()
    torch_threads = torch.get_num_threads()
    blas_threads = blas_get() if blas_get else None
    modes = [("default", f"torch {torch_threads}, NumPy's OpenBLAS {blas_threads or '?'}")]
    if blas_set:
        modes.append(("1 thread", "torch 1, NumPy's OpenBLAS 1"))
    lines += [
        "## 2. Tensor engine: `minigrad.tensor.Tensor` vs PyTorch (CPU, float64)",
        "",
        "One training step: `zero_grad()`, MLP forward (Linear layers, ReLU between), "
        "cross-entropy on integer labels, `backward()`, SGD step (lr 0.1), with "
        "`minigrad.nn.MLP` + `minigrad.functional.cross_entropy` + `minigrad.optim.SGD` against "
        "`torch.nn.Sequential` + `F.cross_entropy` + `torch.optim.SGD`, from the same weights and data "
        "(the losses of two steps checked equal to 1e-10). Garbage collector on. Threads: "
        + "; ".join(f"*{name}* = {desc}" for name, desc in modes) + " (one thread each is steadier "
        "on a small machine: two thread pools that spin-wait share its cores). Page faults: minor "
        "faults per step, torch / minigrad, i.e. memory a step takes fresh from the OS instead of reusing.",
        "",
        f"| batch | sizes | threads | torch min / median | minigrad min / median | minigrad / torch (minima) "
        f"| median per-repeat ratio | page faults per step | goal ≤ {TENSOR_GOAL}x |",
        "| ---: | --- | --- | ---: | ---: | ---: | ---: | ---: | --- |",
    ]
    results = {}
    for batch, sizes, number in args.tensor_cases:
        steps = tensor_case(batch, sizes)
        for mode, _ in modes:
            if mode == "1 thread":
                torch.set_num_threads(1)
                blas_set(1)
            try:
                times, faults = bench(steps, number=number, repeat=args.repeat, warmup=3,
                                      settle=0.1 if mode == "default" else 0.0)
            finally:
                torch.set_num_threads(torch_threads)
                if blas_set and blas_threads:
                    blas_set(blas_threads)
            ratio, med = compare(times, "minigrad", "torch")
            results[f"tensor step {batch}x{sizes} ({mode})"] = (ratio, TENSOR_GOAL)
            print(f"tensor batch {batch} {sizes} {mode}: minigrad {fmt_time(min(times['minigrad']))}, "
                  f"torch {fmt_time(min(times['torch']))}, ratio {ratio:.2f} (median {med:.2f})", file=sys.stderr)
            lines.append(
                f"| {batch} | {sizes} | {mode} "
                f"| {fmt_time(min(times['torch']))} / {fmt_time(statistics.median(times['torch']))} "
                f"| {fmt_time(min(times['minigrad']))} / {fmt_time(statistics.median(times['minigrad']))} "
                f"| **{fmt_ratio(ratio, TENSOR_GOAL)}** | {med:.2f}x "
                f"| {faults['torch']:,.0f} / {faults['minigrad']:,.0f} "
                f"| {'met' if ratio <= TENSOR_GOAL else '**missed**'} |"
            )
    lines.append("")
    return results


# ---- report -----------------------------------------------------------------------


def git(*cmd):
    try:
        return subprocess.run(["git", "-C", str(REPO), *cmd], capture_output=True, text=True,
                              check=True).stdout.strip()
    except Exception:
        return ""


def cpu_model():
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "?"


def cpu_snapshot():
    """(wall seconds, machine busy CPU seconds, this process's CPU seconds), or None off Linux."""
    try:
        fields = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
        ticks = os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, AttributeError):
        return None
    busy = (sum(fields[:8]) - fields[3] - fields[4]) / ticks  # all but idle and iowait
    own = resource.getrusage(resource.RUSAGE_SELF) if resource else None
    return time.perf_counter(), busy, (own.ru_utime + own.ru_stime) if own else 0.0


def others_share(before, after):
    """The share of the machine's CPU that other processes used between two snapshots."""
    if not before or not after:
        return None
    wall = after[0] - before[0]
    others = (after[1] - before[1]) - (after[2] - before[2])
    nproc = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return max(0.0, others / (wall * nproc))


def load_average():
    try:
        return " / ".join(f"{x:.2f}" for x in os.getloadavg()) + " (1 / 5 / 15 min)"
    except (AttributeError, OSError):
        return ""


def header(args):
    commit = git("rev-parse", "--short", "HEAD") or "?"
    changed = git("status", "--porcelain", "--untracked-files=no", "--", "minigrad")
    dirty = " (with uncommitted changes in minigrad/)" if changed else ""
    nproc = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return [
        "# minigrad engine benchmarks",
        "",
        "Written by `python3 benchmarks/bench_engines.py` (see its docstring); do not edit by hand.",
        "Ratios are minigrad's time / the reference's time: below 1 means minigrad is faster.",
        "",
        f"- date: {datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M UTC')}",
        f"- minigrad: commit {commit}{dirty}",
        f"- machine: {platform.system()} {platform.machine()}, {cpu_model()}, nproc {nproc}"
        f"{', load average at start ' + load_average() if load_average() else ''}",
        f"- python {platform.python_version()} ({platform.python_implementation()}), "
        f"numpy {np.__version__}, torch {torch.__version__} ({torch.get_num_threads()} threads), "
        f"micrograd {micrograd_version()}",
        f"- timing: {args.repeat} repeats after warmup, the engines interleaved (order swapped every repeat); "
        "min and median over repeats; verdicts on the ratio of the minima"
        + (" — **quick smoke run, numbers are rough**" if args.quick else ""),
        "",
    ]


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    p.add_argument("--quick", action="store_true", help="a smoke run of a few seconds")
    p.add_argument("--out", type=Path, default=Path(__file__).resolve().parent / "RESULTS.md")
    p.add_argument("--only", choices=["scalar", "tensor"], help="run one part (does not write RESULTS.md)")
    args = p.parse_args()
    if args.quick:
        args.repeat, args.scalar_batch, args.scalar_number = 3, 8, 1
        args.depths = [10_000]
        args.tensor_cases = [(64, [2, 64, 64, 2], 20)]
    else:
        args.repeat, args.scalar_batch, args.scalar_number = 21, 32, 1
        args.depths = [100_000, 1_000_000]
        args.tensor_cases = [
            (64, [2, 64, 64, 2], 100),
            (256, [64, 256, 256, 10], 20),
            (512, [784, 512, 512, 10], 4),
        ]

    started, snapshot = time.perf_counter(), cpu_snapshot()
    lines = header(args)
    goals = {}
    if args.only in (None, "scalar"):
        goals.update(run_scalar(args, lines))
    if args.only in (None, "tensor"):
        goals.update(run_tensor(args, lines))
    missed = [k for k, (value, goal) in goals.items() if (value < goal if k == "chain depth" else value > goal)]
    lines += [
        "## Summary",
        "",
        ("All goals met." if not missed else "Goals missed: " + "; ".join(missed) + "."),
        "",
        f"Whole run: {time.perf_counter() - started:.0f} s"
        f"{', load average at the end ' + load_average() if load_average() else ''}.",
        "",
    ]
    share = others_share(snapshot, cpu_snapshot())
    if share is not None:
        lines[-1:-1] = [
            f"Other processes used {share:.0%} of the machine's CPU during the run"
            + (": **a busy machine, so these numbers are noisy (torch's threads suffer most); rerun on a "
               "quiet one.**" if share > 0.10 else " (a quiet machine)."),
            "",
        ]
        print(f"other processes: {share:.0%} of the CPU", file=sys.stderr)
    text = "\n".join(lines)
    if not (args.quick or args.only) or args.out != p.get_default("out"):
        args.out.write_text(text)
        print(f"wrote {args.out}", file=sys.stderr)
    print(text)


if __name__ == "__main__":
    main()
