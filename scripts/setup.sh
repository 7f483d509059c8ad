#!/usr/bin/env bash
# Installs what DAN needs from Debian (only what is missing), then configures
# and builds it in $DAN_BUILD_DIR (default: build/). Safe to run again.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${DAN_BUILD_DIR:-$ROOT/build}"

PACKAGES=(cmake ninja-build g++ python3 llvm-19-dev llvm-19-tools libzstd-dev
          re2c bison googletest libgtest-dev)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done
if ((${#missing[@]})); then
  echo "setup: installing ${missing[*]}"
  SUDO=""
  if [[ $(id -u) -ne 0 ]]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if [[ ! -f "$BUILD_DIR/build.ninja" ]]; then
  cmake -S "$ROOT" -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
# Two cores: never more than two jobs.
ninja -C "$BUILD_DIR" -j2 | tail -n 1
