"""Checks a windowed diagnostic read from stdin: its first three lines are
'TOOL: FILE:LINE:COL: error: ...', the window, and the caret line. The window is at
most 200 columns plus a "..." at each cut end, and the caret points into it
at a position consistent with the real column: the shown text around the
caret must be the source text at COL (read from FILE)."""
import re
import sys

lines = sys.stdin.read().split("\n")
m = re.match(r"dan-[a-z]+: (.*):(\d+):(\d+): error: ", lines[0])
if not m:
    sys.exit("no location in: " + lines[0][:300])
path, line_no, col = m.group(1), int(m.group(2)), int(m.group(3))
window, caret_line = lines[1], lines[2]
body = window[3:] if window.startswith("...") else window
body = body[:-3] if body.endswith("...") else body
if len(body) > 200:
    sys.exit(f"window of {len(body)} columns")
caret = caret_line.index("^")
source = open(path).read().split("\n")[line_no - 1]
# The shown byte under the caret is the source byte at the column.
if window[caret] != source[col - 1].replace("\t", " "):
    sys.exit(f"caret at {window[caret]!r}, column {col} is {source[col - 1]!r}")
# And the window is the source around it.
start = col - 1 - (caret - (3 if window.startswith("...") else 0))
if source[start:start + len(body)] != body:
    sys.exit("the window is not the source text around the column")
print("ok")
