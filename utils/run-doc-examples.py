#!/usr/bin/env python3
"""Runs the command examples of the docs and compares their output.

    utils/run-doc-examples.py --tools DIR [--src ROOT] [--update] [FILE.md...]

Every ```console block of each Markdown file is an example: lines that
start with "$ " are commands (a line ending in a backslash continues on the
next), the lines after a command up to the next one are what it prints,
stdout and stderr together. A line "..." in the shown output stands for any
number of lines. The commands of one block run one after another with bash,
in a fresh folder holding copies of the repository's examples/, data/ and
test/ and build/bin/ naming the tools, which are also on PATH; a block may
use files an earlier command of the same block wrote.

A block that cannot run here (it takes minutes, writes into the
repository, or needs a program the test does not install) is marked by the
line

    <!-- docs-test: skip: WHY -->

right before it; the script lists the skipped blocks with their reasons.

--update writes the printed output into the page instead, for an example
whose shown output has no "..." (those still fail): review the change
before committing it.

Exit status 0 when every example prints what its page shows, 1 otherwise
(each difference printed as a diff, with the page and line), 2 on a usage
error.
"""

import argparse
import difflib
import os
import re
import shutil
import subprocess
import sys
import tempfile

SKIP_RE = re.compile(r"^<!-- docs-test: skip: (.+) -->$")


def parse_blocks(path):
    """Yields (line number, skip reason or None, [(command, [output],
    index of the output's first line in the file)])."""
    lines = open(path, encoding="utf-8").read().splitlines()
    i = 0
    while i < len(lines):
        if lines[i].strip() != "```console":
            i += 1
            continue
        start = i + 1
        skip = None
        if i > 0:
            m = SKIP_RE.match(lines[i - 1].strip())
            if m:
                skip = m.group(1)
        i += 1
        body = []
        while i < len(lines) and lines[i].strip() != "```":
            body.append(lines[i])
            i += 1
        i += 1
        steps = []
        j = 0
        while j < len(body):
            if not body[j].startswith("$ "):
                raise SystemExit("%s:%d: output before the first command"
                                 % (path, start + j + 1))
            cmd = body[j][2:]
            while cmd.endswith("\\") and j + 1 < len(body):
                j += 1
                cmd += "\n" + body[j]
            j += 1
            out = []
            out_start = start + j
            while j < len(body) and not body[j].startswith("$ "):
                out.append(body[j])
                j += 1
            steps.append((cmd, out, out_start))
        yield start, skip, steps


def matches(shown, got):
    """Whether the shown lines match the output; '...' matches any lines."""
    if not shown:
        return not got
    if shown[0] == "...":
        return any(matches(shown[1:], got[k:]) for k in range(len(got) + 1))
    return bool(got) and shown[0] == got[0] and matches(shown[1:], got[1:])


MARK = "@@dan-doc-example-%d@@"


def run_block(cmds, work, env):
    """Runs the commands of one block in one bash, as a reader would type
    them (so '$?' and 'cd' carry over), and returns each one's output
    lines. A marker line is printed before each command, keeping the exit
    status of the one before."""
    script = []
    for k, cmd in enumerate(cmds):
        script.append('__s=$?; echo "%s"; (exit $__s)' % (MARK % k))
        script.append(cmd)
    proc = subprocess.run(["bash", "-c", "\n".join(script)], cwd=work,
                          env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, timeout=600)
    text = proc.stdout.decode("utf-8", "replace").splitlines()
    outputs = []
    for k in range(len(cmds)):
        try:
            begin = text.index(MARK % k) + 1
        except ValueError:
            outputs.append(["(the block stopped before this command)"])
            continue
        end = (text.index(MARK % (k + 1)) if MARK % (k + 1) in text
               else len(text))
        outputs.append([t.rstrip() for t in text[begin:end]])
    return outputs


def make_base(src, tools):
    """A copy of what the examples read: examples/, data/ and test/, and
    build/bin naming the tools. Copied, so that no example can change the
    repository."""
    base = tempfile.mkdtemp(prefix="dan-doc-examples.")
    for name in ("examples", "data", "test"):
        shutil.copytree(os.path.join(src, name), os.path.join(base, name),
                        symlinks=True)
    os.makedirs(os.path.join(base, "build"))
    os.symlink(tools, os.path.join(base, "build", "bin"))
    return base


def make_workdir(base):
    """A fresh folder for one block, its files hard links into the base."""
    work = tempfile.mkdtemp(prefix="block.", dir=base)
    for name in ("examples", "data", "test", "build"):
        subprocess.run(["cp", "-al", os.path.join(base, name), work],
                       check=True)
    return work


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tools", required=True, help="the folder of the tools")
    ap.add_argument("--src", default=os.path.join(os.path.dirname(
        os.path.abspath(__file__)), ".."), help="the repository")
    ap.add_argument("--update", action="store_true",
                    help="write each differing output into its page (not "
                    "where the page shows '...'); review the diff")
    ap.add_argument("files", nargs="*", help="default: README.md and "
                    "every page of docs/ and docs/CommandGuide/")
    args = ap.parse_args()
    src = os.path.abspath(args.src)
    tools = os.path.abspath(args.tools)
    if not args.files:
        import glob
        args.files = [os.path.join(src, "README.md")] + sorted(
            glob.glob(os.path.join(src, "docs", "*.md")) +
            glob.glob(os.path.join(src, "docs", "CommandGuide", "*.md")))
    env = dict(os.environ)
    env["PATH"] = tools + os.pathsep + env.get("PATH", "")
    env["LC_ALL"] = "C"

    ran = failed = updated = 0
    skipped = []
    updates = {}
    base = make_base(src, tools)
    for path in args.files:
        shown_path = os.path.relpath(path, src)
        for line, skip, steps in parse_blocks(path):
            if skip:
                skipped.append("%s:%d: %s" % (shown_path, line, skip))
                continue
            work = make_workdir(base)
            try:
                outputs = run_block([cmd for cmd, _, _ in steps], work, env)
            finally:
                shutil.rmtree(work)
            for (cmd, shown, at), got in zip(steps, outputs):
                ran += 1
                want = [s.rstrip() for s in shown]
                if matches(want, got):
                    continue
                failed += 1
                if args.update and "..." not in want:
                    updates.setdefault(path, []).append((at, len(shown), got))
                    updated += 1
                print("%s:%d: the output of '%s' differs from the page:"
                      % (shown_path, line, cmd.splitlines()[0]))
                sys.stdout.writelines(
                    l + "\n" for l in difflib.unified_diff(
                        want, got, "shown", "printed", lineterm=""))
    shutil.rmtree(base)
    for path, edits in updates.items():
        lines = open(path, encoding="utf-8").read().splitlines()
        for at, count, got in sorted(edits, reverse=True):
            lines[at:at + count] = got
        open(path, "w", encoding="utf-8").write("\n".join(lines) + "\n")
        print("updated: %s (%d outputs)" % (path, len(edits)))
    for s in skipped:
        print("skipped: " + s)
    print("doc examples: %d commands run, %d differ, %d blocks skipped"
          % (ran, failed, len(skipped)))
    # With --update, what was written into its page is no longer a failure.
    return 1 if failed - updated else 0


if __name__ == "__main__":
    sys.exit(main())
