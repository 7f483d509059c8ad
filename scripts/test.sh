#!/usr/bin/env bash
# The test command: set up, build, and run every test (lit tool tests and
# GoogleTest unit tests). Ends with "tests: N passed, N failed, N skipped".
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${DAN_BUILD_DIR:-$ROOT/build}"
"$ROOT/scripts/setup.sh"
ninja -C "$BUILD_DIR" -j2 check
