#!/usr/bin/env python3
"""dan-mpas's selection on a sample against the whole selection.

Usage: bench/sample.py [--build DIR] [--shapes SHAPE,SHAPE,...] [--runs R]
                       [--md]

On a graph of more than --sample-above nodes (default 200,000) whose tasks
form no reuse grid, or that has no tasks, dan-mpas ranks its candidates on
the graph of the first tasks (or the first operations) and orders and plans
only the best two on the whole graph, each with the weighting it won with
(docs/MPAS.md, "Large graphs"). For each shape dan-gen writes a graph (Q:KV:
an attention graph of Q query blocks and KV key blocks, which has tasks;
conv:L:T: a conv graph of L layers of T feature-map tiles, which has none),
and dan-mpas runs with its defaults and
with --sample-above=0 (the whole selection), each --runs times (default 1),
alternately. It prints, for each: the nodes, the setting kept, the plan
cost of its order (makespan + beta * stage-2 traffic, as the selection
ranks it), the least wall time of each, and whether the two orders are the
same bytes. It checks nothing (the tests do).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHAPES = ("25:200,43:43,40:120,60:60,95:95,120:40,200:25,"
          "conv:8:1500,conv:4:3000,conv:2:6000")


def run_mpas(mpas, graph, flags, out):
    """The wall time and the kept trial of one run."""
    start = time.perf_counter()
    proc = subprocess.run([mpas, graph, "--stats-json", "-o", out] + flags,
                          capture_output=True)
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit(f"failed ({proc.returncode}): dan-mpas {graph} {flags}\n"
                 f"{proc.stderr.decode(errors='replace')}")
    stats = json.loads(proc.stderr)
    kept = next(c for c in stats["candidates"] if c["kept"])
    return elapsed, kept, stats.get("sample")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--shapes", default=SHAPES)
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--beta", type=int, default=2,
                    help="the spill cost's cycles per byte (default 2, the "
                         "default target's)")
    ap.add_argument("--md", action="store_true")
    args = ap.parse_args()
    b = lambda tool: os.path.join(args.build, "bin", tool)
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        graph = os.path.join(tmp, "g.dan")
        for shape in args.shapes.split(","):
            parts = shape.split(":")
            if parts[0] == "conv":
                gen = ["--family=conv", f"--layers={parts[1]}",
                       f"--fmap-tiles={parts[2]}"]
            else:
                gen = ["--family=attention", f"--q-blocks={parts[0]}",
                       f"--kv-blocks={parts[1]}"]
            subprocess.run([b("dan-gen")] + gen + ["-o", graph], check=True)
            with open(graph) as f:
                nodes = sum(1 for line in f if line.lstrip().startswith("n"))
            best = {}
            outs = {}
            for _ in range(args.runs):
                for label, flags in (("sample", []),
                                     ("whole", ["--sample-above=0"])):
                    out = os.path.join(tmp, label + ".dan")
                    t, kept, sample = run_mpas(b("dan-mpas"), graph, flags,
                                               out)
                    prev = best.get(label)
                    best[label] = (min(t, prev[0]) if prev else t, kept,
                                   sample)
                    with open(out, "rb") as f:
                        outs[label] = f.read()
            rows.append((shape, nodes, best, outs["sample"] == outs["whole"]))

    def setting(kept):
        return kept["l0"] + ", " + kept["order"] + (
            "" if kept["placed"] else ", not placed")

    def cost(kept):
        return kept["makespan"] + args.beta * kept["stage2_traffic"]

    head = ["shape", "nodes", "sample tasks", "kept (sample)", "cost",
            "s", "kept (whole)", "cost", "s", "same"]
    lines = []
    for shape, nodes, best, same in rows:
        ts, ks, sample = best["sample"]
        tw, kw, _ = best["whole"]
        lines.append([shape, f"{nodes:,}",
                      (str(sample.get("tasks", "no tasks")) if sample
                       else "none"),
                      setting(ks), f"{cost(ks):,}", f"{ts:.2f}",
                      setting(kw), f"{cost(kw):,}", f"{tw:.2f}",
                      "yes" if same else "no"])
    if args.md:
        print("| " + " | ".join(head) + " |")
        print("| " + " | ".join("---" for _ in head) + " |")
        for line in lines:
            print("| " + " | ".join(line) + " |")
    else:
        widths = [max(len(r[i]) for r in [head] + lines)
                  for i in range(len(head))]
        for line in [head] + lines:
            print("  ".join(c.ljust(w) for c, w in zip(line, widths)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
