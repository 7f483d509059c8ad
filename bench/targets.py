#!/usr/bin/env python3
"""DAN's three contest figures per workload beside the best published ones.

Usage: bench/targets.py [--build DIR] [--workloads DIR] [--md]

For each workload it runs, in one process each, timing every step:
  stage 1: dan-mpas --l0=single                      -> peak L1+UB
  default pipeline: dan-mpas | dan-dlr | dan-cpe     -> traffic, makespan
and replays each result with dan-replay --format=json, in the safe reuse
reading (DAN's ruler) and in the literal one. Every plan is checked: stage 1
with dan-verify --l0-single, every pipeline stage with dan-verify (stage 3
also --against its stage-2 input), and the final plan is exported as a
submission triple, imported back onto the contest JSON, verified, and must
replay to the same four metrics. It prints DAN's figures beside the targets
of issue 5, each cell marked 'beat' (strictly lower), 'tie' or 'MISS', the
makespan's lower bounds (critical path, busiest pipe; safe reading) and
their ratio, and the run times. Stage-3 cells also need the traffic within
the target's. Run times are wall clock on this machine: compare them within
one run only.

A third table sets DAN's figures against the lower bounds dan-bound proves
(docs/Bounds.md): the stage-1 peak against the bound for every schedule
with one live buffer per L0 tier; the stage-2 traffic of the default
pipeline (dan-dlr's plan, before dan-cpe) against the bound for every plan
of the same stage-1 order; the final makespan against the bound for every
plan and against the one for every plan of that order. The gap is the
figure over the larger bound; "optimal" marks a figure equal to it.
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


def mark(value, target):
    return "beat" if value < target else "tie" if value == target else "MISS"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--workloads", default=os.path.join(ROOT, "data", "contest"))
    ap.add_argument("--md", action="store_true", help="print Markdown tables")
    args = ap.parse_args()
    if not os.path.isdir(args.workloads):
        print("UNSUPPORTED: no workloads folder")
        return 0
    b = lambda tool: os.path.join(args.build, "bin", tool)
    metrics = ("peak_l1ub", "extra_ddr_traffic", "spill_count", "makespan")
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
            run([b("dan-verify"), p("s1")])
            _, t_dlr = run([b("dan-dlr"), p("s1"), "-o", p("s2")])
            run([b("dan-verify"), p("s2")])
            _, t_cpe = run([b("dan-cpe"), p("s2"), "-o", p("s3")])
            run([b("dan-verify"), "--against", p("s2"), p("s3")])
            s3 = json.loads(run([b("dan-replay"), "--format=json", p("s3")])[0])
            lit = json.loads(run([b("dan-replay"), "--format=json",
                                  "--reuse-reading=literal", p("s3")])[0])
            # The final plan as a contest submission, read back and re-scored.
            sub = os.path.join(tmp, name + ".sub")
            run([b("dan-translate"), p("s3"), "--export=submission", "-o", sub])
            run([b("dan-translate"), "--import=submission", src, sub, "-o", p("back")])
            run([b("dan-verify"), p("back")])
            back = json.loads(run([b("dan-replay"), "--format=json", p("back")])[0])
            if any(back[m] != s3[m] for m in metrics):
                sys.exit(f"{name}: the submission replays differently: "
                         f"{[(m, back[m], s3[m]) for m in metrics]}")
            # What DAN proves: the stage-1 peak bound (one live buffer per
            # L0 tier) and the makespan of every plan, on the graph; the
            # traffic and the makespan of every plan of the default order.
            whole = json.loads(run([b("dan-bound"), "--format=json", p("in")])[0])
            order = json.loads(run([b("dan-bound"), "--format=json", p("s1")])[0])
            s2 = json.loads(run([b("dan-replay"), "--format=json", p("s2")])[0])
            rows.append(dict(name=name, peak=s1["peak_l1ub"], traffic=s3["extra_ddr_traffic"],
                             safe=s3["makespan"], literal=lit["makespan"],
                             spills=s3["spill_count"], cp=s3["critical_path_lb"],
                             pipe=s3["pipe_lb"], t1=t_s1, tp=t_mpas + t_dlr + t_cpe,
                             s2traffic=s2["extra_ddr_traffic"],
                             peak_lb=whole["peak_l1ub"]["best"],
                             traffic_lb=order["extra_ddr_traffic_of_this_order"]["best"],
                             makespan_lb=whole["makespan"]["best"],
                             order_makespan_lb=order["makespan_of_this_order"]["best"]))
    figures = []
    times = []
    counts = {"beat": 0, "tie": 0, "MISS": 0}
    for r in rows:
        tp1, tp2, tp3, tt3 = TARGETS[r["name"]]
        within = r["traffic"] <= tt3
        m1, m2 = mark(r["peak"], tp1), mark(r["traffic"], tp2)
        m3 = mark(r["safe"], tp3) if within else "MISS"
        m3l = mark(r["literal"], tp3) if within else "MISS"
        for m in (m1, m2, m3):
            counts[m] += 1
        lb = max(r["cp"], r["pipe"])
        figures.append((r["name"], f"{r['peak']:,}", f"{tp1:,}", m1,
                        f"{r['traffic']:,}", f"{tp2:,}", m2,
                        f"{r['safe']:,}", f"{r['literal']:,}", f"{tp3:,} ({tt3:,})",
                        m3, m3l))
        times.append((r["name"], str(r["spills"]), f"{r['cp']:,}", f"{r['pipe']:,}",
                      f"{r['safe'] / lb:.3f}" if lb else "-", f"{r['t1']:.2f}",
                      f"{r['tp']:.2f}"))
    def gap(value, bound):
        if value == bound:
            return "optimal"
        if not bound:
            return "-"
        ratio = value / bound
        return f"x{ratio:.2f}" if ratio < 10 else f"x{ratio:.0f}"

    bounds = []
    for r in rows:
        bounds.append((r["name"], f"{r['peak']:,}", f"{r['peak_lb']:,}",
                       gap(r["peak"], r["peak_lb"]),
                       f"{r['s2traffic']:,}", f"{r['traffic_lb']:,}",
                       gap(r["s2traffic"], r["traffic_lb"]),
                       f"{r['safe']:,}", f"{r['makespan_lb']:,}",
                       f"{r['order_makespan_lb']:,}",
                       gap(r["safe"], max(r["makespan_lb"], r["order_makespan_lb"]))))
    head3 = ("graph", "stage1 peak", "bound", "gap", "stage2 traffic",
             "bound, this order", "gap", "makespan", "bound, every plan",
             "bound, this order", "gap")
    head1 = ("graph", "stage1 peak", "target", "", "stage2 traffic", "target", "",
             "stage3 makespan safe", "literal", "target (traffic)", "safe", "literal")
    head2 = ("graph", "spills", "critical path", "busiest pipe", "makespan/LB",
             "stage1 s", "pipeline s")
    for head, lines in ((head1, figures), (head2, times), (head3, bounds)):
        if args.md:
            print("| " + " | ".join(head) + " |")
            print("| " + " | ".join("---" if i == 0 else "---:" for i in range(len(head))) + " |")
            for line in lines:
                print("| " + " | ".join(line) + " |")
        else:
            widths = [max(len(str(r[i])) for r in [head] + lines) for i in range(len(head))]
            for r in [head] + lines:
                print("  ".join(str(c).rjust(w) if i else str(c).ljust(w)
                                for i, (c, w) in enumerate(zip(r, widths))))
        print()
    total = sum(counts.values())
    print(f"cells (stage 3 in the safe reading): {counts['beat']} beaten, "
          f"{counts['tie']} tied, {counts['MISS']} missed of {total}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
