"""What test/Python/module.test runs: the dan module end to end."""
import sys

import dan

examples, tmp = sys.argv[1], sys.argv[2]

# Read, verify, measure, print.
g = dan.read(examples + "/matmul2x2.dan")
print("read", g.name, len(g), g.verify())
print("before", g.metrics())

# A pipeline in dan-opt's text; the figures of each pass as dicts.
stats = g.run("mpas,dlr<horizon=400>,cpe")
print("passes", [s["pass"] for s in stats], "spills", stats[1]["spills"])
print("after", g.metrics())
with open(tmp + "/planned.dan", "w") as f:
    f.write(g.print())

# A graph built node by node, with an attribute, read back from its text.
b = dan.Builder("Exp")
x = b.alloc("UB", 512)
load = b.op("COPY_IN", "MTE2", 80, [x], after=[x.alloc])
e = b.op("EXP", "VECTOR", 100, [x], after=[load])
store = b.op("COPY_OUT", "MTE3", 80, [x], after=[e])
b.free(x, after=[store])
b.attr(e, "src", "exp.f16")
built = b.finish()
print("built", len(built), built.verify())
assert dan.parse(built.print()).print() == built.print()
with open(tmp + "/built.dan", "w") as f:
    f.write(str(built))

# The nodes as dicts, in schedule order: what a compiler maps back.
ops = [n for n in built.nodes() if n["kind"] == "op"]
print("nodes", [(n["id"], n["kind"]) for n in built.nodes()])
print("exp", ops[1]["op"], ops[1]["pipe"], ops[1]["buffers"], ops[1]["after"], ops[1]["attrs"])
spill = dan.read(examples + "/spill.dan").nodes()
print("spill", [n for n in spill if n["kind"].startswith("spill")])

# Contest JSON in and out.
j = dan.parse(built.to_json(), name="exp.json")
print("json", j.name, len(j))

# Errors are dan.Error with the tools' messages; a failed run changes
# nothing.
for what, call in [
    ("parse", lambda: dan.parse("graph @x {\n  n0 = alloc b0 L9 5\n}\n")),
    ("builder", lambda: dan.Builder("B").alloc("L9", 5)),
    ("pipeline", lambda: g.run("mpas<l0=sometimes>")),
    ("refused", lambda: g.run("mpas")),
    # A later pass still refuses what it cannot take.
    ("later", lambda: g.run("cpe,dlr")),
    ("target", lambda: dan.Builder("B", target="tpu")),
    ("read", lambda: dan.read(tmp + "/missing.dan")),
    # A buffer of another builder: refused, not taken for this one's b0.
    ("foreign", lambda: dan.Builder("V", target="vnpu").free(
        dan.Builder("D").alloc("L0C", 64))),
    # Of the same shape as one of this builder's: still another builder's.
    ("alike", lambda: (lambda b: (b.alloc("UB", 64), b.free(
        dan.Builder("E").alloc("UB", 64))))(dan.Builder("D"))),
    # A name 'graph @a b' would not parse back.
    ("name", lambda: dan.Builder("a b")),
]:
    try:
        call()
        print(what, "no error")
    except dan.Error as err:
        print(what, "error:", str(err).splitlines()[0])
# A quoted source line that is not UTF-8 comes back escaped.
with open(tmp + "/bad.dan", "wb") as f:
    f.write(b"graph @x {\n  n0 = alloc b0 L9 5 // caf\xe9\n}\n")
try:
    dan.read(tmp + "/bad.dan")
except dan.Error as err:
    lines = str(err).splitlines()
    print("latin1 error:", lines[0].split("/")[-1])
    print("latin1 line:", lines[1])
# A source line with UTF-8 keeps its caret, as the tools print it
# (SMDiagnostic::print leaves it out).
try:
    dan.parse("graph @x {\n  n0 = alloc b0 L9 5 // caf\u00e9\n}\n")
except dan.Error as err:
    print("utf8 caret:", repr(str(err).splitlines()[2]))
# A path with a NUL byte is refused as open() refuses it (the C library
# would read the file named up to the NUL).
try:
    dan.read(examples + "/matmul2x2.dan\0.x")
    print("nul no error")
except ValueError as err:
    print("nul error:", err)
# An object made by __new__ without __init__ is refused, not used: its
# memory was never written.
for what, call in [
    ("new Builder", lambda: dan.Builder.__new__(dan.Builder).alloc("L1", 64)),
    ("new Graph", lambda: dan.Graph.__new__(dan.Graph)),
    ("new Node", lambda: dan.Node.__new__(dan.Node)),
    ("new Buffer", lambda: dan.Buffer.__new__(dan.Buffer)),
    ("Graph()", lambda: dan.Graph()),
    ("not a Builder", lambda: dan.Builder.alloc(g, "L1", 64)),
]:
    try:
        call()
        print(what, "no error")
    except TypeError as err:
        print(what, "TypeError:", err)
print("unchanged", g.print() == open(tmp + "/planned.dan").read())
# help() names a method's object by its class.
print("signature", dan.Builder.alloc.__doc__.splitlines()[0])
print("pipeline", dan.print_pipeline("cpe<effort=2>")[:30])
