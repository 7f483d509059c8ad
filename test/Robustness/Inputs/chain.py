#!/usr/bin/env python3
"""Writes a long chain graph for the robustness tests, in canonical DAN IR
(what dan-translate prints, so a round trip compares with cmp) or as the
contest's CSV pair.

    chain.py ir  NODES OUT.dan
    chain.py csv NODES OUT_DIR     (writes OUT_DIR/Chain_Nodes.csv, _Edges.csv)

NODES is a multiple of 4. Buffer k is four nodes, each after the one before:
alloc bk UB 64, COPY_IN MTE2 80 (bk), COPY_OUT MTE3 80 (bk), free bk, so
every node depends on the previous one. By hand: one 64-byte buffer is live
at a time (peak L1+UB 64), nothing spills, and the makespan is 160 cycles
per buffer."""
import os
import sys


def ir(n, out):
    with open(out, "w") as f:
        w = f.write
        w("target davinci\n\ngraph @Chain {\n")
        for k in range(n // 4):
            i = 4 * k
            after = f" after n{i - 1}" if i else ""
            w(f"  n{i} = alloc b{k} UB 64{after}\n")
            w(f"  n{i + 1} = COPY_IN MTE2 80 (b{k}) after n{i}\n")
            w(f"  n{i + 2} = COPY_OUT MTE3 80 (b{k}) after n{i + 1}\n")
            w(f"  n{i + 3} = free b{k} UB 64 after n{i + 2}\n")
        w("}\n")


def csv(n, out):
    with open(os.path.join(out, "Chain_Nodes.csv"), "w") as f:
        w = f.write
        w("Id,Op,BufId,Size,Type,Pipe,Cycles,Bufs\n")
        for k in range(n // 4):
            i = 4 * k
            w(f"{i},ALLOC,{k},64,UB,,,\n")
            w(f"{i + 1},COPY_IN,,,,MTE2,80,[{k}]\n")
            w(f"{i + 2},COPY_OUT,,,,MTE3,80,[{k}]\n")
            w(f"{i + 3},FREE,{k},64,UB,,,\n")
    with open(os.path.join(out, "Chain_Edges.csv"), "w") as f:
        f.write("Src,Dst\n")
        f.writelines(f"{i},{i + 1}\n" for i in range(n - 1))


if __name__ == "__main__":
    kind, n, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    if n % 4:
        sys.exit("chain.py: NODES must be a multiple of 4")
    {"ir": ir, "csv": csv}[kind](n, out)
