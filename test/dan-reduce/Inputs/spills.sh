#!/bin/sh
# Interesting while the file still has a spill.
grep -q spill_out "$1"
