#!/bin/sh
# Interesting while the file (the last argument) has an operation of every
# name given before it.
for a; do file=$a; done
while [ $# -gt 1 ]; do
  grep -q " = $1 " "$file" || exit 1
  shift
done
