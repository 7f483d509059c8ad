# Loaded by test/lit.cfg.py and test/Unit/lit.cfg.py: how the tests run in a
# build with -DDAN_SANITIZE=ON (AddressSanitizer, LeakSanitizer and
# UndefinedBehaviorSanitizer).
#
# A sanitizer report aborts the tool (abort_on_error), so it is a crash:
# 'not' fails on a crash, FileCheck does not see the expected output, and a
# report can never hide behind an expected nonzero exit status. Leaks count.
# A single allocation above 1 GiB is a report too: no test input needs it,
# and a size taken from an id in the input (a node id of 4,000,000,000)
# would. The 'asan' feature lets a test skip what the sanitizers cannot do
# (a virtual memory limit: their shadow memory needs terabytes of address
# space).
import os

if config.dan_sanitize:
    config.available_features.add("asan")
    config.environment["ASAN_OPTIONS"] = ":".join(
        [
            "abort_on_error=1",
            "detect_leaks=1",
            "check_initialization_order=1",
            "strict_init_order=1",
            "strict_string_checks=1",
            "max_allocation_size_mb=1024",
            "allocator_may_return_null=0",
        ]
    )
    config.environment["UBSAN_OPTIONS"] = ":".join(
        ["abort_on_error=1", "halt_on_error=1", "print_stacktrace=1"]
    )

# %bench-chain: the length of the chain test/Robustness/chain-bench.test
# runs dan-bench's six methods on. A million nodes in the normal build,
# where the test shows that no method recurses per node; a tenth of that
# under the sanitizers, which run it ten times slower (400 s, most of the
# sanitizer run's test time) and whose larger stack frames would overflow
# on a recursion per node at that depth too.
config.substitutions.append(
    ("%bench-chain", "100000" if config.dan_sanitize else "1000000"))
