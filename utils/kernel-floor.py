#!/usr/bin/env python3
"""Checks the floor of docs/Kernels.md on one graph of several kernels.

    utils/kernel-floor.py --tools DIR --join=parallel|series|stream
                          [--work DIR] [--capacity=TIER=N]... KERNEL...

Each KERNEL (DAN IR or contest JSON) runs through the default pipeline
alone (dan-mpas | dan-dlr | dan-cpe, then dan-replay); then dan-link joins
them as --join says and the joined graph runs through the same pipeline.
Prints, for each metric, the joined figure against the kernels': extra DDR
traffic and spill count at most the sum, makespan at most the sum plus one
cycle per SYNC (--join=series), peak L1+UB at most the largest kernel's
(--join=series only: side by side and streamed, kernels may share the
memory). Every stage's output of the joined graph must verify. Exit status 1
when a check fails, 2 when a tool fails.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile


def run(cmd, **kw):
    proc = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if proc.returncode:
        sys.stderr.write(" ".join(cmd) + ":\n" + proc.stderr)
        sys.exit(2)
    return proc.stdout


def pipeline(tool, src, work, tag, extra):
    """The default pipeline on src; every stage verified; the replay."""
    prev = src
    for stage in ("mpas", "dlr", "cpe"):
        out = os.path.join(work, "%s.%s.dan" % (tag, stage))
        run([tool("dan-" + stage), prev, "-o", out] + (extra if stage == "mpas" else []))
        run([tool("dan-verify"), out])
        prev = out
    return json.loads(run([tool("dan-replay"), "--format=json", prev]))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tools", required=True)
    ap.add_argument("--join", required=True,
                    choices=("parallel", "series", "stream"))
    ap.add_argument("--work")
    ap.add_argument("--capacity", action="append", default=[])
    ap.add_argument("kernels", nargs="+")
    args = ap.parse_args()
    tool = lambda t: os.path.join(args.tools, t)
    work = args.work or tempfile.mkdtemp(prefix="dan-floor.")
    os.makedirs(work, exist_ok=True)
    extra = ["--capacity=" + c for c in args.capacity]

    alone = []
    for k, path in enumerate(args.kernels):
        src = os.path.join(work, "k%d.dan" % k)
        fmt = ["--import=json"] if path.endswith(".json") else []
        run([tool("dan-translate"), path, "-o", src] + fmt + extra)
        alone.append(pipeline(tool, src, work, "k%d" % k, []))
    joined_src = os.path.join(work, "joined.dan")
    run([tool("dan-link"), "--join=" + args.join, "-o", joined_src] + extra +
        args.kernels)
    joined = pipeline(tool, joined_src, work, "joined", [])

    syncs = len(args.kernels) - 1 if args.join == "series" else 0
    checks = [
        ("extra DDR traffic", "extra_ddr_traffic", sum, 0),
        ("spill count", "spill_count", sum, 0),
        ("makespan", "makespan", sum, syncs),
    ]
    if args.join == "series":
        checks.append(("peak L1+UB", "peak_l1ub", max, 0))
    ok = True
    for name, key, combine, slack in checks:
        bound = combine(a[key] for a in alone) + slack
        got = joined[key]
        print("%s: %d <= %d: %s" % (name, got, bound,
                                    "yes" if got <= bound else "NO"))
        ok &= got <= bound
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
