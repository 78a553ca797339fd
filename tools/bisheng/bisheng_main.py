"""Bazel py_binary entry of bisheng (same as the `bisheng` script)."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bisheng_driver  # noqa: E402

if __name__ == "__main__":
    sys.exit(bisheng_driver.main(sys.argv[1:], __file__))
