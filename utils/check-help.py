#!/usr/bin/env python3
"""Checks that every tool's --help stays short and shows no tuning knob.

    utils/check-help.py TOOL...

For each tool (a path), runs 'TOOL --help' and 'TOOL --help-hidden' and
counts the options under each heading. Fails (exit status 1, one line per
problem) when a heading of --help lists more than MAX_SHOWN options, or when
--help shows the heading of the tuning and ablation knobs, which only
--help-hidden may show. Prints one line per tool: its headings and counts.
"""

import os
import re
import subprocess
import sys

MAX_SHOWN = 12
TUNING = "Tuning and ablation options:"
GENERIC = "Generic Options:"


def headings(text):
    """The options under each heading of a --help text, in order."""
    out = {}
    current = None
    for line in text.splitlines():
        if re.match(r"^[A-Z].*:$", line) and line not in ("OPTIONS:",):
            current = line
            out.setdefault(current, 0)
        elif current and re.match(r"^  -", line):
            out[current] += 1
    return out


def main(tools):
    problems = []
    for tool in tools:
        name = os.path.basename(tool)
        shown = headings(subprocess.run([tool, "--help"], capture_output=True,
                                        text=True, check=True).stdout)
        hidden = headings(subprocess.run([tool, "--help-hidden"],
                                         capture_output=True, text=True,
                                         check=True).stdout)
        for heading, count in shown.items():
            if heading != GENERIC and count > MAX_SHOWN:
                problems.append("%s: --help lists %d options under '%s' "
                                "(at most %d)" % (name, count, heading,
                                                  MAX_SHOWN))
        if TUNING in shown:
            problems.append("%s: --help shows '%s'" % (name, TUNING))
        counts = ", ".join("%s %d" % (h.rstrip(":"), n)
                           for h, n in shown.items() if h != GENERIC)
        tuning = hidden.get(TUNING, 0)
        print("%s: %s%s" % (name, counts,
                            "; hidden: %d" % tuning if tuning else ""))
    for p in problems:
        print("check-help: error: " + p, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
