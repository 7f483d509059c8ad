#!/usr/bin/env python3
"""What a kernel costs when it holds less of L1: the plan against capacity.

Usage: bench/capacity.py [--build DIR] [--workloads DIR]
                         [--kernels NAME,...] [--l1 N,N,...]

For each contest workload named by --kernels (default: Matmul_Case0,
Conv_Case0, FlashAttention_Case0, FlashAttention_Case1) and each L1
capacity of --l1 (default 4096, 3840, 3584, 3072, 2048, 1024, 512, 256),
the default pipe plans the workload alone for that capacity
(dan-translate --import=json --capacity=L1=N, dan-mpas, dan-dlr, dan-cpe)
and dan-replay measures it. It prints the extra DDR traffic, the spill
count and the makespan, or "does not fit" when the first tool refuses the
graph (an operation needs more of L1 at once). Two kernels that run at
once share L1, so this is what each pays for the room it leaves the other
(docs/Kernels.md, "What it does not do"). It prints figures; it checks
nothing (the tests do).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_KERNELS = ("Matmul_Case0,Conv_Case0,FlashAttention_Case0,"
                   "FlashAttention_Case1")
DEFAULT_L1 = "4096,3840,3584,3072,2048,1024,512,256"


def plan(b, src, capacity, tmp):
    """The replay's metrics of `src` planned for L1 = `capacity`, or None
    when a tool of the pipe refuses it."""
    steps = [[b("dan-translate"), "--import=json",
              f"--capacity=L1={capacity}", src],
             [b("dan-mpas")], [b("dan-dlr")], [b("dan-cpe")]]
    data = None
    for cmd in steps:
        r = subprocess.run(cmd, input=data, capture_output=True)
        if r.returncode != 0:
            return None
        data = r.stdout
    path = os.path.join(tmp, "planned.dan")
    with open(path, "wb") as f:
        f.write(data)
    out = subprocess.run([b("dan-replay"), "--format=json", path],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--workloads", default=os.path.join(ROOT, "data",
                                                        "contest"))
    ap.add_argument("--kernels", default=DEFAULT_KERNELS)
    ap.add_argument("--l1", default=DEFAULT_L1)
    args = ap.parse_args()
    b = lambda tool: os.path.join(args.build, "bin", tool)
    capacities = [int(c) for c in args.l1.split(",")]
    print("each kernel alone under the default pipe, L1 capacity reduced; "
          "extra DDR traffic / spills / makespan")
    print("| kernel | L1 | traffic | spills | makespan |")
    print("| --- | ---: | ---: | ---: | ---: |")
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.kernels.split(","):
            src = os.path.join(args.workloads, name + ".json")
            if not os.path.exists(src):
                sys.exit(f"capacity.py: no workload {src}")
            for capacity in capacities:
                m = plan(b, src, capacity, tmp)
                if m is None:
                    print(f"| {name} | {capacity} | does not fit | | |")
                    continue
                print(f"| {name} | {capacity} | {m['extra_ddr_traffic']:,} "
                      f"| {m['spill_count']:,} | {m['makespan']:,} |")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
