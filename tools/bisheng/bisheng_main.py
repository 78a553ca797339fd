#!/usr/bin/env python3
"""bisheng (ascend-twin) command line: the py_binary entry, installed as PREFIX/bin/bisheng."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bisheng_driver  # noqa: E402

if __name__ == "__main__":
    sys.exit(bisheng_driver.main(sys.argv[1:], __file__))
