# lit configuration of the DAN tool tests.
import os
import shutil

import lit.formats

config.name = "DAN"
# RUN lines loop over examples and workloads, so they run in bash.
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".dan", ".test"]
config.excludes = ["Inputs", "Unit", "CMakeLists.txt", "lit.cfg.py", "sanitizers.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.dan_obj_root, "test")

# The DAN tools first, then FileCheck and not from LLVM.
config.environment["PATH"] = os.pathsep.join(
    [config.dan_tools_dir, config.llvm_tools_dir, config.environment.get("PATH", "")]
)
config.substitutions.append(("%examples", os.path.join(config.dan_src_root, "examples")))
# The contest workloads live in the repository (data/contest/README.md).
config.substitutions.append(("%workloads", os.path.join(config.dan_src_root, "data", "contest")))
config.substitutions.append(("%python", "python3"))
# "%expect-exit N cmd ...": cmd must exit with status N (utils/expect-exit.sh).
config.substitutions.append(
    ("%expect-exit", "sh " + os.path.join(config.dan_src_root, "utils", "expect-exit.sh")))
config.substitutions.append(("%utils", os.path.join(config.dan_src_root, "utils")))
config.substitutions.append(("%fuzz", os.path.join(config.dan_src_root, "fuzz")))
config.substitutions.append(("%src", config.dan_src_root))
config.substitutions.append(("%obj", config.dan_obj_root))

# The style check needs clang-format (scripts/setup.sh installs Debian's).
if shutil.which("clang-format"):
    config.available_features.add("clang-format")

# The fuzz targets link libFuzzer only in a DAN_FUZZ build (utils/fuzz.sh);
# tests that fuzz need it, the others replay inputs in any build.
if config.dan_fuzz.upper() in ("ON", "1", "TRUE", "YES"):
    config.available_features.add("libfuzzer")

# The Python module (python/): its tests run the interpreter it was built
# for, with the module's folder on its path.
if config.dan_python_module:
    config.available_features.add("python-module")
    config.substitutions.append(
        ("%dan-python", "env PYTHONPATH=%s %s" % (
            os.path.join(config.dan_obj_root, "python"), config.python_executable)))

lit_config.load_config(config, os.path.join(config.dan_src_root, "test", "sanitizers.cfg.py"))

# %memlimit runs a tool under a 512 MiB address-space limit, so a test fails
# when a tool's memory follows an id in the input instead of the input's
# size. A sanitizer build reserves terabytes of address space for its shadow
# memory; there ASAN_OPTIONS refuses any allocation above 1 GiB instead.
if config.dan_sanitize:
    config.substitutions.append(("%memlimit", ""))
else:
    config.substitutions.append(("%memlimit", "prlimit --as=536870912 --"))
