#!/usr/bin/env python3
"""Large graphs of every shape: each tool of the default pipe, its time and
memory, and its growth between 1e5 and 1e6 nodes.

Usage: bench/large.py [--build DIR] [--workloads DIR] [--runs R]
                      [--small-runs R] [--timeout S] [--quick] [--md]
                      [--update FILE]

The graphs (issue 14's table):
  - dan-gen's three families (matmul, attention, conv) at about 1e5 and 1e6
    nodes (the shapes of bench/scale.py);
  - Matmul_Case1 itself (imported from contest JSON), and K copies of a
    contest workload joined by dan-link: Matmul_Case1 x 8, 16
    and 32, FlashAttention_Case0 x 64 and 512;
  - a chain of 1e6 operations on one buffer, and one operation with 1e6
    predecessors (written here as DAN IR).
On each, the default pipe runs tool by tool: dan-translate (the import, or
the print of an IR file), dan-mpas, dan-dlr, dan-cpe, dan-verify and
dan-replay, every one with its default options (on the fan-in, dan-verify
and dan-replay with -w: its operations use no buffer, and a million
warnings would fill the pipe the timing reads stderr from). Each time is
the least of --runs runs (default 3): on a shared machine other work only
ever adds time. The two sizes of a family run alternately, tool by tool (a
run on the 1e5 graph, one on the 1e6 graph, --runs times), so that both
meet the same spells of the machine. Matmul_Case1 itself (31k nodes, each
tool under a third of a second, so a spell of the machine is a large part
of a run) runs --small-runs times instead (default 9), as bench/scale.py
runs its small graphs more often than its large ones. Peak RSS is the
largest of the runs
(wait4). "pipe" is the sum of the six. Then, per family, each tool's growth
exponent between the 1e5- and the 1e6-node graph: log(t2 / t1) / log(V2 /
V1) from the least times.
--quick runs the 1e5 graphs and the smallest copies only (a smoke run).
--update FILE runs as --md does and also writes what it printed into FILE,
in place of the lines between the line
<!-- bench/large.py --md: begin --> and the line
<!-- bench/large.py --md: end --> (docs/Performance.md keeps its table so).
It prints figures; it checks nothing (the tests do).
"""
import argparse
import contextlib
import io
import math
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from scale import measure, shape  # noqa: E402  (the same timing and shapes)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOOLS = ("translate", "mpas", "dlr", "cpe", "verify", "replay")
FAMILIES = ("matmul", "attention", "conv")
BEGIN = "<!-- bench/large.py --md: begin -->"
END = "<!-- bench/large.py --md: end -->"


def marked_span(lines, path, begin_marker, end_marker):
    """The indices of the begin and end marker lines of `lines` (the text
    of `path`); exits with a message unless each is there once, in order."""
    begins = [i for i, line in enumerate(lines) if line.strip() == begin_marker]
    ends = [i for i, line in enumerate(lines) if line.strip() == end_marker]
    if len(begins) != 1 or len(ends) != 1 or begins[0] > ends[0]:
        sys.exit(f"{path}: needs one line '{begin_marker}' and, after it, "
                 f"one line '{end_marker}'")
    return begins[0], ends[0]


def update(path, text, begin_marker=BEGIN, end_marker=END):
    """Replaces the lines between the markers of `path` with `text`."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines(keepends=True)
    begin, end = marked_span(lines, path, begin_marker, end_marker)
    new = lines[:begin + 1] + [text] + lines[end:]
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.writelines(new)
    os.replace(tmp, path)


def write_chain(path, n):
    """n operations on one buffer, each after the previous one."""
    with open(path, "w") as f:
        f.write("graph @chain {\n  n0 = alloc b0 UB 16\n")
        for i in range(1, n + 1):
            f.write(f"  n{i} = ADD VECTOR 1 (b0) after n{i - 1}\n")
        f.write(f"  n{n + 1} = free b0 UB 16 after n{n}\n}}\n")


def write_fan_in(path, n):
    """One operation after n independent ones (which use no buffer)."""
    with open(path, "w") as f:
        f.write("graph @fanin {\n")
        for i in range(n):
            f.write(f"  n{i} = ADD VECTOR 1 ()\n")
        preds = ", ".join(f"n{i}" for i in range(n))
        f.write(f"  n{n} = MUL VECTOR 1 () after {preds}\n}}\n")


def count_nodes(path):
    with open(path) as f:
        return sum(1 for line in f if " = " in line)


def pipe(b, srcs, tmp, tags, runs, timeout, quiet):
    """The default pipe on each of `srcs` (contest JSON or DAN IR), tool by
    tool, the graphs' runs of a tool alternating (one run on each graph,
    then the next round), so that the graphs of one family meet the same
    spells of the machine; returns per graph {tool: (seconds, MiB) or
    None}. `quiet`: dan-verify and dan-replay with -w."""
    w = ["-w"] if quiet else []
    outs = [{} for _ in srcs]
    cmds = []
    for src, tag in zip(srcs, tags):
        p = lambda s, tag=tag: os.path.join(tmp, f"{tag}.{s}.dan")
        imp = ["--import=json"] if src.endswith(".json") else []
        cmds.append((
            ("translate", [b("dan-translate")] + imp + [src, "-o", p("in")]),
            ("mpas", [b("dan-mpas"), p("in"), "-o", p("s1")]),
            ("dlr", [b("dan-dlr"), p("s1"), "-o", p("s2")]),
            ("cpe", [b("dan-cpe"), p("s2"), "-o", p("s3")]),
            ("verify", [b("dan-verify")] + w + [p("s3")]),
            ("replay", [b("dan-replay")] + w + [p("s3")])))
    for step, tool in enumerate(TOOLS):
        live = [k for k in range(len(srcs))
                if all(outs[k].get(t) is not None for t in TOOLS[:step])]
        results = {k: [] for k in live}
        for _ in range(runs):
            for k in live:
                if results[k] is None:
                    continue
                r = measure(cmds[k][step][1], timeout)
                results[k] = None if r is None else results[k] + [r]
        for k in live:
            rs = results[k]
            outs[k][tool] = (None if rs is None else
                             (min(t for t, _ in rs), max(m for _, m in rs)))
    for k, tag in enumerate(tags):
        path = os.path.join(tmp, f"{tag}.in.dan")
        outs[k]["nodes"] = count_nodes(path) if os.path.exists(path) else 0
    return outs


def fmt(r):
    return "timeout" if r is None else f"{r[0]:.2f}"


def show(lines, md):
    """Prints rows as a Markdown table or as aligned text columns."""
    if md:
        for line in lines:
            print("| " + " | ".join(line) + " |")
        return
    widths = [max(len(line[i]) for line in lines) for i in range(len(lines[0]))]
    for line in lines:
        print("  ".join(c.ljust(w) if i == 0 else c.rjust(w)
                        for i, (c, w) in enumerate(zip(line, widths))))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--workloads", default=os.path.join(ROOT, "data", "contest"))
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--small-runs", type=int, default=9,
                    help="runs of each tool on Matmul_Case1 itself")
    ap.add_argument("--timeout", type=float, default=600)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--md", action="store_true", help="Markdown tables")
    ap.add_argument("--update", metavar="FILE",
                    help="as --md, and write the tables into FILE between "
                    "its bench/large.py markers")
    args = ap.parse_args()
    if args.update is None:
        run(args)
        return
    # Before the runs: a file without its markers would waste them.
    with open(args.update, encoding="utf-8") as f:
        marked_span(f.read().splitlines(), args.update, BEGIN, END)
    args.md = True
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        run(args)
    sys.stdout.write(out.getvalue())
    update(args.update, out.getvalue())


def run(args):
    b = lambda tool: os.path.join(args.build, "bin", tool)
    sizes = (100_000,) if args.quick else (100_000, 1_000_000)
    copies = ([("Matmul_Case1", 8), ("FlashAttention_Case0", 64)] if args.quick
              else [("Matmul_Case1", 8), ("Matmul_Case1", 16),
                    ("Matmul_Case1", 32), ("FlashAttention_Case0", 64),
                    ("FlashAttention_Case0", 512)])
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        graphs = []
        for fam in FAMILIES:
            for n in sizes:
                path = os.path.join(tmp, f"{fam}{n}.dan")
                subprocess.run([b("dan-gen")] + shape(fam, n) + ["-o", path],
                               check=True)
                graphs.append((f"dan-gen {fam} 1e{round(math.log10(n))}", path,
                               (fam, n), False))
        # The contest workload itself: the issue's "full default pipe on
        # Matmul_Case1" is this row's "pipe".
        graphs.append(("Matmul_Case1", os.path.join(
            args.workloads, "Matmul_Case1.json"), None, False))
        for name, k in copies:
            path = os.path.join(tmp, f"{name}x{k}.dan")
            subprocess.run([b("dan-link"), f"--copies={k}",
                            os.path.join(args.workloads, name + ".json"),
                            "-o", path], check=True)
            graphs.append((f"{name} x {k}", path, None, False))
        if not args.quick:
            chain = os.path.join(tmp, "chain.dan")
            write_chain(chain, 1_000_000)
            fan = os.path.join(tmp, "fanin.dan")
            write_fan_in(fan, 1_000_000)
            graphs += [("a chain of 1e6 operations", chain, None, False),
                       ("one operation after 1e6 others", fan, None, True)]
        # A family's sizes run together, alternately; every other graph
        # alone.
        batches = []
        for i, g in enumerate(graphs):
            fam = g[2][0] if g[2] else None
            if fam and batches and batches[-1][0] == fam:
                batches[-1][1].append((i, g))
            else:
                batches.append((fam, [(i, g)]))
        for _, batch in batches:
            labels = " and ".join(g[0] for _, g in batch)
            print(f"large: {labels} ...", file=sys.stderr, flush=True)
            small = batch[0][1][0] == "Matmul_Case1"
            runs = max(args.runs, args.small_runs) if small else args.runs
            rs = pipe(b, [g[1] for _, g in batch], tmp,
                      [f"g{i}" for i, _ in batch], runs, args.timeout,
                      batch[0][1][3])
            for (_, (label, _, key, _)), r in zip(batch, rs):
                rows.append((label, key, r))
    head = ["graph", "nodes"] + list(TOOLS) + ["pipe", "peak MiB"]
    lines = [head]
    if args.md:
        lines.append(["---"] * len(head))
    for label, _, r in rows:
        done = [r.get(t) for t in TOOLS]
        total = (f"{sum(x[0] for x in done):.2f}"
                 if all(x is not None for x in done) else "-")
        mem = max((x[1] for x in done if x is not None), default=0)
        lines.append([label, f"{r['nodes']:,}"] + [fmt(x) for x in done] +
                     [total, f"{mem:.0f}"])
    print(f"least of {args.runs} runs per tool ({max(args.runs, args.small_runs)}"
          " on Matmul_Case1), wall seconds; peak RSS the largest tool's")
    show(lines, args.md)
    if len(sizes) < 2:
        return
    print()
    print("growth exponent per tool between the 1e5- and 1e6-node graphs, "
          "log(t2 / t1) / log(V2 / V1), least times")
    lines = [["family"] + list(TOOLS)]
    if args.md:
        lines.append(["---"] * (len(TOOLS) + 1))
    for fam in FAMILIES:
        small = next(r for _, k, r in rows if k == (fam, sizes[0]))
        large = next(r for _, k, r in rows if k == (fam, sizes[1]))
        ratio = math.log(large["nodes"] / small["nodes"])
        cells = []
        for t in TOOLS:
            a, c = small.get(t), large.get(t)
            cells.append(f"{math.log(c[0] / a[0]) / ratio:.2f}"
                         if a and c and a[0] > 0 else "-")
        lines.append([fam] + cells)
    show(lines, args.md)


if __name__ == "__main__":
    main()
