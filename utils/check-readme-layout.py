#!/usr/bin/env python3
"""Checks the "Layout" table of README.md against the repository.

    utils/check-readme-layout.py [--readme FILE] [SOURCE_ROOT]

The "## Layout" section of README.md is a table of two columns:

    | path | holds |

whose first cell names folders in backquotes (`lib/Select`, `tools/`) and
whose second says what they hold, naming files and folders in backquotes
too: a name with a slash from the root or from the row's own folders
(`include/dan/Target/Davinci/Davinci.def`, `CommandGuide/`), a file name from the
row's own folders (`scale.py` in the row of `bench/`). The check fails
(exit status 1, one line per problem) when

  - a backquoted path of the first column does not exist;
  - a backquoted name of the second column that is a path (it has a slash,
    or the extension of a file) exists neither from the root nor from one
    of the row's folders (only its first word is taken: `utils/fuzz.sh
    SECONDS` names utils/fuzz.sh);
  - a library folder of the "## Layers" table of docs/Architecture.md
    (`lib/X`) is not in the first column;
  - a folder of lib/ is not in the first column;
  - a folder of tools/ is named nowhere in the table (as `tools/X`, or as
    `X` in the row of `tools/`);
  - a top-level folder of the repository is not in the first column (as
    `X/`, `X` or a folder below it); hidden folders and the build folders
    (build*, which .gitignore leaves out) are not checked.

Otherwise it prints one line, "check-readme-layout: N rows, M paths, every
folder listed". --readme checks another copy of the README against the
same tree (the tests show the check failing on an edited copy). Exit status
2 when a table cannot be read.
"""

import argparse
import os
import re
import sys

LAYOUT_HEADING = "## Layout"
LAYERS_HEADING = "## Layers"
# What a backquoted name ends in when it names a file.
FILE_EXT = re.compile(r"\.(py|md|sh|cpp|h|def|re|yy|txt|cmake|in|dan|json|csv|svg)$")


def die(msg):
    print("check-readme-layout: error: " + msg, file=sys.stderr)
    sys.exit(2)


def section_rows(path, heading):
    """The rows of the first table under HEADING, as lists of cells."""
    try:
        lines = open(path, encoding="utf-8").read().splitlines()
    except OSError as e:
        die("cannot read '%s': %s" % (path, e.strerror))
    try:
        start = lines.index(heading)
    except ValueError:
        die("'%s' has no '%s' section" % (path, heading))
    rows = []
    for line in lines[start + 1:]:
        if line.startswith("## "):
            break
        if not line.startswith("|"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if all(re.fullmatch(r":?-+:?", c) for c in cells):
            continue  # the separator line
        rows.append(cells)
    if len(rows) < 2:
        die("the '%s' section of '%s' has no table rows" % (heading, path))
    return rows[1:]  # without the header row


def quoted(cell):
    return re.findall(r"`([^`]+)`", cell)


def norm(path):
    return path.rstrip("/")


def is_path(name):
    return "/" in name or FILE_EXT.search(name) is not None


def main():
    ap = argparse.ArgumentParser(
        description="Checks README.md's Layout table against the tree.")
    ap.add_argument("root", nargs="?", default=".")
    ap.add_argument("--readme", help="the README to check (default: ROOT/README.md)")
    args = ap.parse_args()
    root = args.root
    readme = args.readme or os.path.join(root, "README.md")

    problems = []
    listed = set()  # the folders of the first column
    named = set()  # every backquoted name of the table
    checked = 0
    rows = section_rows(readme, LAYOUT_HEADING)
    for cells in rows:
        if len(cells) != 2:
            die("row '| %s |': expected two cells" % " | ".join(cells))
        raw = quoted(cells[0])
        bases = [norm(p) for p in raw]
        if not bases:
            die("row '| %s |': no path in backquotes" % " | ".join(cells))
        for base in bases:
            checked += 1
            listed.add(base)
            named.add(base)
            if not os.path.exists(os.path.join(root, base)):
                problems.append("`%s` (the path column) does not exist" % base)
        for name in quoted(cells[1]):
            named.add(norm(name))
            if "tools" in bases:
                named.add("tools/" + norm(name))
            word = name.split()[0]
            if not is_path(word) or word.startswith("-"):
                continue
            checked += 1
            places = [root] + [os.path.join(root, b) for b in bases]
            if not any(os.path.exists(os.path.join(p, word)) for p in places):
                problems.append("`%s` (in the row of `%s`) does not exist"
                                % (word, "`, `".join(raw)))

    arch = os.path.join(root, "docs", "Architecture.md")
    for cells in section_rows(arch, LAYERS_HEADING):
        if len(cells) != 5:
            continue
        for d in quoted(cells[2]):
            d = norm(d)
            if d.startswith("lib/") and d not in listed:
                problems.append("%s (a library of docs/Architecture.md's "
                                "layers) is not in the README's layout" % d)

    def folders(path):
        full = os.path.join(root, path)
        if not os.path.isdir(full):
            return []
        return sorted(e for e in os.listdir(full)
                      if os.path.isdir(os.path.join(full, e))
                      and not e.startswith(".") and e != "__pycache__")

    for d in folders("lib"):
        if "lib/" + d not in listed:
            problems.append("lib/%s (a folder of lib/) is not in the "
                            "README's layout" % d)
    for d in folders("tools"):
        if "tools/" + d not in named:
            problems.append("tools/%s (a folder of tools/) is not named in "
                            "the README's layout" % d)
    for d in folders(""):
        if d.startswith("build"):
            continue
        if not any(p == d or p.startswith(d + "/") for p in listed):
            problems.append("%s/ (a top-level folder) is not in the "
                            "README's layout" % d)

    for p in problems:
        print("check-readme-layout: " + p)
    if problems:
        return 1
    print("check-readme-layout: %d rows, %d paths, every folder listed"
          % (len(rows), checked))
    return 0


if __name__ == "__main__":
    sys.exit(main())
