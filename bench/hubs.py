#!/usr/bin/env python3
"""Graphs with a hub, a node or buffer that all of K tiles pass through:
each tool that once spent the hub's size per tile, and so grew with K^2.

Usage: bench/hubs.py [--build DIR] [--sync-tiles K,K,...]
                     [--bias-tiles K,K,...] [--chain-tiles K,K,...]
                     [--runs R] [--timeout S]

Three shapes, each at K tiles (default 25,000 and 250,000 for the first
and the last, 33,333 and 333,333 for the second: about 1e5 and 1e6
nodes):
  - sync: each tile loaded into its own UB buffer (alloc, COPY_IN), one
    SYNC after every load, each tile stored after the SYNC (COPY_OUT,
    free): 4K + 1 nodes. No edge joins a buffer's alloc to its store, nor
    its load to its free; the paths run through the SYNC. Timed: dan-verify
    (every stage's input check runs the same path search) and
    dan-translate --add-lifetime-edges.
  - bias: one L1 tile loaded once and read by every tile's VADD (alloc,
    VADD, free of the tile's own UB buffer), its free after all of them:
    3K + 3 nodes. Timed: dan-mpas (its task finder groups the buffers by
    their readers) and dan-verify --against the stage-2 file of the
    default pipe (the free has K predecessors).
  - chain: K buffers whose allocs form a chain (each after the one
    before), one VADD per buffer in a chain after the last alloc, one VMUL
    per buffer in a chain after the last VADD, then the frees: 4K nodes.
    An alloc reaches its VADD, and a VADD the VMUL of its buffer, only
    along the chains, so each buffer's path searches would walk them.
    Timed: dan-verify (the lifetime check and the lint) and dan-translate
    --add-lifetime-edges.
Each time is the least of --runs runs (default 3), peak RSS the largest;
then each tool's growth exponent between the two largest sizes of its
shape, log(t2 / t1) / log(V2 / V1).
It prints figures; it checks nothing (the tests do).
"""
import argparse
import math
import os
import subprocess
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


def write_bias(path, k):
    """The graph of K tiles that read one bias tile, as DAN IR."""
    with open(path, "w") as f:
        w = f.write
        w("graph @TilesReadingABias {\n")
        w("  n0 = alloc b0 L1 64\n  n1 = COPY_IN MTE2 10 (b0) after n0\n")
        for i in range(1, k + 1):
            a = 3 * i - 1
            w(f"  n{a} = alloc b{i} UB 16\n")
            w(f"  n{a + 1} = VADD VECTOR 10 (b{i}, b0) after n{a}, n1\n")
            w(f"  n{a + 2} = free b{i} UB 16 after n{a + 1}\n")
        w(f"  n{3 * k + 2} = free b0 L1 64 after "
          + ", ".join(f"n{3 * i}" for i in range(1, k + 1)) + "\n}\n")


def write_chain(path, k):
    """The graph of K allocs chained before their two uses, as DAN IR."""
    with open(path, "w") as f:
        w = f.write
        w("graph @AllocsChained {\n  n0 = alloc b0 UB 1\n")
        for i in range(1, k):
            w(f"  n{i} = alloc b{i} UB 1 after n{i - 1}\n")
        for i in range(k):
            w(f"  n{k + i} = VADD VECTOR 1 (b{i}) after n{k + i - 1}\n")
        for i in range(k):
            w(f"  n{2 * k + i} = VMUL VECTOR 1 (b{i}) "
              f"after n{2 * k + i - 1}\n")
        for i in range(k):
            w(f"  n{3 * k + i} = free b{i} UB 1 after n{2 * k + i}\n")
        w("}\n")


def timed(cmd, runs, timeout):
    """The least wall seconds and the largest peak MiB of `runs` runs of
    `cmd`, or None when one timed out."""
    results = [measure(cmd, timeout) for _ in range(runs)]
    if None in results:
        return None
    return min(r[0] for r in results), max(r[1] for r in results)


def prepare_bias(b, g, tmp):
    """The stage-2 and stage-3 files of `g` under the default pipe."""
    s2, s3 = os.path.join(tmp, "s2.dan"), os.path.join(tmp, "s3.dan")
    subprocess.run(f"{b('dan-mpas')} {g} | {b('dan-dlr')} -o {s2}",
                   shell=True, check=True)
    subprocess.run([b("dan-cpe"), s2, "-o", s3], check=True)
    return s2, s3


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--sync-tiles", default="25000,250000")
    ap.add_argument("--bias-tiles", default="33333,333333")
    ap.add_argument("--chain-tiles", default="25000,250000")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--timeout", type=float, default=600)
    args = ap.parse_args()
    b = lambda tool: os.path.join(args.build, "bin", tool)  # noqa: E731
    shapes = {
        "sync": ([int(k) for k in args.sync_tiles.split(",")],
                 lambda k: 4 * k + 1, write_tiles, {
                     "dan-verify": lambda g, tmp: [b("dan-verify"), g],
                     "add-lifetime-edges": lambda g, tmp: [
                         b("dan-translate"), "--add-lifetime-edges", g, "-o",
                         os.devnull],
                 }),
        "bias": ([int(k) for k in args.bias_tiles.split(",")],
                 lambda k: 3 * k + 3, write_bias, {
                     "dan-mpas": lambda g, tmp: [b("dan-mpas"), g, "-o",
                                                 os.devnull],
                     "dan-verify --against": lambda g, tmp: [
                         b("dan-verify"), "--against=" + tmp[0], tmp[1]],
                 }),
        "chain": ([int(k) for k in args.chain_tiles.split(",")],
                  lambda k: 4 * k, write_chain, {
                      "dan-verify": lambda g, tmp: [b("dan-verify"), g],
                      "add-lifetime-edges": lambda g, tmp: [
                          b("dan-translate"), "--add-lifetime-edges", g,
                          "-o", os.devnull],
                  }),
    }
    tmp = tempfile.mkdtemp(prefix="dan-hubs.")
    print(f"{'shape':<6} {'tiles':>8} {'nodes':>9} {'tool':<22} "
          f"{'seconds':>8} {'peak MiB':>9}")
    growth = []
    for shape, (sizes, nodes, write, tools) in shapes.items():
        rows = {}
        for k in sizes:
            g = os.path.join(tmp, f"{shape}{k}.dan")
            write(g, k)
            files = prepare_bias(b, g, tmp) if shape == "bias" else None
            for name, cmd in tools.items():
                r = timed(cmd(g, files), args.runs, args.timeout)
                if r is None:
                    print(f"{shape:<6} {k:>8} {nodes(k):>9} {name:<22} "
                          "timed out")
                    continue
                rows[(k, name)] = r[0]
                print(f"{shape:<6} {k:>8} {nodes(k):>9} {name:<22} "
                      f"{r[0]:>8.2f} {r[1]:>9.0f}")
            for f in [g] + list(files or []):
                os.remove(f)
        if len(sizes) >= 2:
            k1, k2 = sizes[-2], sizes[-1]
            for name in tools:
                if (k1, name) in rows and (k2, name) in rows:
                    e = math.log(rows[(k2, name)] / rows[(k1, name)]) / \
                        math.log(nodes(k2) / nodes(k1))
                    growth.append(f"growth exponent of {name} on {shape}, "
                                  f"{k1} to {k2} tiles: {e:.2f}")
    os.rmdir(tmp)
    print("\n".join(growth))
    return 0


if __name__ == "__main__":
    sys.exit(main())
