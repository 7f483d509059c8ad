#!/bin/sh
# Interesting once, then gone: the test removes itself on its first run, so
# the next run cannot start.
rm -f -- "$0"
exit 0
