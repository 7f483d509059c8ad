#!/usr/bin/env python3
"""The four metrics after each stage of the default pipeline, and Base.

Usage: bench/stages.py [--build DIR] [--workloads DIR] [--md]

Per workload: Base (input order, first fit, LRU eviction: the paper's
"original schedule"), then after dan-mpas, after dan-dlr and after dan-cpe,
all with default options, each measured by dan-replay. It also prints each
stage's wall time on every graph (one run; compare within a run only).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KEYS = ("peak_l1ub", "extra_ddr_traffic", "spill_count", "makespan")


def run(cmd):
    start = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"failed ({proc.returncode}): {' '.join(cmd)}\n{proc.stderr}")
    return proc.stdout, time.perf_counter() - start


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--workloads", default=os.path.join(ROOT, "data", "contest"))
    ap.add_argument("--md", action="store_true")
    args = ap.parse_args()
    if not os.path.isdir(args.workloads):
        print("UNSUPPORTED: no workloads folder")
        return 0
    b = lambda tool: os.path.join(args.build, "bin", tool)
    names = sorted(f[:-5] for f in os.listdir(args.workloads) if f.endswith(".json"))
    rows, times = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            p = lambda s: os.path.join(tmp, f"{name}.{s}.dan")
            run([b("dan-translate"), "--import=json",
                 os.path.join(args.workloads, name + ".json"), "-o", p("in")])
            run([b("dan-mpas"), "--order=input", p("in"), "-o", p("b1")])
            run([b("dan-dlr"), "--fit=first", "--evict=lru", p("b1"), "-o", p("base")])
            _, t1 = run([b("dan-mpas"), p("in"), "-o", p("s1")])
            _, t2 = run([b("dan-dlr"), p("s1"), "-o", p("s2")])
            _, t3 = run([b("dan-cpe"), p("s2"), "-o", p("s3")])
            times.append((name, t1, t2, t3))
            for label, f in (("Base", "base"), ("MPAS", "s1"), ("DLR", "s2"), ("CPE", "s3")):
                m = json.loads(run([b("dan-replay"), "--format=json", p(f)])[0])
                rows.append((name, label) + tuple(m[k] for k in KEYS))
    head = ("graph", "after", "peak L1+UB", "extra traffic", "spills", "makespan")
    fmt = [(r[0], r[1]) + tuple(f"{v:,}" for v in r[2:]) for r in rows]
    if args.md:
        print("| " + " | ".join(head) + " |")
        print("| --- | --- | ---: | ---: | ---: | ---: |")
        for r in fmt:
            print("| " + " | ".join(r) + " |")
        print()
        print("| graph | dan-mpas s | dan-dlr s | dan-cpe s |")
        print("| --- | ---: | ---: | ---: |")
        for n, t1, t2, t3 in times:
            print(f"| {n} | {t1:.2f} | {t2:.2f} | {t3:.2f} |")
    else:
        w = [max(len(str(r[i])) for r in [head] + fmt) for i in range(len(head))]
        for r in [head] + fmt:
            print("  ".join(str(c).rjust(x) if i > 1 else str(c).ljust(x)
                            for i, (c, x) in enumerate(zip(r, w))))
        print()
        for n, t1, t2, t3 in times:
            print(f"{n:<22} dan-mpas {t1:.2f} s  dan-dlr {t2:.2f} s  dan-cpe {t3:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
