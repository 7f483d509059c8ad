#!/usr/bin/env python3
"""Checks the layering that docs/Architecture.md states against the code.

    utils/check-layers.py [SOURCE_ROOT]

The "Layers" table of docs/Architecture.md has one row per library and tool:

    | level | target | directories | owns | may depend on |

The level is a number (0 is the ground floor); the target is a CMake target
in backquotes; the directories are backquoted paths of the sources and
headers that belong to it; "may depend on" lists backquoted targets (or says
LLVM Support). The check fails (exit status 1, one line per problem) when

  - a target_link_libraries() of a CMakeLists.txt (or the LINK list of a
    dan_add_tool()) names a target of the table that is not on a lower
    level (a link upwards or sideways);
  - a target links a target of the table that its row does not list, or its
    row lists one it does not link (the table would be untrue);
  - a source or header in a target's directories includes a "dan/..." header
    of another target's directory that it does not reach through its links
    (a file belongs to the target with the longest directory that holds it,
    so a folder inside another target's folder may belong to a third).

Targets that are not in the table (the unit tests, the fuzz targets) are not
checked. Exit status 2 when the table cannot be read.
"""

import os
import re
import sys

TABLE_HEADING = "## Layers"


def die(msg):
    print("check-layers: error: " + msg, file=sys.stderr)
    sys.exit(2)


def read_table(root):
    path = os.path.join(root, "docs", "Architecture.md")
    try:
        lines = open(path, encoding="utf-8").read().splitlines()
    except OSError as e:
        die("cannot read '%s': %s" % (path, e.strerror))
    try:
        start = lines.index(TABLE_HEADING)
    except ValueError:
        die("'%s' has no '%s' section" % (path, TABLE_HEADING))
    rows = {}
    for line in lines[start + 1:]:
        if line.startswith("## "):
            break
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 5 or not cells[0].isdigit():
            continue
        names = re.findall(r"`([^`]+)`", cells[1])
        if len(names) != 1:
            die("row '%s': expected one target in backquotes" % line)
        rows[names[0]] = {
            "level": int(cells[0]),
            "dirs": re.findall(r"`([^`]+)`", cells[2]),
            "deps": set(re.findall(r"`([^`]+)`", cells[4])),
        }
    if not rows:
        die("the '%s' section of '%s' has no rows" % (TABLE_HEADING, path))
    return rows


LINK_RE = re.compile(r"target_link_libraries\(\s*([\w-]+)([^)]*)\)", re.S)
# dan_add_tool(NAME SOURCES... LINK LIBS...) (cmake/DANAddLibrary.cmake).
TOOL_RE = re.compile(r"dan_add_tool\(\s*([\w-]+)[^)]*?\bLINK\b([^)]*)\)", re.S)


def read_links(root, rows):
    links = {}
    for top in ("lib", "tools", "python", "fuzz", "unittests"):
        for dirpath, _, files in os.walk(os.path.join(root, top)):
            if "CMakeLists.txt" not in files:
                continue
            text = open(os.path.join(dirpath, "CMakeLists.txt"),
                        encoding="utf-8").read()
            for m in list(LINK_RE.finditer(text)) + list(TOOL_RE.finditer(text)):
                words = m.group(2).split()
                links.setdefault(m.group(1), set()).update(
                    w for w in words if w in rows)
    return links


def closure(target, links):
    seen, todo = set(), [target]
    while todo:
        for dep in links.get(todo.pop(), ()):
            if dep not in seen:
                seen.add(dep)
                todo.append(dep)
    return seen


def owner_of_header(header, rows):
    """The target whose directories hold include/<header>."""
    path = "include/" + header
    for name, row in rows.items():
        if any(path.startswith(d.rstrip("/") + "/") for d in row["dirs"]):
            return name
    return None


def owner_of_path(path, rows):
    """The target whose longest directory holds \p path."""
    best, best_len = None, -1
    for name, row in rows.items():
        for d in row["dirs"]:
            d = d.rstrip("/")
            if path.startswith(d + "/") and len(d) > best_len:
                best, best_len = name, len(d)
    return best


INCLUDE_RE = re.compile(r'^\s*#\s*include\s+"(dan/[^"]+)"', re.M)


def main():
    root = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                           os.path.join(os.path.dirname(__file__), ".."))
    rows = read_table(root)
    links = read_links(root, rows)
    problems = []
    for name in sorted(rows):
        row = rows[name]
        linked = links.get(name, set())
        for dep in sorted(linked):
            if rows[dep]["level"] >= row["level"]:
                problems.append(
                    "%s (level %d) links %s (level %d), which is not below it"
                    % (name, row["level"], dep, rows[dep]["level"]))
        for dep in sorted(linked - row["deps"]):
            problems.append("%s links %s, which its row does not list" %
                            (name, dep))
        for dep in sorted(row["deps"] - linked):
            if dep in rows:
                problems.append("%s's row lists %s, which it does not link" %
                                (name, dep))
        reach = closure(name, links) | {name}
        for d in row["dirs"]:
            for dirpath, _, files in os.walk(os.path.join(root, d)):
                for f in sorted(files):
                    if not f.endswith((".h", ".cpp", ".def", ".re", ".yy")):
                        continue
                    p = os.path.join(dirpath, f)
                    # A folder inside another target's folder belongs to
                    # the target that names it (the longest directory).
                    if owner_of_path(os.path.relpath(p, root), rows) != name:
                        continue
                    text = open(p, encoding="utf-8").read()
                    for header in INCLUDE_RE.findall(text):
                        owner = owner_of_header(header, rows)
                        if owner is not None and owner not in reach:
                            problems.append(
                                "%s (of %s) includes %s (of %s), which %s "
                                "does not link" %
                                (os.path.relpath(p, root), name, header,
                                 owner, name))
    for p in problems:
        print("check-layers: " + p)
    if problems:
        sys.exit(1)
    print("check-layers: %d targets, every dependency points down" %
          len(rows))


if __name__ == "__main__":
    main()
