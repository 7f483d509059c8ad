#!/usr/bin/env python3
"""Writes a graph for the lint's path searches past their budget, in DAN IR:

    lint-chain.py K OUT.dan

K buffers (b0 .. bK-1, UB 1 byte) whose allocs form a chain (each after the
one before); each buffer's first use (VADD) in a second chain after the
last alloc; its second use (VMUL) in a third chain after the last VADD;
each free after its VMUL. A first use reaches its buffer's second use only
along the chains, longer than a search's budget once K passes a few
hundred. Then:
  - EXP uses b3 and bK after the last alloc only: no path orders it after
    b3's first use (a question left to the end) nor after bK's (a search
    that ends at once): two warnings at one node, b3's first;
  - bK (alloc, COPY_IN, free) is the graph's last buffer.
"""
import sys


def main():
    k, out = int(sys.argv[1]), sys.argv[2]
    lines = ["graph @LintChain {", "  n0 = alloc b0 UB 1"]
    for i in range(1, k):
        lines.append(f"  n{i} = alloc b{i} UB 1 after n{i - 1}")
    for i in range(k):
        lines.append(f"  n{k + i} = VADD VECTOR 1 (b{i}) after n{k + i - 1}")
    for i in range(k):
        lines.append(f"  n{2 * k + i} = VMUL VECTOR 1 (b{i}) "
                     f"after n{2 * k + i - 1}")
    last = 3 * k
    lines.append(f"  n{last} = alloc b{k} UB 1")
    lines.append(f"  n{last + 1} = COPY_IN MTE2 1 (b{k}) after n{last}")
    lines.append(f"  n{last + 2} = EXP VECTOR 1 (b3, b{k}) "
                 f"after n{k - 1}, n{last}")
    lines.append(f"  n{last + 3} = free b{k} UB 1 after n{last + 1}, "
                 f"n{last + 2}")
    for i in range(k):
        extra = f", n{last + 2}" if i == 3 else ""
        lines.append(f"  n{last + 4 + i} = free b{i} UB 1 "
                     f"after n{2 * k + i}{extra}")
    lines.append("}")
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
