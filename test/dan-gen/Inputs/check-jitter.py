"""Checks that every cycle count of the jittered graph lies within +-PERCENT
of the same node's count without jitter, and that some changed."""
import re
import sys

OP = re.compile(r"^\s*n(\d+) = \S+ \S+ (\d+) \(")


def cycles(path):
    found = {}
    with open(path) as f:
        for line in f:
            m = OP.match(line)
            if m:
                found[int(m.group(1))] = int(m.group(2))
    return found


base, jittered, percent = cycles(sys.argv[1]), cycles(sys.argv[2]), int(sys.argv[3])
assert base.keys() == jittered.keys(), "different operations"
changed = 0
for node, c in base.items():
    j = jittered[node]
    assert abs(j - c) <= c * percent / 100, f"n{node}: {j} is not within {percent}% of {c}"
    changed += j != c
assert changed > len(base) // 2, f"only {changed} of {len(base)} changed"
print(f"ok: {changed} of {len(base)} cycle counts moved")
