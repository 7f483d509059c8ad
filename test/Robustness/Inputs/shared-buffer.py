#!/usr/bin/env python3
"""Writes a graph where one buffer is used by many operations and spilled
between each two of them, for the robustness tests, in DAN IR:

    shared-buffer.py USES OUT.dan

b0 (UB 400) is read by USES VADDs, each with a buffer of its own (UB 400);
after each VADD, a VMUL needs two other UB 400 buffers, which do not fit
beside b0 (UB holds 1024 bytes), so stage 2 spills b0 around every VMUL:
about 2 * USES spill nodes of one buffer that USES operations use. The
lifetime edges are left to dan-translate --add-lifetime-edges."""
import sys


def main():
    uses, out = int(sys.argv[1]), sys.argv[2]
    lines = ["graph @SharedBuffer {", "  n0 = alloc b0 UB 400"]
    node, buf, prev = 1, 1, None

    def add(text):
        nonlocal node
        lines.append(f"  n{node} = {text}")
        node += 1
        return node - 1

    for _ in range(uses):
        after = f" after n{prev}" if prev is not None else ""
        add(f"alloc b{buf} UB 400")
        vadd = add(f"VADD VECTOR 10 (b0, b{buf}){after}")
        add(f"free b{buf} UB 400")
        add(f"alloc b{buf + 1} UB 400")
        add(f"alloc b{buf + 2} UB 400")
        prev = add(f"VMUL VECTOR 10 (b{buf + 1}, b{buf + 2}) after n{vadd}")
        add(f"free b{buf + 1} UB 400")
        add(f"free b{buf + 2} UB 400")
        buf += 3
    add("free b0 UB 400")
    lines.append("}")
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
