#!/usr/bin/env python3
"""Checks the arithmetic of a dan-bench --format=json report.

For every graph: each method's normalized value is value / base (0 / 0 = 1,
x / 0 = null); best_external is the external method with the smallest value,
the first in table order on a tie; dan_margin is 1 - dan / best external and
dan_vs_base 1 - dan / base (null when infinite or missing); the averages are
the means of the finite values. Prints one line per graph checked.
"""
import json
import math
import sys

KEYS = ("peak_l1ub", "extra_ddr_traffic", "spill_count", "makespan")
EXTERNAL = ("hmcos", "cosma", "magis", "eda")


def ratio(v, b):
    if b == 0:
        return 1.0 if v == 0 else math.inf
    return v / b


def same(a, b):
    if b is None or math.isinf(b):
        return a is None
    return a is not None and abs(a - b) <= 1e-12 * max(1.0, abs(b))


def main():
    report = json.load(open(sys.argv[1]))
    methods = report["methods"]
    errors = 0

    def fail(msg):
        nonlocal errors
        errors += 1
        print("FAIL:", msg)

    sums = {k: ([], []) for k in KEYS}
    for w in report["workloads"]:
        res = w["results"]
        assert list(res) == methods, (list(res), methods)
        base = res["base"] if res["base"]["ok"] else None
        dan = res.get("dan") if res.get("dan", {}).get("ok") else None
        for m in methods:
            r = res[m]
            if not r["ok"]:
                if "normalized" in r:
                    fail(f"{w['graph']} {m}: a failed cell has figures")
                continue
            for k in KEYS:
                want = ratio(r[k], base[k]) if base else None
                if not same(r["normalized"][k], want):
                    fail(f"{w['graph']} {m} {k}: normalized {r['normalized'][k]}, want {want}")
        for k in KEYS:
            best = None
            for m in methods:
                if m in EXTERNAL and res[m]["ok"] and (best is None or res[m][k] < res[best][k]):
                    best = m
            if w["best_external"][k] != best:
                fail(f"{w['graph']} {k}: best external {w['best_external'][k]}, want {best}")
            margin = 1 - ratio(dan[k], res[best][k]) if dan and best else None
            if not same(w["dan_margin"][k], margin):
                fail(f"{w['graph']} {k}: margin {w['dan_margin'][k]}, want {margin}")
            vs = 1 - ratio(dan[k], base[k]) if dan and base else None
            if not same(w["dan_vs_base"][k], vs):
                fail(f"{w['graph']} {k}: dan_vs_base {w['dan_vs_base'][k]}, want {vs}")
            if margin is not None and not math.isinf(margin):
                sums[k][1].append(margin)
            if vs is not None and not math.isinf(vs):
                sums[k][0].append(vs)
        print(f"checked {w['graph']}: {len(methods)} methods")
    for k in KEYS:
        for name, vals in (("dan_vs_base", sums[k][0]), ("dan_margin", sums[k][1])):
            got = report["average"][name][k]
            want = sum(vals) / len(vals) if vals else None
            if got["graphs"] != len(vals) or not same(got["mean"], want):
                fail(f"average {name} {k}: {got}, want {want} over {len(vals)}")
    print("arithmetic: ok" if not errors else f"arithmetic: {errors} errors")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
