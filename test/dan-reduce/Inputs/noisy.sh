#!/bin/sh
# Writes to both of its outputs and reads its input, which must be empty;
# interesting while the file (the first argument) has an EXP.
echo NOISE
echo NOISE >&2
test -z "$(cat)" && grep -q ' = EXP ' "$1"
