#!/usr/bin/env python3
"""Each stage against the cost of reading and writing its graph, dan-opt
against the pipe, and the JSON import's speed, in one run.

Usage: bench/driver.py [--build DIR] [--workloads DIR] [--copies K]
                       [--runs R] [--md] [--update FILE]

The graph is K copies (default 32) of Matmul_Case1 joined by dan-link
(about 10^6 nodes), under the default options. The steps run in turn,
--runs rounds of them (default 3), and each keeps its least wall time
(other work on a shared machine only adds time) and its largest peak RSS
(wait4):

  read+print  dan-translate G.dan (parse and print the IR)
  mpas        dan-mpas G.dan           -> S1
  dlr         dan-dlr S1               -> S2
  cpe         dan-cpe S2               -> S3
  pipe        dan-mpas G.dan | dan-dlr | dan-cpe, as one bash pipe
  dan-opt     dan-opt -passes=mpas,dlr,cpe G.dan (checked: the pipe's bytes)
  json import dan-translate --import=json G.json (G exported as JSON)

Then the ratios the speed targets are stated in: each stage's time over
read+print's, dan-opt's over the pipe's, the import's MB/s, and each
stage's peak RSS over read+print's. --md prints the tables as Markdown;
--update FILE also writes them into FILE between the lines
<!-- bench/driver.py --md: begin --> and <!-- bench/driver.py --md: end -->.
It prints figures; it checks nothing but that dan-opt writes the pipe's
bytes (the tests check the rest).
"""
import argparse
import contextlib
import filecmp
import io
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from large import marked_span, update as update_between  # noqa: E402
from scale import measure  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BEGIN = "<!-- bench/driver.py --md: begin -->"
END = "<!-- bench/driver.py --md: end -->"
TIMEOUT = 600


def rounds(cmds, runs):
    """Every step of `cmds` (name -> (command, through bash)) once per
    round, `runs` rounds: a slow spell of a shared machine then falls on
    the steps of a round alike, not on every run of one step. Per step the
    least wall seconds and the largest peak MiB."""
    results = {name: ([], []) for name in cmds}
    for _ in range(runs):
        for name, (cmd, shell) in cmds.items():
            r = measure(["bash", "-c", cmd] if shell else cmd, TIMEOUT)
            if r is None:
                sys.exit(f"timed out: {cmd}")
            results[name][0].append(r[0])
            results[name][1].append(r[1])
    return {name: (min(t), max(m)) for name, (t, m) in results.items()}


def run(args):
    b = lambda tool: os.path.join(args.build, "bin", tool)  # noqa: E731
    src = os.path.join(args.workloads, "Matmul_Case1.json")
    tmp = tempfile.mkdtemp(prefix="dan-driver.")
    g = os.path.join(tmp, "g.dan")
    s = [os.path.join(tmp, f"s{i}.dan") for i in (1, 2, 3)]
    subprocess.run([b("dan-link"), f"--copies={args.copies}", src, "-o", g],
                   check=True)
    gj = os.path.join(tmp, "g.json")
    subprocess.run([b("dan-translate"), "--export=json", g, "-o", gj],
                   check=True)
    nodes = sum(1 for line in open(g) if " = " in line)
    piped = os.path.join(tmp, "pipe.dan")
    opt = os.path.join(tmp, "opt.dan")
    # In this order: each stage reads what the one before wrote.
    steps = rounds({
        "read+print": ([b("dan-translate"), g, "-o", os.devnull], False),
        "mpas": ([b("dan-mpas"), g, "-o", s[0]], False),
        "dlr": ([b("dan-dlr"), s[0], "-o", s[1]], False),
        "cpe": ([b("dan-cpe"), s[1], "-o", s[2]], False),
        "pipe": (f"set -o pipefail; {b('dan-mpas')} {g} | {b('dan-dlr')} | "
                 f"{b('dan-cpe')} > {piped}", True),
        "dan-opt": ([b("dan-opt"), "-passes=mpas,dlr,cpe", g, "-o", opt],
                    False),
        "json import": ([b("dan-translate"), "--import=json", gj, "-o",
                         os.devnull], False),
    }, args.runs)
    if not filecmp.cmp(piped, opt, shallow=False) or \
       not filecmp.cmp(piped, s[2], shallow=False):
        sys.exit("dan-opt's output differs from the pipe's")
    sizes = {"ir": os.path.getsize(g), "json": os.path.getsize(gj)}
    return nodes, sizes, steps


def report(args, nodes, sizes, steps):
    md = args.md
    T, M = steps["read+print"]

    def row(cells):
        if md:
            print("| " + " | ".join(cells) + " |")
        else:
            print("  ".join(f"{c:>16}" if i else f"{c:<30}"
                            for i, c in enumerate(cells)))

    print(f"{args.copies} x Matmul_Case1 ({nodes:,} nodes; IR "
          f"{sizes['ir'] / 1e6:.1f} MB, JSON {sizes['json'] / 1e6:.1f} MB), "
          f"default options; least of {args.runs} rounds of the steps in "
          f"turn, wall seconds; peak RSS the largest")
    row(["step", "seconds", "peak MiB"])
    if md:
        print("| --- | --- | --- |")
    for name, (t, m) in steps.items():
        row([name, f"{t:.2f}", f"{m:.0f}"])
    print()
    print("the targets, as ratios of this run")
    row(["figure", "measured", "target"])
    if md:
        print("| --- | --- | --- |")
    for stage in ("mpas", "dlr", "cpe"):
        row([f"{stage} / read+print", f"{steps[stage][0] / T:.2f}x",
             "at most 3x"])
    row(["dan-opt / pipe", f"{steps['dan-opt'][0] / steps['pipe'][0]:.2f}x",
         "at most 0.5x"])
    mbs = sizes["json"] / 1e6 / steps["json import"][0]
    row(["json import", f"{mbs:.0f} MB/s", "at least 150 MB/s"])
    for stage in ("mpas", "dlr", "cpe", "dan-opt"):
        row([f"{stage} peak / read+print peak",
             f"{steps[stage][1] / M:.2f}x", "at most 4x"])


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--workloads", default=os.path.join(ROOT, "data", "contest"))
    ap.add_argument("--copies", type=int, default=32)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--md", action="store_true")
    ap.add_argument("--update", metavar="FILE")
    args = ap.parse_args()
    if args.update:
        # Before the runs: a file without its markers would waste them.
        with open(args.update, encoding="utf-8") as f:
            marked_span(f.read().splitlines(), args.update, BEGIN, END)
        args.md = True
    nodes, sizes, steps = run(args)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        report(args, nodes, sizes, steps)
    print(out.getvalue(), end="")
    if args.update:
        update_between(args.update, out.getvalue(), BEGIN, END)
    return 0


if __name__ == "__main__":
    sys.exit(main())
