#!/bin/sh
# verify-says.sh PATTERN [DAN-VERIFY-OPTION...] FILE
pattern=$1
shift
dan-verify --error-limit=0 "$@" 2>&1 | grep -q -- "$pattern"
