#!/usr/bin/env bash
# Compares what two builds of DAN print: every tool's output on the five
# contest workloads and on every bundled example.
#
#   utils/compare-outputs.sh OLD_BUILD NEW_BUILD [WORK_DIR]
#
# OLD_BUILD and NEW_BUILD are build folders (their tools in bin/). For each
# build it writes into WORK_DIR/old and WORK_DIR/new (default: a temporary
# folder, kept) the import or print, the outputs of dan-mpas, dan-dlr and
# dan-cpe, dan-verify and dan-replay on every stage, the JSON, submission
# and DOT exports, dan-bench --quiet, and, under a shrunk target given to
# every tool as flags (the form both builds accept), the same pipe again.
# Each tool's stderr and exit status are kept beside its output.
#
# The new build also runs the shrunk pipe with the flags given to dan-mpas
# only (into first/, which needs the target carried in the IR) and checks
# that every output equals the flags-everywhere one.
#
# Then it runs 'diff -r' on the two folders: "identical" when every byte is
# the same; "same except for the 'target' line" (listing those files) when
# only IR files' target headers differ (an old build writes 'target davinci'
# under any flags); otherwise it shows the differences. Exit status 0 in the
# first two cases when the flags-on-dan-mpas-only check holds too, 1
# otherwise. Workloads come from $DAN_WORKLOADS (default: data/contest).
set -uo pipefail
if [[ $# -lt 2 ]]; then
  sed -n '2,23p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OLD="$(cd "$1" && pwd)"
NEW="$(cd "$2" && pwd)"
WORK="${3:-$(mktemp -d /tmp/dan-compare.XXXXXX)}"
WORKLOADS="${DAN_WORKLOADS:-$ROOT/data/contest}"

# The shrunk targets: small enough that the examples and the workloads spill.
EXAMPLE_FLAGS=(--capacity=L1=192 --spill-cost=100,3)
WORKLOAD_FLAGS=(--capacity=L1=3072 --capacity=UB=768 --spill-cost=100,3)

# run OUT_PREFIX TOOL ARGS...: stdout to OUT_PREFIX, stderr to .err, status
# to .rc.
run() {
  local Out="$1"
  shift
  "$@" >"$Out" 2>"$Out.err"
  echo $? >"$Out.rc"
}

# pipe BIN DIR INPUT FLAGS...: the three stages and every reader of them,
# each given FLAGS. With FIRST_ONLY=1 only dan-mpas gets them: the later
# tools take the target from the file (builds with a target in the IR).
pipe() {
  local Bin="$1" Dir="$2" In="$3"
  shift 3
  run "$Dir/s1.dan" "$Bin/dan-mpas" "$@" "$In"
  [[ "${FIRST_ONLY:-0}" == 1 ]] && set --
  run "$Dir/s2.dan" "$Bin/dan-dlr" "$@" "$Dir/s1.dan"
  run "$Dir/s3.dan" "$Bin/dan-cpe" "$@" "$Dir/s2.dan"
  for S in s1 s2 s3; do
    run "$Dir/$S.verify" "$Bin/dan-verify" --summary "$@" "$Dir/$S.dan"
    run "$Dir/$S.replay" "$Bin/dan-replay" "$@" "$Dir/$S.dan"
    run "$Dir/$S.replay.json" "$Bin/dan-replay" --format=json "$@" \
      "$Dir/$S.dan"
  done
  run "$Dir/s3.against" "$Bin/dan-verify" --against "$Dir/s2.dan" "$@" \
    "$Dir/s3.dan"
  run "$Dir/s3.json" "$Bin/dan-translate" --export=json "$@" "$Dir/s3.dan"
  run "$Dir/s3.dot" "$Bin/dan-translate" --export=dot "$@" "$Dir/s3.dan"
  mkdir -p "$Dir/submission"
  run "$Dir/submission.log" "$Bin/dan-translate" --export=submission "$@" \
    "$Dir/s3.dan" -o "$Dir/submission"
}

collect() {
  local Bin="$1/bin" Out="$2" Name Dir
  rm -rf "$Out"
  mkdir -p "$Out"
  for F in "$ROOT"/examples/*.dan "$WORKLOADS"/*.json; do
    Name="$(basename "${F%.*}")"
    # Relative paths from here on, so that messages naming a file read the
    # same in both folders.
    mkdir -p "$Out/$Name/shrunk"
    cd "$Out/$Name" || exit 2
    Dir=.
    if [[ "$F" == *.json ]]; then
      run "$Dir/input.dan" "$Bin/dan-translate" --import=json "$F"
      FLAGS=("${WORKLOAD_FLAGS[@]}")
    else
      run "$Dir/input.dan" "$Bin/dan-translate" "$F"
      FLAGS=("${EXAMPLE_FLAGS[@]}")
    fi
    run "$Dir/input.verify" "$Bin/dan-verify" --summary "$Dir/input.dan"
    run "$Dir/input.replay" "$Bin/dan-replay" "$Dir/input.dan"
    run "$Dir/input.json" "$Bin/dan-translate" --export=json "$Dir/input.dan"
    pipe "$Bin" "$Dir" "$Dir/input.dan"
    pipe "$Bin" shrunk "$Dir/input.dan" "${FLAGS[@]}"
    if [[ "${WITH_FIRST:-0}" == 1 ]]; then
      mkdir -p first
      FIRST_ONLY=1 pipe "$Bin" first "$Dir/input.dan" "${FLAGS[@]}"
    fi
    # A graph that already has a plan is refused by dan-bench (same way
    # in both builds); the rest get the whole comparison.
    run "$Dir/bench" "$Bin/dan-bench" --quiet "$Dir/input.dan"
    cd - >/dev/null || exit 2
  done
}

echo "collecting $OLD -> $WORK/old"
collect "$OLD" "$WORK/old"
echo "collecting $NEW -> $WORK/new"
# The new build also runs the shrunk pipe with the flags on dan-mpas only.
WITH_FIRST=1 collect "$NEW" "$WORK/new"
Status=0
for D in "$WORK"/new/*/; do
  # Messages name their file (shrunk/s1.dan, first/s1.dan), after the
  # tool's name: lines that differ only there are the same message.
  if ! diff -r -I '^\(dan-[a-z]*: \)\?\(shrunk\|first\)/s[0-9]\.dan:' \
    "$D/shrunk" "$D/first" \
    >/dev/null; then
    echo "new build: flags on dan-mpas only differ from flags on every" \
      "tool: diff -r $D/shrunk $D/first"
    Status=1
  fi
done
[[ $Status == 0 ]] && echo "new build: flags on dan-mpas only give the" \
  "same outputs as flags on every tool, on every graph"
echo "files: $(find "$WORK/old" -type f | wc -l) per build"
if diff -r -x first "$WORK/old" "$WORK/new" >"$WORK/diff.txt"; then
  echo "identical: every output of both builds is the same, byte for byte"
  exit $Status
fi
if diff -r -x first -I '^target ' "$WORK/old" "$WORK/new" >/dev/null; then
  echo "same except for the 'target' line of $(grep -c '^diff ' \
    "$WORK/diff.txt") IR files (the shrunk target recorded; $WORK/diff.txt):"
  grep "^diff " "$WORK/diff.txt" | sed "s#^diff -r -x first $WORK/old/##; s# .*##; s#^#  #"
  grep '^> target' "$WORK/diff.txt" | sort | uniq -c
  exit $Status
fi
echo "DIFFERENT ($(grep -c '^diff ' "$WORK/diff.txt") files); $WORK/diff.txt:"
head -n 60 "$WORK/diff.txt"
exit 1
