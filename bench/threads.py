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
        outputs = set()
        for _ in range(args.runs):
            for label, flags in modes:
                out, t = run([mpas] + flags + [ir])
                times[label].append(t)
                outputs.add(out)
    if len(outputs) != 1:
        sys.exit("the outputs differ between runs")
    med = {label: statistics.median(ts) for label, ts in times.items()}
    name = os.path.basename(args.graph)
    print(f"dan-mpas on {name}, {args.runs} runs each, alternately; "
          f"outputs identical")
    for label, _ in modes:
        print(f"  {label:12} median {med[label] * 1000:8.1f} ms")
    print(f"  ratio        {med['all cores'] / med['--threads=1']:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
