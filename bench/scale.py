#!/usr/bin/env python3
"""How each tool's time and memory grow with the graph: wall time and peak RSS.

Usage: bench/scale.py [--build DIR] [--workloads DIR] [--sizes N,N,...]
                      [--family matmul|attention|conv] [--runs R] [--big-runs R]
                      [--timeout S] [--mpas-default-limit N]
                      [--alternate R] [--md]

For each size, dan-gen writes a graph of about that many nodes as contest
JSON, and the whole pipe runs on it: dan-translate --import=json, dan-mpas,
dan-dlr, dan-cpe, dan-verify, dan-replay (default options). dan-mpas runs
twice: with its defaults, on graphs of at most --mpas-default-limit nodes
(default: every size), whose order the rest of the pipe takes, and with one
fast configuration (--l0=single --weights=memory-first --order=tasks
--allocs=priority) for comparison, whose order the rest of the pipe takes
on graphs above the limit. The contest workloads follow, with the same
pipe. "pipe" is the sum of the six tools; below 200,000 nodes the default
pipe also runs as one Unix pipe ("unix pipe": translate | mpas | dlr | cpe
into a file, then verify and replay it). Every time is the least of
--runs runs (default 5) for graphs below 200,000 nodes and of --big-runs
runs (default 1) above: on a shared machine other tenants only ever add
time, so the least is the run they disturbed least (a median of three
still moved an exponent by 0.3 between runs of this script). Peak RSS is
the largest of the runs (from wait4). The growth exponent of each tool is
fitted between the two largest sizes: log(t2 / t1) / log(V2 / V1), V the
generated nodes. With --alternate R, the tools of the default pipe then run
again on those two graphs, alternately (one run on the smaller, one on the
larger, R times), so that both sizes meet the same spells of the machine,
and each tool's exponent follows from the median of the R ratios of a
pair's times (and, in brackets, from the least times).
It prints figures; it checks nothing (the tests do).
"""
import argparse
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FAST_MPAS = ["--l0=single", "--weights=memory-first", "--order=tasks", "--allocs=priority"]
PIPE = ("translate", "mpas", "dlr", "cpe", "verify", "replay")


def measure(cmd, timeout):
    """Wall seconds and peak RSS (MiB) of one run, or None on timeout."""
    start = time.perf_counter()
    with open(os.devnull, "w") as null:
        proc = subprocess.Popen(cmd, stdout=null, stderr=subprocess.PIPE)
        deadline = start + timeout
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() > deadline:
                proc.kill()
                os.wait4(proc.pid, 0)
                return None
            time.sleep(0.002)
    wall = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        sys.exit(f"failed ({code}): {' '.join(cmd)}\n{proc.stderr.read().decode()}")
    return wall, usage.ru_maxrss / 1024


def unix_pipe(b, src, out):
    """The default pipe on contest JSON `src` as one bash command line:
    translate | mpas | dlr | cpe into `out`, then verify and replay it."""
    return (f"set -o pipefail; {b('dan-translate')} --import=json {src} | {b('dan-mpas')}"
            f" | {b('dan-dlr')} | {b('dan-cpe')} > {out} && {b('dan-verify')} {out} > /dev/null"
            f" && {b('dan-replay')} {out} > /dev/null")


def best_run(cmd, runs, timeout):
    """The least wall time and the largest peak RSS over `runs` runs."""
    results = []
    for _ in range(runs):
        r = measure(cmd, timeout)
        if r is None:
            return None
        results.append(r)
    return (min(t for t, _ in results), max(m for _, m in results))


def shape(family, nodes):
    """dan-gen options for about `nodes` nodes."""
    if family == "matmul":
        t = max(1, round((nodes / 7.5) ** (1 / 3)))
        while 7 * t**3 + 9 * t**2 < nodes * 0.9:
            t += 1
        return [f"--m-tiles={t}", f"--n-tiles={t}", f"--k-tiles={t}"]
    if family == "conv":
        # Eight layers of 3x3 kernels: about 19 nodes per feature-map tile
        # and layer (dan-gen --family=conv --layers=8 --fmap-tiles=32: 4864).
        return ["--family=conv", "--layers=8",
                f"--fmap-tiles={max(1, round(nodes / (19 * 8)))}"]
    b = max(1, round(math.sqrt(nodes / 110)))
    return ["--family=attention", f"--q-blocks={b}", f"--kv-blocks={b}"]


def counts(path):
    """Nodes and edges of an IR file, counted from its text."""
    nodes = edges = 0
    with open(path) as f:
        for line in f:
            if " = " not in line:
                continue
            nodes += 1
            for key in (" after ", " reuse "):
                if key in line:
                    part = line.split(key, 1)[1].split(" reuse ")[0]
                    edges += part.count(",") + 1
    return nodes, edges


def pipe(b, src, tmp, tag, runs, timeout, mpas_default):
    """Runs the pipe on a JSON graph; returns {tool: (s, MiB) or None}."""
    p = lambda s: os.path.join(tmp, f"{tag}.{s}.dan")
    out = {}
    out["translate"] = best_run([b("dan-translate"), "--import=json", src, "-o", p("in")], runs, timeout)
    out["mpas default"] = (best_run([b("dan-mpas"), p("in"), "-o", p("s1d")], runs, timeout)
                           if mpas_default else "skipped")
    out["mpas"] = best_run([b("dan-mpas")] + FAST_MPAS + [p("in"), "-o", p("s1")], runs, timeout)
    # The rest of the pipe takes the default order when there is one.
    stage1 = p("s1d") if mpas_default and out["mpas default"] else p("s1")
    out["dlr"] = best_run([b("dan-dlr"), stage1, "-o", p("s2")], runs, timeout)
    out["cpe"] = best_run([b("dan-cpe"), p("s2"), "-o", p("s3")], runs, timeout)
    out["verify"] = best_run([b("dan-verify"), p("s3")], runs, timeout)
    out["replay"] = best_run([b("dan-replay"), p("s3")], runs, timeout)
    out["unix pipe"] = "skipped"
    if mpas_default and runs > 1:
        out["unix pipe"] = best_run(["bash", "-c", unix_pipe(b, src, p("u3"))], runs, timeout)
    out["V,E in"] = counts(p("in"))
    out["V,E plan"] = counts(p("s3"))
    out["stage 1"] = "mpas default" if stage1 == p("s1d") else "mpas"
    return out


def alternate(b, tmp, gen_rows, runs, timeout):
    """Runs the default pipe's tools on the two largest generated graphs
    alternately; returns {tool: (exponent of the median pair ratio,
    exponent of the least times)}."""
    if runs < 1 or len(gen_rows) < 2:
        return {}
    small, large = gen_rows[-2], gen_rows[-1]
    if small["stage 1"] != "mpas default" or large["stage 1"] != "mpas default":
        return {}
    def cmd(tool, tag):
        p = lambda s: os.path.join(tmp, f"{tag}.{s}.dan")
        return {"translate": [b("dan-translate"), "--import=json", os.path.join(tmp, tag + ".json"),
                              "-o", p("in")],
                "mpas default": [b("dan-mpas"), p("in"), "-o", p("s1d")],
                "dlr": [b("dan-dlr"), p("s1d"), "-o", p("s2")],
                "cpe": [b("dan-cpe"), p("s2"), "-o", p("s3")],
                "verify": [b("dan-verify"), p("s3")],
                "replay": [b("dan-replay"), p("s3")]}[tool]
    ratio = math.log(large["V,E in"][0] / small["V,E in"][0])
    out = {}
    for tool in ("translate", "mpas default", "dlr", "cpe", "verify", "replay"):
        t1, t2 = [], []
        for _ in range(runs):
            r1 = measure(cmd(tool, small["tag"]), timeout)
            r2 = measure(cmd(tool, large["tag"]), timeout)
            if r1 is None or r2 is None:
                break
            t1.append(r1[0])
            t2.append(r2[0])
        if len(t1) == runs and min(t1) > 0:
            pairs = statistics.median(b / a for a, b in zip(t1, t2))
            out[tool] = (math.log(pairs) / ratio, math.log(min(t2) / min(t1)) / ratio)
    return out


def fmt_time(r):
    if r == "skipped":
        return "not run"
    return "timeout" if r is None else f"{r[0]:.2f}"


def fmt_mem(r):
    return f"{r[1]:.0f}" if isinstance(r, tuple) else "-"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--workloads", default=os.path.join(ROOT, "data", "contest"))
    ap.add_argument("--sizes", default="10000,100000,1000000")
    ap.add_argument("--family", default="matmul",
                    choices=("matmul", "attention", "conv"))
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--big-runs", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=600)
    ap.add_argument("--mpas-default-limit", type=int, default=10**8)
    ap.add_argument("--alternate", type=int, default=0)
    ap.add_argument("--md", action="store_true", help="Markdown tables")
    args = ap.parse_args()
    b = lambda tool: os.path.join(args.build, "bin", tool)
    tools = ("gen", "translate", "mpas default", "mpas", "dlr", "cpe", "verify", "replay")
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for size in (int(s) for s in args.sizes.split(",")):
            opts = shape(args.family, size)
            src = os.path.join(tmp, f"g{size}.json")
            runs = args.runs if size < 200000 else args.big_runs
            gen = best_run([b("dan-gen"), "--format=json"] + opts + ["-o", src], runs, args.timeout)
            r = pipe(b, src, tmp, f"g{size}", runs, args.timeout, size <= args.mpas_default_limit)
            r["gen"] = gen
            r["tag"] = f"g{size}"
            rows.append((" ".join(opts), r))
        alternated = alternate(b, tmp, [r for _, r in rows], args.alternate, args.timeout)
        if os.path.isdir(args.workloads):
            for name in sorted(f[:-5] for f in os.listdir(args.workloads) if f.endswith(".json")):
                r = pipe(b, os.path.join(args.workloads, name + ".json"), tmp, name, args.runs,
                         args.timeout, True)
                r["gen"] = "skipped"
                rows.append((name, r))

    sep = " | " if args.md else "  "
    def line(cells):
        print(("| " if args.md else "") + sep.join(cells) + (" |" if args.md else ""))

    head = (["graph", "V in", "E in", "V+E plan"] + [f"{t} s" for t in tools] +
            ["pipe s", "unix pipe s"])
    line(head)
    if args.md:
        line(["---"] + ["---:"] * (len(head) - 1))
    for name, r in rows:
        v, e = r["V,E in"]
        vp, ep = r["V,E plan"]
        steps = [r["stage 1"] if t == "mpas" else t for t in PIPE]
        total = sum(r[t][0] for t in steps) if all(r[t] for t in steps) else None
        line([name, f"{v:,}", f"{e:,}", f"{vp + ep:,}"] + [fmt_time(r[t]) for t in tools] +
             ["timeout" if total is None else f"{total:.2f}", fmt_time(r["unix pipe"])])
    print()
    line(["graph"] + [f"{t} MiB" for t in tools])
    if args.md:
        line(["---"] + ["---:"] * len(tools))
    for name, r in rows:
        line([name] + [fmt_mem(r[t]) for t in tools])

    gen_rows = [r for name, r in rows if name.startswith("--")]
    if len(gen_rows) >= 2:
        (r1, r2) = gen_rows[-2], gen_rows[-1]
        v1, v2 = r1["V,E in"][0], r2["V,E in"][0]
        s1 = sum(r1["V,E plan"]); s2 = sum(r2["V,E plan"])
        print()
        print(f"growth exponent between {v1:,} and {v2:,} generated nodes: "
              "log(t2/t1) / log(V2/V1); against the planned graph's V+E "
              f"({s1:,} -> {s2:,}) in brackets")
        for t in tools:
            if isinstance(r1[t], tuple) and isinstance(r2[t], tuple) and r1[t][0] > 0:
                k = math.log(r2[t][0] / r1[t][0])
                print(f"  {t:13s} {k / math.log(v2 / v1):.2f} ({k / math.log(s2 / s1):.2f})")
            else:
                print(f"  {t:13s} n/a")
        if alternated:
            print()
            print(f"growth exponent against V, the two graphs timed alternately {args.alternate} "
                  "times: from the median ratio of a pair's times (from the least times)")
            for t, (pairs, least) in alternated.items():
                print(f"  {t:13s} {pairs:.2f} ({least:.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
