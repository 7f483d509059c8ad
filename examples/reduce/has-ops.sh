#!/bin/sh
for a; do file=$a; done
while [ $# -gt 1 ]; do grep -q " = $1 " "$file" || exit 1; shift; done
