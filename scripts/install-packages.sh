#!/usr/bin/env bash
# Installs the Debian packages named on the command line that are not
# installed yet (apt-get, with sudo when not root); installs nothing when
# every one is there. Used by scripts/setup.sh and utils/fuzz.sh.
#
#   scripts/install-packages.sh TAG PACKAGE...    # TAG prefixes the message
set -euo pipefail

tag="$1"
shift
missing=()
for p in "$@"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done
if ((${#missing[@]})); then
  echo "$tag: installing ${missing[*]}"
  SUDO=""
  if [[ $(id -u) -ne 0 ]]; then SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi
