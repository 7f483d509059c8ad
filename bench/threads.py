#!/usr/bin/env python3
"""dan-mpas with default options on all cores against one thread.

Usage: bench/threads.py [--build DIR] [--graph JSON] [--runs N] [--against DIR]

Imports the graph (default: data/contest/Matmul_Case1.json) once with
dan-translate, then runs `dan-mpas` (default options: its auto selections on
every hardware thread) and `dan-mpas --threads=1` alternately N times each
(default 11), checks that every output is byte-identical, and prints the
median wall time of each and their ratio (all cores / one thread), with
the median and the middle half of the ratios of each round's two runs.
Run it on an otherwise idle machine: with other work on the cores the
threads of the parallel run wait for them, and the ratio says nothing.

It also measures what the machine allows: in the same alternation, two
`dan-mpas --threads=1` processes started at once. Two cores that do not slow
each other finish both in the time of one; the throughput of two (twice the
single-thread time over the time of the pair) bounds the speed-up of any
run that uses both, so one over it is the lowest ratio a run with no
serial part at all could show on this machine.

With --against DIR, another build's dan-mpas (DIR/bin/dan-mpas) runs in the
same alternation, both ways, and its medians and ratio are printed beside
this build's: the machine's speed moves by half within minutes, so two
builds compare fairly only when measured side by side like this. Its
outputs must be the same as this build's.
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
    ap.add_argument("--against", metavar="DIR",
                    help="another build to run in the same alternation")
    args = ap.parse_args()
    mpas = os.path.join(args.build, "bin", "dan-mpas")
    builds = [("", mpas)]
    if args.against:
        builds.append(("other ", os.path.join(args.against, "bin",
                                              "dan-mpas")))
    with tempfile.TemporaryDirectory() as tmp:
        ir = os.path.join(tmp, "in.dan")
        run([os.path.join(args.build, "bin", "dan-translate"),
             "--import=json", args.graph, "-o", ir])
        modes = [(prefix + label, binary, flags)
                 for prefix, binary in builds
                 for label, flags in (("all cores", []),
                                      ("--threads=1", ["--threads=1"]))]
        times = {label: [] for label, _, _ in modes}
        pairs = []
        outputs = set()
        for _ in range(args.runs):
            for label, binary, flags in modes:
                # Into a file, as the pair below (not through a pipe).
                path = os.path.join(tmp, "out.dan")
                _, t = run([binary] + flags + [ir, "-o", path])
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
    width = max(len(label) for label, _, _ in modes) + 1
    for prefix, _ in builds:
        for label in ("all cores", "--threads=1"):
            print(f"  {prefix + label:{width}} median "
                  f"{med[prefix + label] * 1000:8.1f} ms")
        ratio = med[prefix + "all cores"] / med[prefix + "--threads=1"]
        # Each round's two runs follow each other, so their ratio leaves
        # out most of the machine's drift from round to round; its spread
        # says how far one run of the script can be trusted.
        rounds = [a / o for a, o in zip(times[prefix + "all cores"],
                                        times[prefix + "--threads=1"])]
        q1, q2, q3 = statistics.quantiles(rounds, n=4) if len(rounds) > 1 \
            else rounds * 3
        print(f"  {prefix + 'ratio':{width}} {ratio:.3f} (round by round: "
              f"median {q2:.3f}, middle half {q1:.3f} to {q3:.3f})")
    throughput = 2 * med["--threads=1"] / pair
    print(f"  two --threads=1 runs at once: median {pair * 1000:.1f} ms, "
          f"{throughput:.2f} times the throughput of one; the lowest ratio "
          f"this machine allows: {1 / throughput:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
