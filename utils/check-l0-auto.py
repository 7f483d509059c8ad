#!/usr/bin/env python3
"""Reads dan-mpas --stats on stdin and checks the --l0=auto rule: the kept
candidate (L0 mode and order, placed or not) has the least plan cost
(makespan + BETA * stage-2 traffic; BETA the first argument, default 2, the
default spill cost's), then the least traffic, the lowest makespan and the
lowest peak, ties to the earlier candidate. Prints the kept mode and order, and "not placed" when the kept
order skipped the placement step."""
import re
import sys

beta = int(sys.argv[1]) if len(sys.argv) > 1 else 2
trials = []
for line in sys.stdin:
    m = re.search(r"tried l0 (\w+), order ([\w ]+?)(, not placed)?: "
                  r"peak L1\+UB (\d+), "
                  r"stage-2 traffic (\d+), makespan (\d+)( \(kept\))?", line)
    if m:
        traffic, makespan = int(m[5]), int(m[6])
        trials.append((makespan + beta * traffic, traffic, makespan, int(m[4]),
                       len(trials), m[1], m[2] + (", not placed" if m[3] else ""),
                       bool(m[7])))
# Nine candidates at most, and the unplaced orders of the best two.
if not 1 <= len(trials) <= 11:
    sys.exit(f"expected 1 to 11 trials, got {len(trials)}")
best = min(trials)
kept = [t for t in trials if t[7]]
if len(kept) != 1 or kept[0] != best:
    sys.exit(f"kept {kept} but the rule picks {best}")
print("kept", best[5], "order", best[6], "of", len(trials))
