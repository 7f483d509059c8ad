#!/usr/bin/env bash
# Installs what DAN needs from Debian (only what is missing), then configures
# and builds it in $DAN_BUILD_DIR (default: build/). Safe to run again.
# --print-packages prints the package list and does nothing else.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${DAN_BUILD_DIR:-$ROOT/build}"

# The build's Debian packages (utils/fuzz.sh installs the same ones and
# clang); clang-format for the style test (test/Style/clang-format.test);
# pkgconf for the installed-package test (test/Install); pybind11-dev and
# python3-dev for the Python module (python/).
BUILD_PACKAGES=(cmake ninja-build g++ python3 llvm-19-dev llvm-19-tools
                libzstd-dev zlib1g-dev re2c bison googletest
                libgtest-dev clang-format pkgconf pybind11-dev python3-dev)
if [[ "${1:-}" == "--print-packages" ]]; then
  echo "${BUILD_PACKAGES[@]}"
  exit 0
fi
"$ROOT/scripts/install-packages.sh" setup "${BUILD_PACKAGES[@]}"

if [[ ! -f "$BUILD_DIR/build.ninja" ]]; then
  cmake -S "$ROOT" -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
# Two cores: never more than two jobs.
ninja -C "$BUILD_DIR" -j2 | tail -n 1
