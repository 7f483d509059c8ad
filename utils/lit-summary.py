#!/usr/bin/env python3
"""Prints the plain 'N passed, N failed' line of a lit JSON result file."""
import json
import sys

with open(sys.argv[1]) as f:
    results = json.load(f)["tests"]
codes = [t["code"] for t in results]
passed = sum(c in ("PASS", "XFAIL") for c in codes)
failed = sum(c in ("FAIL", "XPASS", "UNRESOLVED", "TIMEOUT") for c in codes)
skipped = sum(c == "UNSUPPORTED" for c in codes)
print(f"tests: {passed} passed, {failed} failed, {skipped} skipped")
sys.exit(1 if failed else 0)
