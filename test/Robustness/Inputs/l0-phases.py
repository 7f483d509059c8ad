#!/usr/bin/env python3
"""Writes matmul tiles phase by phase for the robustness tests, in DAN IR:

    l0-phases.py TILES OUT.dan

Tile k has an L0A, an L0B and an L0C buffer of 64 bytes: a MOVE into each
input, a MATMUL of the three, a COPY_OUT of the L0C buffer, the frees. The
file lists every tile's allocs and MOVEs first, then every MATMUL, then
the stores and frees: an order that holds every tile's L0 buffers at once,
where L0A and L0B hold four tiles' and L0C eight. Stage 1's L0 gate lets a
tile's MOVEs run only once its group (the three buffers, for the MATMUL)
has room, so nearly every MOVE waits for room at some point."""
import sys


def main():
    tiles, out = int(sys.argv[1]), sys.argv[2]
    lines = ["graph @L0Phases {"]
    node = 0

    def add(text):
        nonlocal node
        lines.append(f"  n{node} = {text}")
        node += 1
        return node - 1

    moves, l0c = [], []
    for k in range(tiles):
        a, b, c = 3 * k, 3 * k + 1, 3 * k + 2
        alloc_a = add(f"alloc b{a} L0A 64")
        move_a = add(f"MOVE MTE1 10 (b{a}) after n{alloc_a}")
        alloc_b = add(f"alloc b{b} L0B 64")
        move_b = add(f"MOVE MTE1 10 (b{b}) after n{alloc_b}")
        moves.append((move_a, move_b))
        l0c.append(add(f"alloc b{c} L0C 64"))
    matmuls = []
    for k in range(tiles):
        a, b, c = 3 * k, 3 * k + 1, 3 * k + 2
        move_a, move_b = moves[k]
        matmuls.append(add(f"MATMUL CUBE 10 (b{c}, b{a}, b{b}) after "
                           f"n{move_a}, n{move_b}, n{l0c[k]}"))
    for k in range(tiles):
        a, b, c = 3 * k, 3 * k + 1, 3 * k + 2
        add(f"free b{a} L0A 64 after n{matmuls[k]}")
        add(f"free b{b} L0B 64 after n{matmuls[k]}")
        store = add(f"COPY_OUT FIXP 10 (b{c}) after n{matmuls[k]}")
        add(f"free b{c} L0C 64 after n{store}")
    lines.append("}")
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
