"""Checks a dan-cpe --stats report: the makespan never rises, and it drops
exactly when a move was accepted or the search started from the list
schedule."""
import re
import sys

text = open(sys.argv[1]).read()
before = int(re.search(r"^dan-cpe: @\S+: makespan before: (\d+)$", text, re.M).group(1))
after = int(re.search(r"^dan-cpe: @\S+: makespan after: (\d+)", text, re.M).group(1))
moves = int(re.search(r"^dan-cpe: @\S+: moves: (\d+)$", text, re.M).group(1))
from_list = re.search(r"^dan-cpe: @\S+: list schedule: .*started from it", text, re.M)
if after > before or (moves > 0 or bool(from_list)) != (after < before):
    sys.exit(f"{sys.argv[1]}: makespan {before} -> {after} with {moves} moves")
