#!/usr/bin/env python3
"""Reads dan-mpas --stats on stdin and checks the --l0=auto rule: the kept
mode has the least stage-2 traffic, then the lowest makespan, then the
lowest peak, ties to the earlier mode. Prints the kept mode."""
import re
import sys

trials = []
for line in sys.stdin:
    m = re.search(r"tried l0 (\w+): peak L1\+UB (\d+), stage-2 traffic (\d+), "
                  r"makespan (\d+)( \(kept\))?", line)
    if m:
        trials.append((int(m[3]), int(m[4]), int(m[2]), len(trials), m[1], bool(m[5])))
if len(trials) != 2:
    sys.exit(f"expected 2 trials, got {len(trials)}")
best = min(trials)
kept = [t for t in trials if t[5]]
if len(kept) != 1 or kept[0] != best:
    sys.exit(f"kept {kept} but the rule picks {best}")
print("kept", best[4])
