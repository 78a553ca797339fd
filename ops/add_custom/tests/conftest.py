"""Makes `import harness` work under Bazel too (its runfiles tree has __init__.py files, so pytest
does not put this directory on sys.path by itself)."""

import sys
from pathlib import Path

TESTS_DIR = str(Path(__file__).absolute().parent)  # absolute(): stay inside the runfiles tree
if TESTS_DIR not in sys.path:
    sys.path.insert(0, TESTS_DIR)
