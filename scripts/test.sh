#!/usr/bin/env bash
# The test command: set up, build, and run every test (lit tool tests and
# GoogleTest unit tests); then build again with AddressSanitizer, LeakSanitizer
# and UndefinedBehaviorSanitizer (-DDAN_SANITIZE=ON, in build-asan/) and run
# every test there too. Each run ends with "tests: N passed, N failed,
# N skipped"; the first failure stops the script.
#
# DAN_BUILD_DIR and DAN_ASAN_BUILD_DIR choose the two build folders;
# DAN_SKIP_SANITIZE=1 skips the sanitizer run (for a quick local check; CI
# never sets it).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${DAN_BUILD_DIR:-$ROOT/build}"
ASAN_DIR="${DAN_ASAN_BUILD_DIR:-$ROOT/build-asan}"
"$ROOT/scripts/setup.sh"
echo "== normal build ($BUILD_DIR)"
ninja -C "$BUILD_DIR" -j2 check

if [[ "${DAN_SKIP_SANITIZE:-0}" == 1 ]]; then
  echo "== sanitizer build skipped (DAN_SKIP_SANITIZE=1)"
  exit 0
fi
echo "== sanitizer build ($ASAN_DIR): address, leak, undefined behaviour"
if [[ ! -f "$ASAN_DIR/build.ninja" ]]; then
  # -O2 without -DNDEBUG: assertions on as well. (At -O1 the sanitized
  # parser is several times slower, and -O3 takes twice as long to build.)
  cmake -S "$ROOT" -B "$ASAN_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CXX_FLAGS_RELEASE=-O2 -DDAN_SANITIZE=ON >/dev/null
fi
# Two cores: never more than two jobs.
ninja -C "$ASAN_DIR" -j2 | tail -n 1
ninja -C "$ASAN_DIR" -j2 check
