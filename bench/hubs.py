#!/usr/bin/env python3
"""Buffers whose uses only a hub orders: the path searches of the verifier
(every stage's input check) and of dan-translate --add-lifetime-edges.

Usage: bench/hubs.py [--build DIR] [--tiles K,K,...] [--runs R]
                     [--timeout S]

The graph: K tiles, each loaded into its own UB buffer (alloc, COPY_IN),
one SYNC after every load, and each tile stored after the SYNC (COPY_OUT,
free): 4K + 1 nodes. No edge joins a buffer's alloc to its store, nor its
load to its free; the paths run through the SYNC. For each K (default
25,000 and 250,000: about 1e5 and 1e6 nodes) dan-verify and dan-translate
--add-lifetime-edges run on it, each time the least of --runs runs
(default 3), peak RSS the largest; then each tool's growth exponent
between the two largest sizes, log(t2 / t1) / log(V2 / V1). A search that
expanded the SYNC once per buffer grew with the square of K.
It prints figures; it checks nothing (the tests do).
"""
import argparse
import math
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from scale import measure  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def write_tiles(path, k):
    """The graph of K tiles around one SYNC, as DAN IR."""
    with open(path, "w") as f:
        w = f.write
        w("graph @TilesAroundASync {\n")
        for i in range(k):
            w(f"  n{i} = alloc b{i} UB 1\n")
            w(f"  n{k + i} = COPY_IN MTE2 10 (b{i}) after n{i}\n")
        sync = 3 * k
        w(f"  n{sync} = SYNC VECTOR 1 () after "
          + ", ".join(f"n{k + i}" for i in range(k)) + "\n")
        for i in range(k):
            w(f"  n{sync + 1 + i} = COPY_OUT MTE3 10 (b{i}) after n{sync}\n")
            w(f"  n{sync + 1 + k + i} = free b{i} UB 1 after "
              f"n{sync + 1 + i}\n")
        w("}\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--tiles", default="25000,250000")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--timeout", type=float, default=600)
    args = ap.parse_args()
    b = lambda tool: os.path.join(args.build, "bin", tool)  # noqa: E731
    sizes = [int(k) for k in args.tiles.split(",")]
    tools = {
        "dan-verify": lambda g: [b("dan-verify"), g],
        "add-lifetime-edges": lambda g: [b("dan-translate"),
                                         "--add-lifetime-edges", g, "-o",
                                         os.devnull],
    }
    tmp = tempfile.mkdtemp(prefix="dan-hubs.")
    rows = {}
    print(f"{'tiles':>8} {'nodes':>9} {'tool':<20} {'seconds':>8} "
          f"{'peak MiB':>9}")
    for k in sizes:
        g = os.path.join(tmp, f"tiles{k}.dan")
        write_tiles(g, k)
        for name, cmd in tools.items():
            runs = [measure(cmd(g), args.timeout) for _ in range(args.runs)]
            if None in runs:
                print(f"{k:>8} {4 * k + 1:>9} {name:<20} timed out")
                continue
            t, m = min(r[0] for r in runs), max(r[1] for r in runs)
            rows[(k, name)] = t
            print(f"{k:>8} {4 * k + 1:>9} {name:<20} {t:>8.2f} {m:>9.0f}")
        os.remove(g)
    os.rmdir(tmp)
    if len(sizes) >= 2:
        k1, k2 = sizes[-2], sizes[-1]
        for name in tools:
            if (k1, name) in rows and (k2, name) in rows:
                e = math.log(rows[(k2, name)] / rows[(k1, name)]) / \
                    math.log((4 * k2 + 1) / (4 * k1 + 1))
                print(f"growth exponent of {name} from {k1} to {k2} tiles: "
                      f"{e:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
