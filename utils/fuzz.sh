#!/usr/bin/env bash
# Fuzzes DAN: installs clang-19 and libFuzzer when missing, builds the fuzz
# targets with libFuzzer, AddressSanitizer and UndefinedBehaviorSanitizer in
# their own build directory, then runs each target for SECONDS.
#
#   utils/fuzz.sh [-n] SECONDS [TARGET...]
#
#   SECONDS  how long each target runs (0: only build)
#   TARGET   ir, json, csv, submission, pipeline, stages, export
#            (default: all seven)
#   -n       do not configure or build; use the targets already built
#
# Environment: DAN_FUZZ_BUILD_DIR (default build-fuzz/); DAN_FUZZ_MAX_LEN,
# when set, is libFuzzer's -max_len (the longest input, in bytes; by default
# libFuzzer takes the largest seed's, or 4096). Each target's
# corpus grows in $DAN_FUZZ_BUILD_DIR/fuzz-corpus/TARGET, starting from the
# committed seeds (fuzz/seeds/TARGET, never written to); what fails is saved
# in $DAN_FUZZ_BUILD_DIR/fuzz-artifacts/TARGET. Prints one line per target
# (time, max_len, executions, executions per second, final coverage,
# corpus size, result), also appended to $DAN_FUZZ_BUILD_DIR/
# fuzz-runs.log, and exits 1 if any target found something.
# docs/Fuzzing.md says more.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${DAN_FUZZ_BUILD_DIR:-$ROOT/build-fuzz}"
ALL_TARGETS=(ir json csv submission pipeline stages export)

usage() {
  sed -n '6,12p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2
  exit 2
}

BUILD=1
if [[ ${1:-} == -n ]]; then
  BUILD=0
  shift
fi
[[ $# -ge 1 && $1 =~ ^[0-9]+$ ]] || usage
SECONDS_EACH=$1
shift
TARGETS=("$@")
((${#TARGETS[@]})) || TARGETS=("${ALL_TARGETS[@]}")
for t in "${TARGETS[@]}"; do
  [[ " ${ALL_TARGETS[*]} " == *" $t "* ]] || { echo "fuzz: unknown target '$t'" >&2; usage; }
done

if ((BUILD)); then
  # What the normal build needs (scripts/setup.sh's list) and clang-19 with
  # its compiler-rt, which holds libFuzzer and the sanitizer runtimes.
  read -r -a PACKAGES <<<"$("$ROOT/scripts/setup.sh" --print-packages)"
  "$ROOT/scripts/install-packages.sh" fuzz "${PACKAGES[@]}" clang-19 \
    libclang-rt-19-dev
  if [[ ! -f "$BUILD_DIR/build.ninja" ]]; then
    CC=clang-19 CXX=clang++-19 cmake -S "$ROOT" -B "$BUILD_DIR" -G Ninja \
      -DCMAKE_BUILD_TYPE=RelWithDebInfo -DDAN_FUZZ=ON >/dev/null
  fi
  # Two cores: never more than two jobs.
  ninja -C "$BUILD_DIR" -j2 fuzz-targets | tail -n 1
fi
((SECONDS_EACH > 0)) || exit 0

status=0
for t in "${TARGETS[@]}"; do
  bin="$BUILD_DIR/bin/dan-fuzz-$t"
  [[ -x $bin ]] || { echo "fuzz: $bin is not built; run without -n" >&2; exit 2; }
  corpus="$BUILD_DIR/fuzz-corpus/$t"
  artifacts="$BUILD_DIR/fuzz-artifacts/$t"
  log="$BUILD_DIR/fuzz-logs/$t.log"
  mkdir -p "$corpus" "$artifacts" "$(dirname "$log")"
  # A hang (10 s on one input) and a memory blow-up (2 GB) are findings too.
  # The first corpus directory receives new inputs; the seeds are only read.
  extra=()
  [[ -n ${DAN_FUZZ_MAX_LEN:-} ]] && extra+=(-max_len="$DAN_FUZZ_MAX_LEN")
  # stages reads decisions, not text: no dictionary. export's text inputs
  # are pipeline's.
  case $t in
  stages) ;;
  export) extra+=(-dict="$ROOT/fuzz/dicts/pipeline.dict") ;;
  *) extra+=(-dict="$ROOT/fuzz/dicts/$t.dict") ;;
  esac
  set +e
  start=$(date +%s)
  "$bin" -max_total_time="$SECONDS_EACH" -timeout=10 -rss_limit_mb=2048 \
    -print_final_stats=1 "${extra[@]}" \
    -artifact_prefix="$artifacts/" "$corpus" "$ROOT/fuzz/seeds/$t" >"$log" 2>&1
  rc=$?
  secs=$(($(date +%s) - start))
  set -e
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
  # libFuzzer's last status line ("#N ... cov: C ft: F corp: K/S ...").
  cov=$(grep -E '^#[0-9]+' "$log" | tail -n 1 | grep -o -E 'cov: [0-9]+ ft: [0-9]+' || true)
  maxlen=${DAN_FUZZ_MAX_LEN:-$(grep -m1 -o -E 'will not generate inputs larger than [0-9]+' "$log" | grep -o -E '[0-9]+$' || true)}
  size=$(find "$corpus" -type f | wc -l)
  largest=$(find "$corpus" -type f -printf '%s\n' | sort -n | tail -n 1)
  if ((rc == 0)); then
    result="no finding"
  else
    status=1
    # The first line that says what went wrong: a sanitizer's report, a
    # failed assertion, a check of fuzz/FuzzSupport.cpp, or libFuzzer's.
    what=$(grep -m1 -o -E 'ERROR: [A-Za-z]+Sanitizer: .*|runtime error: .*|Assertion .* failed|dan-fuzz: .*|ERROR: libFuzzer: .*' "$log" || echo 'see the log')
    result="FINDING (exit $rc): ${what:0:200}"
    result+="; input in $artifacts, log $log"
  fi
  line=$(printf 'fuzz: %-10s %5ss max_len %s %10s executions %s/s %s corpus %s (largest %s B)  %s' \
    "$t" "$secs" "${maxlen:-?}" "${runs:-?}" "${rate:-?}" "${cov:-cov: ?}" \
    "$size" "${largest:-0}" "$result")
  echo "$line"
  # Every run is also kept, dated, in fuzz-runs.log: the record of the runs.
  echo "$(date -u +%Y-%m-%dT%H:%M:%SZ) $line" >>"$BUILD_DIR/fuzz-runs.log"
done
exit $status
