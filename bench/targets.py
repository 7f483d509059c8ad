#!/usr/bin/env python3
"""DAN's three contest figures per workload beside the best published ones.

Usage: bench/targets.py [--build DIR] [--workloads DIR] [--md]

For each workload it runs, in one process each, timing every step:
  stage 1: dan-mpas --l0=single                      -> peak L1+UB
  default pipeline: dan-mpas | dan-dlr | dan-cpe     -> traffic, makespan
and replays each result with dan-replay --format=json. Every plan is
checked with dan-verify (stage 1 also with --l0-single, stage 3 also
--against its stage-2 input). It prints DAN's figures, the targets of
../shared/design/anchors.md and the makespan's distance to its lower bound
(makespan / max(critical path, busiest pipe)). Run times are wall clock on
this machine: compare them within one run only.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Best published results (issue 5): stage 1 peak, stage 2 traffic,
# stage 3 makespan and the traffic it was reached with.
TARGETS = {
    "Matmul_Case0": (9216, 28800, 133682, 28800),
    "Matmul_Case1": (34816, 430208, 1531946, 430208),
    "FlashAttention_Case0": (7178, 3584, 36344, 4096),
    "FlashAttention_Case1": (14362, 32512, 152364, 34304),
    "Conv_Case0": (39010, 66828, 515634, 69712),
}


def run(cmd, **kw):
    start = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if proc.returncode != 0:
        sys.exit(f"failed ({proc.returncode}): {' '.join(cmd)}\n{proc.stderr}")
    return proc.stdout, time.perf_counter() - start


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--workloads", default=os.path.join(ROOT, "..", "shared", "workloads"))
    ap.add_argument("--md", action="store_true", help="print a Markdown table")
    args = ap.parse_args()
    if not os.path.isdir(args.workloads):
        print("UNSUPPORTED: no workloads folder")
        return 0
    b = lambda tool: os.path.join(args.build, "bin", tool)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in sorted(TARGETS):
            src = os.path.join(args.workloads, name + ".json")
            if not os.path.exists(src):
                continue
            p = lambda suffix: os.path.join(tmp, f"{name}.{suffix}.dan")
            run([b("dan-translate"), "--import=json", src, "-o", p("in")])
            _, t_s1 = run([b("dan-mpas"), "--l0=single", p("in"), "-o", p("s1single")])
            run([b("dan-verify"), "--l0-single", p("s1single")])
            s1 = json.loads(run([b("dan-replay"), "--format=json", p("s1single")])[0])
            _, t_mpas = run([b("dan-mpas"), p("in"), "-o", p("s1")])
            _, t_dlr = run([b("dan-dlr"), p("s1"), "-o", p("s2")])
            run([b("dan-verify"), p("s2")])
            _, t_cpe = run([b("dan-cpe"), p("s2"), "-o", p("s3")])
            run([b("dan-verify"), "--against", p("s2"), p("s3")])
            s3 = json.loads(run([b("dan-replay"), "--format=json", p("s3")])[0])
            lb = max(s3["critical_path_lb"], s3["pipe_lb"])
            rows.append((name, s1["peak_l1ub"], s3["extra_ddr_traffic"], s3["makespan"],
                         s3["spill_count"], lb, t_s1, t_mpas + t_dlr + t_cpe))
    head = ("graph", "stage1 peak", "target", "stage2 traffic", "target",
            "stage3 makespan", "target (traffic)", "spills", "makespan/LB", "s1 s", "pipeline s")
    lines = []
    for (name, peak, traffic, makespan, spills, lb, t1, tp) in rows:
        tp1, tp2, tp3, tt3 = TARGETS[name]
        lines.append((name, f"{peak:,}", f"{tp1:,}", f"{traffic:,}", f"{tp2:,}",
                      f"{makespan:,}", f"{tp3:,} ({tt3:,})", str(spills),
                      f"{makespan / lb:.3f}" if lb else "-", f"{t1:.2f}", f"{tp:.2f}"))
    if args.md:
        print("| " + " | ".join(head) + " |")
        print("| " + " | ".join("---" if i == 0 else "---:" for i in range(len(head))) + " |")
        for line in lines:
            print("| " + " | ".join(line) + " |")
    else:
        widths = [max(len(str(r[i])) for r in [head] + lines) for i in range(len(head))]
        for r in [head] + lines:
            print("  ".join(str(c).rjust(w) if i else str(c).ljust(w) for i, (c, w) in enumerate(zip(r, widths))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
