"""kernels-check.py ONE.json K.json K STAGE1-ONE.json STAGE1-K.json

Checks that K kernels in one graph, through the default pipeline, are no
worse than one kernel planned K times in turn: the stage-1 peak at most one
kernel's, the traffic at most K times one kernel's, the makespan at most K
times one kernel's. Each file is dan-replay --format=json output."""
import json
import sys

one, many, k, s1_one, s1_many = sys.argv[1:6]
one, many = json.load(open(one)), json.load(open(many))
k = int(k)
peak_one = json.load(open(s1_one))["peak_l1ub"]
peak_many = json.load(open(s1_many))["peak_l1ub"]
checks = [
    ("stage-1 peak", peak_many, peak_one),
    ("traffic", many["extra_ddr_traffic"], k * one["extra_ddr_traffic"]),
    ("makespan", many["makespan"], k * one["makespan"]),
]
ok = True
for name, got, bound in checks:
    print("%s: %d <= %d: %s" % (name, got, bound, "yes" if got <= bound else "NO"))
    ok &= got <= bound
sys.exit(0 if ok else 1)
