"""check-links.py ROOT: every Markdown link of ROOT/README.md and
ROOT/docs/**.md names a file inside ROOT that exists."""
import glob
import os
import re
import sys

root = os.path.realpath(sys.argv[1])
pages = [os.path.join(root, "README.md")] + sorted(
    glob.glob(os.path.join(root, "docs", "**", "*.md"), recursive=True))
link = re.compile(r"\]\(([^)\s]+)\)")
faults, count = [], 0
for page in pages:
    text = open(page, encoding="utf-8").read()
    # Code blocks show commands and outputs, not links.
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    for target in link.findall(text):
        count += 1
        name = os.path.relpath(page, root)
        if re.match(r"[a-z]+://", target) or target.startswith("mailto:"):
            faults.append("%s: link '%s' is a web address" % (name, target))
            continue
        path = target.split("#")[0]
        if not path:
            continue
        full = os.path.realpath(os.path.join(os.path.dirname(page), path))
        if not full.startswith(root + os.sep):
            faults.append("%s: link '%s' leaves the repository" % (name, target))
        elif not os.path.exists(full):
            faults.append("%s: link '%s' names no file" % (name, target))
for f in faults:
    print(f)
if faults:
    sys.exit(1)
print("links: %d checked, all inside the repository" % count)
