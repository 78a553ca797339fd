"""Entry point of every pytest_test: hands the test files on the command line to pytest."""

import os
import sys

import pytest


def main() -> int:
    # -rA: the log of a passing test shows what it printed too (markers, commands, seeds).
    args = ["-v", "-rA", "-p", "no:cacheprovider", "--tb=short"]
    # Bazel shards and filters map onto pytest's -k when set.
    test_filter = os.environ.get("TESTBRIDGE_TEST_ONLY")
    if test_filter:
        args += ["-k", test_filter]
    xml = os.environ.get("XML_OUTPUT_FILE")
    if xml:
        args += ["--junitxml", xml]
    return pytest.main(args + sys.argv[1:])


if __name__ == "__main__":
    sys.exit(main())
