#!/usr/bin/env python3
"""Reads dan-replay --format=json on stdin and prints one line of metrics."""
import json
import sys

m = json.load(sys.stdin)
lb = max(m["critical_path_lb"], m["pipe_lb"])
print(f"{m['graph']}: verified; peak L1+UB {m['peak_l1ub']}, "
      f"extra DDR traffic {m['extra_ddr_traffic']}, spills {m['spill_count']}, "
      f"makespan {m['makespan']} (lower bound {lb})")
