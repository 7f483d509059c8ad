#!/usr/bin/env python3
"""Writes the tables of docs/CPE.md's "Results on the workloads".

    utils/cpe-results.py --tools DIR [--src ROOT] [--update FILE | --check FILE]

Runs the default pipeline (dan-translate --import=json, dan-mpas, dan-dlr)
on the five contest workloads, then dan-cpe on stage 2's output with its
defaults, with --start=input, with --move=ops-and-buffers (either start)
and with --mode=ignore, and prints the results as Markdown: one table of
the search, one of the Ignore diagnostic, and whether the wider move set
changes any output.

--update FILE writes them into FILE between the lines BEGIN and END below;
--check FILE exits 1 (with a diff) when FILE does not hold what this run
prints there, so that a page's figures cannot drift (test/Docs). Exit
status 2 on a usage error or when a tool fails.
"""

import argparse
import difflib
import json
import os
import subprocess
import sys
import tempfile
import textwrap

BEGIN = "<!-- utils/cpe-results.py: begin -->"
END = "<!-- utils/cpe-results.py: end -->"
WORKLOADS = ["Conv_Case0", "FlashAttention_Case0", "FlashAttention_Case1",
             "Matmul_Case0", "Matmul_Case1"]


def run(tools, args, text=None):
    cmd = [os.path.join(tools, args[0])] + args[1:]
    r = subprocess.run(cmd, input=text, capture_output=True)
    if r.returncode != 0:
        sys.exit("cpe-results: '%s' failed (exit %d): %s"
                 % (" ".join(args), r.returncode, r.stderr.decode()))
    return r


def cpe(tools, plan, out, *opts):
    r = run(tools, ["dan-cpe", "--stats-json", plan, "-o", out] + list(opts))
    return json.loads(r.stderr)


def replay(tools, path):
    return json.loads(run(tools, ["dan-replay", "--format=json", path]).stdout)


def n(x):
    return "{:,}".format(x)


def measure(tools, src, tmp, name):
    """The figures of one workload."""
    graph = run(tools, ["dan-translate", "--import=json", os.path.join(
        src, "data", "contest", name + ".json")]).stdout
    ordered = run(tools, ["dan-mpas"], graph).stdout
    plan = os.path.join(tmp, name + ".s2.dan")
    run(tools, ["dan-dlr", "-o", plan], ordered)
    out = {}
    paths = {}
    for key, opts in [("default", []), ("input", ["--start=input"]),
                      ("wide", ["--move=ops-and-buffers"]),
                      ("wide-input", ["--move=ops-and-buffers",
                                      "--start=input"]),
                      ("ignore", ["--mode=ignore"])]:
        paths[key] = os.path.join(tmp, "%s.%s.dan" % (name, key))
        out[key] = cpe(tools, plan, paths[key], *opts)
    out["same-wide"] = all(
        open(paths[a], "rb").read() == open(paths[b], "rb").read()
        for a, b in [("default", "wide"), ("input", "wide-input")])
    out["in"] = replay(tools, plan)
    out["out"] = replay(tools, paths["default"])
    return out


def tables(figures):
    lines = [
        "| graph | nodes (with spills) | makespan before | list schedule | "
        "after (default) | after, `--start=input` | change (default) | "
        "peak L1+UB in / out | moves (default / input) | "
        "candidates timed / illegal (default) |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | "
        "---: |"]
    for name, f in figures:
        d, i = f["default"], f["input"]
        before, after = d["makespan_before"], d["makespan_after"]
        listed = n(d["list_makespan"]) + (
            " (started from)" if d.get("from_list") else "")
        lines.append("| %s | %s | %s | %s | %s | %s | %.2f%% | %s / %s | "
                     "%s / %s | %s / %s |" % (
                         name, n(f["in"]["nodes"]), n(before), listed,
                         n(after), n(i["makespan_after"]),
                         100.0 * (after - before) / before,
                         n(f["in"]["peak_l1ub"]), n(f["out"]["peak_l1ub"]),
                         n(d["moves"]), n(i["moves"]),
                         n(d["candidates_timed"]),
                         n(d["candidates_illegal"])))
    lines += ["",
              textwrap.fill(
                  "The Ignore diagnostic on the same plans (`--mode=ignore`): "
                  "the makespan it claims, timed without the reuse edges, "
                  "against the makespan the refined plan reaches, and the "
                  "reuse edges that timing breaks:", 75),
              "",
              "| graph | claimed without reuse edges | refined (default) | "
              "below by | reuse edges violated |",
              "| --- | ---: | ---: | ---: | ---: |"]
    for name, f in figures:
        g, refined = f["ignore"], f["default"]["makespan_after"]
        claimed = g["ignore_makespan_after"]
        lines.append("| %s | %s | %s | %.0f%% | %s of %s |" % (
            name, n(claimed), n(refined),
            100.0 * (refined - claimed) / refined,
            n(g["ownership_violations"]), n(g["reuse_edges"])))
    differ = [name for name, f in figures if not f["same-wide"]]
    lines.append("")
    if differ:
        lines.append("`--move=ops-and-buffers` changes the output of %s."
                     % ", ".join(differ))
    else:
        lines.append(textwrap.fill(
            "`--move=ops-and-buffers` writes the same bytes as `--move=ops` "
            "on all five, with either start.", 75))
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tools", required=True, help="the tools' directory")
    ap.add_argument("--src", default=os.path.dirname(
        os.path.dirname(os.path.abspath(__file__))))
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--update", metavar="FILE")
    mode.add_argument("--check", metavar="FILE")
    args = ap.parse_args()
    page = args.update or args.check
    if page:
        text = open(page).read()
        if text.count(BEGIN) != 1 or text.count(END) != 1 or \
                text.index(BEGIN) > text.index(END):
            ap.error("%s must hold one line %s and after it one line %s"
                     % (page, BEGIN, END))
    with tempfile.TemporaryDirectory() as tmp:
        figures = [(w, measure(args.tools, args.src, tmp, w))
                   for w in WORKLOADS]
    table = tables(figures)
    if not page:
        sys.stdout.write(table)
        return 0
    head, rest = text.split(BEGIN + "\n", 1)
    shown, tail = rest.split(END, 1)
    if args.check:
        if shown == table:
            print("cpe-results: %s is current" % page)
            return 0
        sys.stdout.writelines(difflib.unified_diff(
            shown.splitlines(True), table.splitlines(True),
            page + " (shown)", "this run"))
        return 1
    with open(page + ".tmp", "w") as f:
        f.write(head + BEGIN + "\n" + table + END + tail)
    os.replace(page + ".tmp", page)
    return 0


if __name__ == "__main__":
    sys.exit(main())
