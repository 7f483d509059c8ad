#!/usr/bin/env python3
"""dan-mpas with default options on all cores against one thread.

Usage: bench/threads.py [--build DIR] [--graph JSON] [--runs N]

Imports the graph (default: data/contest/Matmul_Case1.json) once with
dan-translate, then runs `dan-mpas` (default options: its auto selections on
every hardware thread) and `dan-mpas --threads=1` alternately N times each
(default 11), checks that every output is byte-identical, and prints the
median wall time of each and their ratio (all cores / one thread). Run it
on an otherwise idle machine: with other work on the cores the threads of
the parallel run wait for them, and the ratio says nothing.

It also measures what the machine allows: in the same alternation, two
`dan-mpas --threads=1` processes started at once. Two cores that do not slow
each other finish both in the time of one; the throughput of two (twice the
single-thread time over the time of the pair) bounds the speed-up of any
run that uses both, so one over it is the lowest ratio a run with no
serial part at all could show on this machine.
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(cmd):
    start = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True)
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit(f"failed ({proc.returncode}): {' '.join(cmd)}\n"
                 f"{proc.stderr.decode(errors='replace')}")
    return proc.stdout, elapsed


def run_pair(cmd, tmp):
    """Two runs of cmd started at once, each writing its own file: their
    outputs and the time until both finished."""
    start = time.perf_counter()
    paths = [os.path.join(tmp, f"pair{k}.dan") for k in range(2)]
    procs = [subprocess.Popen(cmd + ["-o", p], stderr=subprocess.PIPE)
             for p in paths]
    errs = [p.communicate()[1] for p in procs]
    elapsed = time.perf_counter() - start
    for p, err in zip(procs, errs):
        if p.returncode != 0:
            sys.exit(f"failed ({p.returncode}): {' '.join(cmd)}\n"
                     f"{err.decode(errors='replace')}")
    outs = []
    for path in paths:
        with open(path, "rb") as f:
            outs.append(f.read())
    return outs, elapsed


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--graph", default=os.path.join(
        ROOT, "data", "contest", "Matmul_Case1.json"))
    ap.add_argument("--runs", type=int, default=11)
    args = ap.parse_args()
    mpas = os.path.join(args.build, "bin", "dan-mpas")
    with tempfile.TemporaryDirectory() as tmp:
        ir = os.path.join(tmp, "in.dan")
        run([os.path.join(args.build, "bin", "dan-translate"),
             "--import=json", args.graph, "-o", ir])
        modes = (("all cores", []), ("--threads=1", ["--threads=1"]))
        times = {label: [] for label, _ in modes}
        pairs = []
        outputs = set()
        for _ in range(args.runs):
            for label, flags in modes:
                # Into a file, as the pair below (not through a pipe).
                path = os.path.join(tmp, "out.dan")
                _, t = run([mpas] + flags + [ir, "-o", path])
                times[label].append(t)
                with open(path, "rb") as f:
                    outputs.add(f.read())
            outs, t = run_pair([mpas, "--threads=1", ir], tmp)
            pairs.append(t)
            outputs.update(outs)
    if len(outputs) != 1:
        sys.exit("the outputs differ between runs")
    med = {label: statistics.median(ts) for label, ts in times.items()}
    pair = statistics.median(pairs)
    name = os.path.basename(args.graph)
    print(f"dan-mpas on {name}, {args.runs} runs each, alternately; "
          f"outputs identical")
    for label, _ in modes:
        print(f"  {label:12} median {med[label] * 1000:8.1f} ms")
    print(f"  ratio        {med['all cores'] / med['--threads=1']:.2f}")
    throughput = 2 * med["--threads=1"] / pair
    print(f"  two --threads=1 runs at once: median {pair * 1000:.1f} ms, "
          f"{throughput:.2f} times the throughput of one; the lowest ratio "
          f"this machine allows: {1 / throughput:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
