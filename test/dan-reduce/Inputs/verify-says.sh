#!/bin/sh
# Usage: verify-says.sh PATTERN [DAN-VERIFY-OPTION...] FILE
# Interesting while dan-verify's messages on FILE (with the options given)
# contain PATTERN.
pattern=$1
shift
dan-verify --error-limit=0 "$@" 2>&1 | grep -q -- "$pattern"
