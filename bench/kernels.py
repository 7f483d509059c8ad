#!/usr/bin/env python3
"""Several kernels in one graph: time, memory and plan quality against K.

Usage: bench/kernels.py [--build DIR] [--workloads DIR] [--runs R]
                        [--timeout S] [--copies NAME=K,K,...]...

For each contest workload named by --copies (default: Matmul_Case1 with 2,
8 and 32 copies, FlashAttention_Case0 with 2, 64 and 512), dan-link joins K
copies of it into one graph, and the default pipe runs on it tool by tool:
dan-translate (the JSON import of one copy, for reference), dan-mpas,
dan-dlr, dan-cpe, dan-verify and dan-replay, each with its default options.
It prints each tool's wall time (the least of --runs runs, default 1) and
peak RSS, and the plan's four metrics against K times one copy's: stage-1
peak against one copy's, traffic and makespan against K copies planned one
after another. It prints figures; it checks nothing (the tests do).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from scale import best_run  # noqa: E402  (the same timing as scale.py)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_COPIES = ["Matmul_Case1=2,8,32", "FlashAttention_Case0=2,64,512"]
TOOLS = ("mpas", "dlr", "cpe", "verify", "replay")


def replay_metrics(b, path):
    """The four metrics of a planned graph, from dan-replay's JSON."""
    out = subprocess.run([b("dan-replay"), "--format=json", path],
                         check=True, capture_output=True, text=True).stdout
    m = json.loads(out)
    return {k: m[k] for k in ("peak_l1ub", "extra_ddr_traffic", "spill_count",
                              "makespan")}


def stage1_peak(b, path):
    """The stage-1 peak L1+UB, from dan-replay on the unplanned order."""
    return replay_metrics(b, path)["peak_l1ub"]


def run_pipe(b, src, tmp, tag, runs, timeout):
    """Runs the default pipe tool by tool on IR `src`; returns the times
    and the files of each stage."""
    p = lambda s: os.path.join(tmp, f"{tag}.{s}.dan")
    steps = [("mpas", [b("dan-mpas"), src, "-o", p("s1")]),
             ("dlr", [b("dan-dlr"), p("s1"), "-o", p("s2")]),
             ("cpe", [b("dan-cpe"), p("s2"), "-o", p("s3")]),
             ("verify", [b("dan-verify"), p("s3")]),
             ("replay", [b("dan-replay"), p("s3")])]
    times = {}
    for tool, cmd in steps:
        times[tool] = best_run(cmd, runs, timeout)
        if times[tool] is None:
            break
    return times, p("s1"), p("s3")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--workloads", default=os.path.join(ROOT, "data", "contest"))
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=900)
    ap.add_argument("--copies", action="append",
                    help="NAME=K,K,...: a workload and its copy counts")
    args = ap.parse_args()
    b = lambda t: os.path.join(args.build, "bin", t)
    specs = []
    for spec in args.copies or DEFAULT_COPIES:
        name, _, ks = spec.partition("=")
        specs.append((name, [int(k) for k in ks.split(",") if k]))

    print("| graph | K | nodes | " + " | ".join(f"{t} s (MiB)" for t in TOOLS) +
          " | peak / one | traffic / K x one | makespan / K x one |")
    print("| --- | ---: | ---: | " + " | ".join("---:" for _ in TOOLS) +
          " | ---: | ---: | ---: |")
    with tempfile.TemporaryDirectory(prefix="dan-kernels.") as tmp:
        for name, ks in specs:
            one = os.path.join(tmp, f"{name}.x1.dan")
            subprocess.run([b("dan-translate"), "--import=json",
                            os.path.join(args.workloads, name + ".json"),
                            "-o", one], check=True)
            _, s1, s3 = run_pipe(b, one, tmp, f"{name}.x1", 1, args.timeout)
            base_peak = stage1_peak(b, s1)
            base = replay_metrics(b, s3)
            for k in ks:
                src = os.path.join(tmp, f"{name}.x{k}.dan")
                subprocess.run([b("dan-link"), f"--copies={k}", one, "-o", src],
                               check=True)
                nodes = sum(1 for line in open(src) if " = " in line)
                times, s1, s3 = run_pipe(b, src, tmp, f"{name}.x{k}",
                                         args.runs, args.timeout)
                cells = []
                for t in TOOLS:
                    r = times.get(t)
                    cells.append("timeout" if r is None and t in times else
                                 "-" if r is None else f"{r[0]:.2f} ({r[1]:.0f})")
                if all(times.get(t) for t in TOOLS):
                    m = replay_metrics(b, s3)
                    quality = [f"{stage1_peak(b, s1) / base_peak:.3f}",
                               f"{m['extra_ddr_traffic'] / max(1, k * base['extra_ddr_traffic']):.3f}",
                               f"{m['makespan'] / (k * base['makespan']):.3f}"]
                else:
                    quality = ["-", "-", "-"]
                print(f"| {name} | {k} | {nodes} | " + " | ".join(cells) +
                      " | " + " | ".join(quality) + " |", flush=True)


if __name__ == "__main__":
    main()
