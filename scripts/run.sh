#!/usr/bin/env bash
# The main job: set up, build, then run the tools end to end on the bundled
# examples and on the contest workloads (data/contest).
# For each graph it prints its size and its verification result.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${DAN_BUILD_DIR:-$ROOT/build}"
WORKLOADS="$ROOT/data/contest"
BIN="$BUILD_DIR/bin"
OUT="$BUILD_DIR/run"

"$ROOT/scripts/setup.sh"
rm -rf "$OUT" && mkdir -p "$OUT"

# Round trip of one IR file through the printer, the JSON exporter and
# importer, and the submission exporter and importer; then verification.
check_graph() {
  local ir="$1" name="$2" base="$OUT/$2"
  "$BIN/dan-translate" "$ir" -o "$base.1.dan"
  "$BIN/dan-translate" "$base.1.dan" -o "$base.2.dan"
  cmp -s "$base.1.dan" "$base.2.dan" || { echo "$name: print is not a fixed point"; return 1; }
  "$BIN/dan-translate" "$base.1.dan" --export=json -o "$base.json"
  "$BIN/dan-translate" --import=json "$base.json" -o "$base.3.dan"
  "$BIN/dan-translate" "$base.3.dan" -o "$base.4.dan"
  # JSON export and import keep everything but the graph name (the file stem).
  sed 1,3d "$base.2.dan" | cmp -s - <(sed 1,3d "$base.4.dan") || { echo "$name: JSON round trip differs"; return 1; }
  "$BIN/dan-translate" "$base.1.dan" --export=submission -o "$OUT/submission"
  "$BIN/dan-translate" --import=submission "$base.1.dan" "$OUT/submission" -o "$base.5.dan"
  cmp -s "$base.1.dan" "$base.5.dan" || { echo "$name: submission round trip differs"; return 1; }
  "$BIN/dan-verify" --summary "$base.1.dan"
}

echo "== bundled examples"
for f in "$ROOT"/examples/*.dan; do
  check_graph "$f" "$(basename "$f" .dan)"
done

echo "== contest workloads (data/contest)"
for f in "$WORKLOADS"/*.json; do
  name="$(basename "$f" .json)"
  "$BIN/dan-translate" --import=json "$f" -o "$OUT/$name.dan"
  check_graph "$OUT/$name.dan" "$name"
done
echo "== the pipeline: dan-mpas | dan-dlr | dan-cpe, each stage verified"
for f in "$WORKLOADS"/*.json; do
  name="$(basename "$f" .json)"
  "$BIN/dan-mpas" "$OUT/$name.dan" -o "$OUT/$name.s1.dan"
  "$BIN/dan-verify" "$OUT/$name.s1.dan"
  "$BIN/dan-dlr" "$OUT/$name.s1.dan" -o "$OUT/$name.s2.dan"
  "$BIN/dan-verify" "$OUT/$name.s2.dan"
  "$BIN/dan-cpe" "$OUT/$name.s2.dan" -o "$OUT/$name.s3.dan"
  "$BIN/dan-verify" --against "$OUT/$name.s2.dan" "$OUT/$name.s3.dan"
  "$BIN/dan-replay" --format=json "$OUT/$name.s3.dan" | python3 "$ROOT/utils/metrics-line.py"
done
echo "== dan-opt -passes=mpas,dlr,cpe: the same stages in one process, the pipe's bytes"
for f in "$WORKLOADS"/*.json; do
  name="$(basename "$f" .json)"
  "$BIN/dan-opt" -passes=mpas,dlr,cpe --verify-each "$OUT/$name.dan" -o "$OUT/$name.opt.dan"
  cmp -s "$OUT/$name.s3.dan" "$OUT/$name.opt.dan" || { echo "$name: dan-opt differs from the pipe"; exit 1; }
  echo "$name: dan-opt writes what the pipe writes"
done
if [[ -d "$BUILD_DIR/python" ]] && ls "$BUILD_DIR"/python/dan*.so >/dev/null 2>&1; then
  echo "== Python: import dan; the same pipeline from Python"
  PYTHONPATH="$BUILD_DIR/python" python3 - "$OUT" "$WORKLOADS" <<'PY'
import os, sys
import dan
out, workloads = sys.argv[1], sys.argv[2]
for f in sorted(os.listdir(workloads)):
    if not f.endswith(".json"):
        continue
    name = f[:-len(".json")]
    g = dan.read(os.path.join(out, name + ".dan"))
    g.run("mpas,dlr,cpe")
    same = g.print() == open(os.path.join(out, name + ".s3.dan")).read()
    print(name, g.metrics(), "the pipe's bytes" if same else "DIFFERS")
    if not same:
        sys.exit(1)
PY
fi

# The comparison of all six methods under one replay (docs/Results.md has
# the full report; scripts/results.sh regenerates it).
echo "== dan-bench: every method on the bundled examples (L1 and UB shrunk so plans must spill)"
"$BIN/dan-bench" --quiet --capacity=L1=256 --capacity=UB=256 \
  "$ROOT"/examples/matmul2x2.dan "$ROOT"/examples/conv-2layer.dan \
  "$ROOT"/examples/flashattention-block.dan
echo "== dan-bench: every method on the contest workloads"
"$BIN/dan-bench" --quiet "$WORKLOADS"/*.json
echo "run: all graphs round-trip and verify; every pipeline stage verifies"
