#!/usr/bin/env python3
"""The whole default pipe on one graph, many times: how its wall time spreads.

Usage: bench/pipe-series.py [--build DIR] [--runs N] [--limit S] [--gap S] GRAPH.json

Runs, --runs times (default 21), the default pipe as one Unix pipe:
dan-translate --import=json | dan-mpas | dan-dlr | dan-cpe into a file, then
dan-verify and dan-replay on it, and prints each run's wall time, then the
least, the median and the largest, and how many runs finished under --limit
seconds (default 1). --gap seconds (default 0) pass between runs, so that a
series can span the slow and the fast spells of a shared machine. Every run
must succeed and give the same bytes. It prints figures; it checks nothing
else (the tests do).
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

from scale import unix_pipe

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("graph")
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--runs", type=int, default=21)
    ap.add_argument("--limit", type=float, default=1.0)
    ap.add_argument("--gap", type=float, default=0.0)
    args = ap.parse_args()
    b = lambda tool: os.path.join(args.build, "bin", tool)
    times = []
    first = None
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "plan.dan")
        cmd = unix_pipe(b, args.graph, out)
        for i in range(args.runs):
            if i and args.gap:
                time.sleep(args.gap)
            start = time.perf_counter()
            proc = subprocess.run(["bash", "-c", cmd], stderr=subprocess.PIPE)
            wall = time.perf_counter() - start
            if proc.returncode != 0:
                sys.exit(f"run {i + 1} failed ({proc.returncode}):\n{proc.stderr.decode()}")
            with open(out, "rb") as f:
                data = f.read()
            if first is None:
                first = data
            elif data != first:
                sys.exit(f"run {i + 1} wrote different bytes")
            times.append(wall)
            print(f"run {i + 1:3d}: {wall:.3f} s", flush=True)
    under = sum(t < args.limit for t in times)
    print(f"{os.path.basename(args.graph)}: {len(times)} runs, least {min(times):.3f} s, "
          f"median {statistics.median(times):.3f} s, largest {max(times):.3f} s, "
          f"{under} of {len(times)} under {args.limit:g} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
