"""Checks the --stats of dan-mpas (--order=auto) or of dan-dlr (--fit=auto,
--horizon=auto) against their selection rule.

Usage: check-selection.py BETA [--kept-traffic-above-least | --kept-least-traffic] < stats

Every 'tried' candidate line gives traffic and makespan (dan-mpas: and the
peak); the kept one must be the first with the least (makespan + BETA *
traffic, traffic, makespan, peak). With --kept-traffic-above-least the kept candidate must
also have more traffic than some other candidate (the rule traded bytes
for cycles); with --kept-least-traffic it must have the least.
"""
import re
import sys

beta = int(sys.argv[1])
pat = re.compile(r"tried .*: (?:peak L1\+UB (\d+), stage-2 )?traffic (\d+), "
                 r"makespan (\d+)( \(kept\))?$")
rows = []
for line in sys.stdin:
    m = pat.search(line.rstrip("\n"))
    if m:
        peak, traffic, makespan = (int(g or 0) for g in m.group(1, 2, 3))
        rows.append(((makespan + beta * traffic, traffic, makespan, peak),
                     bool(m.group(4))))
if len(rows) < 2:
    sys.exit("fewer than two candidates")
kept = [i for i, (_, k) in enumerate(rows) if k]
best = min(range(len(rows)), key=lambda i: (rows[i][0], i))
if kept != [best]:
    sys.exit(f"kept {kept}, the rule picks {best}: {rows}")
least = min(key[1] for key, _ in rows)
if "--kept-traffic-above-least" in sys.argv and rows[best][0][1] <= least:
    sys.exit(f"the kept candidate has the least traffic ({least})")
if "--kept-least-traffic" in sys.argv and rows[best][0][1] != least:
    sys.exit(f"the kept candidate has more than the least traffic ({least})")
print(f"kept candidate {best} of {len(rows)}")
