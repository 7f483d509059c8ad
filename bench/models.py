#!/usr/bin/env python3
"""Models, not kernels: graphs of several kernels against the kernels alone.

Usage: bench/models.py [--build DIR] [--workloads DIR] [--quick] [--md]
                       [--update FILE]

For each graph of issue 36's table (contest workloads joined by dan-link)
and each of the three joins (side by side, one after another, streamed),
and for the transformer model of dan-gen at two sizes, the default pipeline
(dan-mpas | dan-dlr | dan-cpe, tool by tool) plans the joined graph and
dan-replay measures it; every kernel is also planned alone by the same
pipeline. It prints, per graph and join: the nodes; extra DDR traffic, spill
count and makespan against the sums of the kernels alone; peak L1+UB
against the largest kernel's; the composed lower bound (the busiest pipe's
work summed over the kernels as each is planned alone, or the longest
critical path if larger) against the sum of makespans, and the makespan
against it; and the wall seconds of each stage tool on the joined graph.
The kernels of a model are its units (docs/Kernels.md), cut out of the
generated graph here. --quick runs the first graph and the smaller model
only. --update FILE writes the Markdown table (--md) into FILE between the
lines <!-- bench/models.py --md: begin --> and <!-- bench/models.py --md:
end --> (docs/Results.md keeps it so). It prints figures; it checks nothing
(the tests do: test/Pipeline/kernels.test).
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GRAPHS = [
    ["Matmul_Case0", "Matmul_Case0"],
    ["FlashAttention_Case0", "FlashAttention_Case0"],
    ["Matmul_Case1", "Matmul_Case1"],
    ["Matmul_Case0", "Conv_Case0"],
    ["Matmul_Case0", "FlashAttention_Case0", "Conv_Case0",
     "FlashAttention_Case1"],
    ["FlashAttention_Case0", "FlashAttention_Case1", "Matmul_Case0",
     "Conv_Case0", "Matmul_Case1"],
]
JOINS = ("parallel", "series", "stream")
JOIN_NAMES = {"parallel": "side by side", "series": "one after another",
              "stream": "streamed"}
MODELS = [("transformer 1e5", ["--layers=3", "--seq-blocks=12",
                               "--hidden-tiles=4"]),
          ("transformer 1e6", ["--layers=15", "--seq-blocks=16",
                               "--hidden-tiles=4"])]
BEGIN = "<!-- bench/models.py --md: begin -->"
END = "<!-- bench/models.py --md: end -->"


def run(cmd, **kw):
    proc = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if proc.returncode:
        sys.exit(" ".join(cmd) + " failed:\n" + proc.stderr)
    return proc.stdout


def pipeline(b, src, work, tag):
    """The default pipeline tool by tool; each tool's seconds, the replay."""
    seconds = {}
    prev = src
    for stage in ("mpas", "dlr", "cpe"):
        out = os.path.join(work, "%s.%s.dan" % (tag, stage))
        start = time.perf_counter()
        run([b("dan-" + stage), prev, "-o", out])
        seconds[stage] = time.perf_counter() - start
        prev = out
    metrics = json.loads(run([b("dan-replay"), "--format=json", prev]))
    return seconds, metrics


NODE_RE = re.compile(r"^\s*n(\d+) = (.*?)(?: after ([n0-9, ]+))?$")


def split_kernels(path, work, tag):
    """The kernels of an IR file (nodes joined by a buffer), each written as
    an IR file of its own with the edges inside it; their paths."""
    lines = open(path).read().split("\n")
    header = [l for l in lines[:lines.index(next(l for l in lines
                                                  if l.startswith("graph")))]]
    stmts = []
    for l in lines:
        m = NODE_RE.match(l)
        if m:
            stmts.append((int(m.group(1)), m.group(2),
                          [int(p.strip()[1:]) for p in m.group(3).split(",")]
                          if m.group(3) else []))
    parent = {}

    def find(x):
        while parent.get(x, x) != x:
            parent[x] = parent.get(parent[x], parent[x])
            x = parent[x]
        return x

    owner = {}
    for nid, body, _ in stmts:
        parent.setdefault(nid, nid)
        for buf in re.findall(r"\bb(\d+)\b", body.split(" reads ")[0]
                              .split(" writes ")[0]):
            if buf in owner:
                a, c = find(owner[buf]), find(nid)
                if a != c:
                    parent[max(a, c)] = min(a, c)
            else:
                owner[buf] = nid
    groups = {}
    for nid, body, preds in stmts:
        groups.setdefault(find(nid), []).append((nid, body, preds))
    paths = []
    for k, (root, members) in enumerate(sorted(groups.items())):
        if not any(re.search(r"\bb\d+\b", body) for _, body, _ in members):
            continue  # an operation without buffers
        ids = {nid for nid, _, _ in members}
        out = os.path.join(work, "%s.k%d.dan" % (tag, k))
        with open(out, "w") as f:
            f.write("\n".join(header) + "\ngraph @%s_k%d {\n" % (tag, k))
            for nid, body, preds in members:
                body = re.sub(r" (reads|writes) @[^ ]+(, @[^ ]+)*", "", body)
                kept = [p for p in preds if p in ids]
                f.write("  n%d = %s%s\n" % (nid, body, " after " + ", ".join(
                    "n%d" % p for p in kept) if kept else ""))
            f.write("}\n")
        paths.append(out)
    return paths


def row(name, join, nodes, joined, seconds, alone):
    total = lambda key: sum(a[key] for a in alone)
    pipes = {p: sum(a["pipe_busy"][p] for a in alone)
             for p in alone[0]["pipe_busy"]}
    bound = max(max(pipes.values()), max(a["critical_path_lb"] for a in alone))
    sum_makespan = total("makespan")
    ratio = lambda got, ref: got / ref if ref else 1.0
    return [name, join, "{:,}".format(nodes),
            "%s / %s (%.2fx)" % ("{:,}".format(joined["extra_ddr_traffic"]),
                                 "{:,}".format(total("extra_ddr_traffic")),
                                 ratio(joined["extra_ddr_traffic"],
                                       total("extra_ddr_traffic"))),
            "%d / %d" % (joined["spill_count"], total("spill_count")),
            "%d / %d" % (joined["peak_l1ub"],
                         max(a["peak_l1ub"] for a in alone)),
            "%s / %s (%.3fx)" % ("{:,}".format(joined["makespan"]),
                                 "{:,}".format(sum_makespan),
                                 ratio(joined["makespan"], sum_makespan)),
            "%.3fx" % ratio(bound, sum_makespan),
            "%.2f" % ratio(joined["makespan"], bound),
            "%.2f" % seconds["mpas"], "%.2f" % seconds["dlr"],
            "%.2f" % seconds["cpe"]]


HEAD = ["graph", "joined", "nodes", "traffic: joined / sum",
        "spills: joined / sum", "peak: joined / largest",
        "makespan: joined / sum", "bound / sum", "makespan / bound",
        "mpas s", "dlr s", "cpe s"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--workloads", default=os.path.join(ROOT, "data", "contest"))
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--md", action="store_true")
    ap.add_argument("--update", metavar="FILE")
    args = ap.parse_args()
    if args.update:
        text = open(args.update).read()
        if text.count(BEGIN) != 1 or text.count(END) != 1 or \
                text.index(BEGIN) > text.index(END):
            sys.exit("%s: needs one '%s' line before one '%s' line"
                     % (args.update, BEGIN, END))
        args.md = True
    b = lambda t: os.path.join(args.build, "bin", t)
    work = tempfile.mkdtemp(prefix="dan-models.")
    alone = {}

    def single(name):
        if name not in alone:
            src = os.path.join(work, name + ".dan")
            run([b("dan-translate"), "--import=json",
                 os.path.join(args.workloads, name + ".json"), "-o", src])
            alone[name] = pipeline(b, src, work, name)[1]
        return alone[name]

    rows = []
    graphs = GRAPHS[:1] if args.quick else GRAPHS
    for kernels in graphs:
        name = ", ".join(kernels)
        for join in JOINS:
            tag = "g%d.%s" % (len(rows), join)
            src = os.path.join(work, tag + ".dan")
            run([b("dan-link"), "--join=" + join, "-o", src] +
                [os.path.join(args.workloads, k + ".json") for k in kernels])
            seconds, joined = pipeline(b, src, work, tag)
            nodes = int(re.search(r"(\d+) nodes",
                                  run([b("dan-verify"), "--summary", src]))
                        .group(1))
            rows.append(row(name, JOIN_NAMES[join], nodes, joined, seconds,
                            [single(k) for k in kernels]))
            print("models: %s, %s" % (name, join), file=sys.stderr)
    for label, options in (MODELS[:1] if args.quick else MODELS):
        tag = label.replace(" ", "_")
        src = os.path.join(work, tag + ".dan")
        run([b("dan-gen"), "--family=transformer", "-o", src] + options)
        seconds, joined = pipeline(b, src, work, tag)
        nodes = int(re.search(r"(\d+) nodes",
                              run([b("dan-verify"), "--summary", src]))
                    .group(1))
        kernels = [pipeline(b, k, work, os.path.basename(k))[1]
                   for k in split_kernels(src, work, tag)]
        rows.append(row(label + " (" + " ".join(options) + ")",
                        "streamed, %d kernels" % len(kernels), nodes, joined,
                        seconds, kernels))
        print("models: %s" % label, file=sys.stderr)

    if args.md:
        lines = ["| " + " | ".join(HEAD) + " |",
                 "| " + " | ".join("---" if k < 2 else "---:"
                                   for k in range(len(HEAD))) + " |"]
        lines += ["| " + " | ".join(r) + " |" for r in rows]
    else:
        widths = [max(len(str(r[k])) for r in [HEAD] + rows)
                  for k in range(len(HEAD))]
        lines = ["  ".join(str(c).ljust(w) for c, w in zip(r, widths))
                 for r in [HEAD] + rows]
    out = "\n".join(lines) + "\n"
    sys.stdout.write(out)
    if args.update:
        text = open(args.update).read()
        head, rest = text.split(BEGIN + "\n", 1)
        _, tail = rest.split(END, 1)
        tmp = args.update + ".tmp"
        with open(tmp, "w") as f:
            f.write(head + BEGIN + "\n" + out + END + tail)
        os.replace(tmp, args.update)


if __name__ == "__main__":
    main()
