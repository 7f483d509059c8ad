#!/bin/sh
# Interesting while dan-verify's messages on the file (the last argument)
# contain the pattern (the first argument).
dan-verify --error-limit=0 "$2" 2>&1 | grep -q -- "$1"
