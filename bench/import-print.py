#!/usr/bin/env python3
"""Import + print time and peak memory of dan-translate on the workloads.

Usage: bench/import-print.py [--build DIR] [--repeat N] [graph.json ...]

For each graph it times, in one run of this script:
  json->ir  dan-translate --import=json G.json -o G.dan
  ir->ir    dan-translate G.dan -o G.2.dan   (parse + print)
  verify    dan-verify G.dan
and prints the median wall time over --repeat runs and the largest peak RSS
(from wait4). Machines are shared and noisy: compare ratios within one run.
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def measure(cmd):
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"failed: {' '.join(cmd)}")
    return elapsed, usage.ru_maxrss  # KiB on Linux


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("graphs", nargs="*")
    args = ap.parse_args()
    graphs = args.graphs
    if not graphs:
        wl = os.path.join(ROOT, "data", "contest")
        if not os.path.isdir(wl):
            print("UNSUPPORTED: no graphs given and data/contest is absent")
            return 0
        graphs = sorted(os.path.join(wl, f) for f in os.listdir(wl) if f.endswith(".json"))
    bin_dir = os.path.join(args.build, "bin")
    translate = os.path.join(bin_dir, "dan-translate")
    verify = os.path.join(bin_dir, "dan-verify")
    print(f"{'graph':<22} {'bytes':>9} {'step':<9} {'median s':>9} {'peak MiB':>9}")
    with tempfile.TemporaryDirectory() as tmp:
        for g in graphs:
            name = os.path.splitext(os.path.basename(g))[0]
            ir = os.path.join(tmp, name + ".dan")
            steps = [
                ("json->ir", [translate, "--import=json", g, "-o", ir]),
                ("ir->ir", [translate, ir, "-o", os.path.join(tmp, name + ".2.dan")]),
                ("verify", [verify, ir]),
            ]
            for step, cmd in steps:
                times, peaks = [], []
                for _ in range(args.repeat):
                    t, rss = measure(cmd)
                    times.append(t)
                    peaks.append(rss)
                size = os.path.getsize(g if step == "json->ir" else ir)
                print(f"{name:<22} {size:>9} {step:<9} {statistics.median(times):>9.3f} "
                      f"{max(peaks) / 1024:>9.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
