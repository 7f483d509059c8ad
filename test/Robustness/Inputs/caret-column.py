"""Reads a diagnostic (message, source line, caret line) on stdin and says
whether the caret stands under the first character of argv[1], counting
the display width of each character before it (two for East Asian wide)."""
import sys
import unicodedata

lines = sys.stdin.buffer.read().decode("utf-8").split("\n")
source, caret = lines[1], lines[2]
token = sys.argv[1]
before = source[: source.index(token)]
width = sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in before)
print("caret under " + token if caret.index("^") == width else
      "caret at %d, %s at %d" % (caret.index("^"), token, width))
