# lit configuration of the GoogleTest unit tests.
import os

import lit.formats

config.name = "DAN-Unit"
config.suffixes = []
config.test_source_root = os.path.join(config.dan_obj_root, "unittests")
config.test_exec_root = config.test_source_root
config.test_format = lit.formats.GoogleTest(".", "Tests")
lit_config.load_config(config, os.path.join(config.dan_src_root, "test", "sanitizers.cfg.py"))
