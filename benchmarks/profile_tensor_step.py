"""Where a minigrad tensor training step spends its time (issue 15, item 6).

Run with the python3 that runs bench_engines.py (torch, micrograd):

    python3 benchmarks/profile_tensor_step.py --batch 512

Three measurements, each robust to a shared machine (CPU time and counts, not
wall time alone), on bench_engines.py's training step:

1. ops: CPU time of each part of one step at one OpenBLAS thread, the minimum
   over the steps (forward, the zeros `backward()` allocates, each `_backward`
   by op and shape, the SGD update).
2. faults: minor page faults and CPU per step in fresh processes: as is, with
   gc.collect() after every step (the cycle out -> _backward -> out freed at
   once instead of every few steps), and with glibc told to keep freed memory
   (MALLOC_TRIM_THRESHOLD_ / MALLOC_MMAP_THRESHOLD_ / MALLOC_TOP_PAD_).
3. threads: the step at one and at two OpenBLAS threads, interleaved: wall
   time and CPU per step of the main thread and of the others (from
   /proc/self/task), i.e. whether the second thread works or waits.
"""

import argparse
import collections
import gc
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent), str(HERE)]

import bench_engines as be  # noqa: E402
import numpy as np  # noqa: E402

from minigrad.graph import topological_order  # noqa: E402

SIZES = {64: [2, 64, 64, 2], 256: [64, 256, 256, 10], 512: [784, 512, 512, 10]}
KEEP_FREED_MEMORY = {"MALLOC_TRIM_THRESHOLD_": str(1 << 30), "MALLOC_MMAP_THRESHOLD_": str(1 << 26),
                     "MALLOC_TOP_PAD_": str(1 << 26)}


def model_step(batch):
    """The pieces of bench_engines' minigrad step, to time them one by one."""
    from minigrad import functional as F
    from minigrad import nn, optim
    from minigrad.tensor import Tensor

    rng = np.random.default_rng(0)
    x = Tensor(rng.normal(size=(batch, SIZES[batch][0])))
    y = rng.integers(0, SIZES[batch][-1], size=batch)
    nn.manual_seed(0)
    model = nn.MLP(SIZES[batch])
    return x, y, model, optim.SGD(model.parameters(), lr=0.1), F


def ops(batch, steps):
    x, y, model, opt, F = model_step(batch)
    best = collections.defaultdict(lambda: float("inf"))
    for i in range(steps + 3):
        part = collections.defaultdict(float)
        c0 = time.process_time()
        opt.zero_grad()
        loss = F.cross_entropy(model(x), y)
        c1 = time.process_time()
        topo = topological_order(loss)
        for t in topo:  # what Tensor.backward does, with a clock around each closure
            if t._prev or t.grad is None:
                t.grad = np.zeros(t.shape)
        loss.grad = np.ones(())
        c2 = time.process_time()
        for t in reversed(topo):
            s = time.process_time()
            t._backward()
            part[f"backward {t._op or 'leaf'} {t.shape}"] += time.process_time() - s
        c3 = time.process_time()
        opt.step()
        c4 = time.process_time()
        part.update({"forward": c1 - c0, "topological order + zeros": c2 - c1, "sgd step": c4 - c3})
        if i >= 3:  # warm-up steps do not count
            for k, v in part.items():
                best[k] = min(best[k], v)
    total = sum(v for k, v in best.items())
    print(f"\n1. CPU per part of a step, batch {batch}, one OpenBLAS thread (minima of {steps} steps; sum {total * 1e3:.2f} ms)")
    for k, v in sorted(best.items(), key=lambda kv: -kv[1]):
        if v >= 0.01 * total:
            print(f"   {v * 1e3:8.2f} ms  {k}")


def faults_child(batch, steps, collect):
    """One measurement in this process: minor faults and CPU per step, averaged
    over rounds of 6 steps (the collector runs about once in 5 here), minimum round."""
    step = be.tensor_case(batch, SIZES[batch])["minigrad"]
    for _ in range(12):  # warm up: the heap reaches its working size
        step()
    gc.collect()
    gc.freeze()  # torch's objects and the model: out of the collections this measures
    faults, cpu = [], []
    for _ in range(max(1, steps // 6)):
        f0, c0 = resource.getrusage(resource.RUSAGE_SELF).ru_minflt, time.process_time()
        for _ in range(6):
            step()
            if collect:
                gc.collect()
        cpu.append((time.process_time() - c0) / 6)
        faults.append((resource.getrusage(resource.RUSAGE_SELF).ru_minflt - f0) / 6)
    print(json.dumps({"faults": statistics.median(faults), "cpu": min(cpu)}))


def faults(batch, steps):
    print(f"\n2. Minor page faults and CPU per step, batch {batch}, one OpenBLAS thread (fresh process each)")
    for label, collect, env in [("as is", False, {}), ("gc.collect() after each step", True, {}),
                                ("glibc keeps freed memory (MALLOC_*)", False, KEEP_FREED_MEMORY)]:
        cmd = [sys.executable, __file__, "--batch", str(batch), "--steps", str(steps), "--child-faults"]
        out = subprocess.run(cmd + (["--collect"] if collect else []), env={**os.environ, **env},
                             capture_output=True, text=True, check=True).stdout
        r = json.loads(out.strip().splitlines()[-1])
        print(f"   {label:40s} {r['faults']:7,.0f} faults, CPU {r['cpu'] * 1e3:7.2f} ms")


def thread_ticks():
    ticks = {}
    for tid in os.listdir("/proc/self/task"):
        fields = Path(f"/proc/self/task/{tid}/stat").read_text().rsplit(")", 1)[1].split()
        ticks[tid] = int(fields[11]) + int(fields[12])  # utime + stime, in clock ticks
    return ticks


def threads(batch, steps):
    blas_get, blas_set = be.openblas_threads()
    if blas_set is None or not Path("/proc/self/task").exists():
        print("\n3. threads: skipped (NumPy's OpenBLAS or /proc not found)")
        return
    default = blas_get()
    step = be.tensor_case(batch, SIZES[batch])["minigrad"]
    main, hz = str(os.getpid()), os.sysconf("SC_CLK_TCK")
    wall = {1: [], 2: []}
    ticks = {1: [0, 0], 2: [0, 0]}
    try:
        for r in range(steps):
            for n in (1, 2) if r % 2 else (2, 1):
                blas_set(n)
                step()
                t0, w0 = thread_ticks(), time.perf_counter()
                step()
                wall[n].append(time.perf_counter() - w0)
                t1 = thread_ticks()
                ticks[n][0] += t1[main] - t0[main]
                ticks[n][1] += sum(t1[k] - t0.get(k, 0) for k in t1 if k != main)
    finally:
        blas_set(default)
    print(f"\n3. OpenBLAS threads, batch {batch}, {steps} interleaved steps each (CPU from /proc, {hz} ticks/s)")
    for n in (1, 2):
        main_ms, other_ms = (1e3 * t / hz / steps for t in ticks[n])
        print(f"   {n} thread{'s' if n > 1 else ' '}: wall min {min(wall[n]) * 1e3:7.2f} ms, "
              f"median {statistics.median(wall[n]) * 1e3:7.2f} ms; CPU per step: main {main_ms:6.2f} ms, "
              f"other threads {other_ms:6.2f} ms")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    p.add_argument("--batch", type=int, choices=sorted(SIZES), default=512)
    p.add_argument("--steps", type=int, default=24)
    p.add_argument("--child-faults", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--collect", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args()
    blas_get, blas_set = be.openblas_threads()
    if args.child_faults:
        blas_set and blas_set(1)
        return faults_child(args.batch, args.steps, args.collect)
    default = blas_get() if blas_get else None
    blas_set and blas_set(1)
    ops(args.batch, args.steps)
    blas_set and blas_set(default)
    faults(args.batch, args.steps)
    threads(args.batch, args.steps)


if __name__ == "__main__":
    main()
