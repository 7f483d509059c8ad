"""check-trace.py TRACE.json: checks a Chrome trace-event file event by event.

Every event has a known phase and the keys that phase needs, with integer
times; slices ("X") have a non-negative duration on a named thread; counter
events ("C") carry non-negative byte counts and every counter track ends at
0; every flow start ("s") has exactly one end ("f", bound to the enclosing
slice) with the same id, no earlier. Prints a summary line, or the first
fault (exit status 1)."""
import json
import sys

d = json.load(open(sys.argv[1]))


def fail(msg):
    print("invalid: " + msg)
    sys.exit(1)


threads, slices, counters, last = set(), 0, 0, {}
starts, ends = {}, {}
for e in d["traceEvents"]:
    ph = e.get("ph")
    if ph == "M":
        if e["name"] == "thread_name":
            threads.add(e["tid"])
        continue
    if not isinstance(e.get("ts"), int) or e["ts"] < 0:
        fail("event without an integer ts: %r" % e)
    if ph == "X":
        if e["tid"] not in threads or not isinstance(e.get("dur"), int) or e["dur"] < 0:
            fail("bad slice: %r" % e)
        slices += 1
    elif ph == "C":
        v = e["args"]["bytes"]
        if not isinstance(v, int) or v < 0:
            fail("bad counter: %r" % e)
        last[e["name"]] = v
        counters += 1
    elif ph in ("s", "f"):
        if e["tid"] not in threads:
            fail("flow on an unnamed thread: %r" % e)
        table = starts if ph == "s" else ends
        if e["id"] in table:
            fail("flow id %r twice" % e["id"])
        if ph == "f" and e.get("bp") != "e":
            fail("flow end not bound to its slice: %r" % e)
        table[e["id"]] = e
    else:
        fail("unknown phase: %r" % e)
if set(starts) != set(ends):
    fail("unpaired flows: %r" % (set(starts) ^ set(ends)))
for i in starts:
    if ends[i]["ts"] < starts[i]["ts"]:
        fail("flow %r ends before it starts" % i)
for name, v in last.items():
    if v != 0:
        fail("counter %s ends at %d, not 0" % (name, v))
print("valid: %d slices, %d counter events, %d flows" % (slices, counters, len(starts)))
