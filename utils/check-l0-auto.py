#!/usr/bin/env python3
"""Reads dan-mpas --stats on stdin and checks the --l0=auto rule: the kept
candidate (L0 mode and order) has the least stage-2 traffic, then the lowest
makespan, then the lowest peak, ties to the earlier candidate. Prints the
kept mode and order."""
import re
import sys

trials = []
for line in sys.stdin:
    m = re.search(r"tried l0 (\w+), order ([\w ]+?): peak L1\+UB (\d+), "
                  r"stage-2 traffic (\d+), makespan (\d+)( \(kept\))?", line)
    if m:
        trials.append((int(m[4]), int(m[5]), int(m[3]), len(trials), m[1], m[2],
                       bool(m[6])))
if not 1 <= len(trials) <= 9:
    sys.exit(f"expected 1 to 9 trials, got {len(trials)}")
best = min(trials)
kept = [t for t in trials if t[6]]
if len(kept) != 1 or kept[0] != best:
    sys.exit(f"kept {kept} but the rule picks {best}")
print("kept", best[4], "order", best[5], "of", len(trials))
