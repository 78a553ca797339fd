"""The interpreter running tests is the pinned venv, with requirements.txt's versions."""

import os
import sys

import google.protobuf


def _pinned_interpreter() -> str:
    runfiles = os.environ["RUNFILES_DIR"]
    with open(os.path.join(runfiles, "python_venv", "interpreter_path.txt")) as f:
        return f.read().strip()


def test_runs_on_pinned_interpreter():
    pinned = _pinned_interpreter()
    assert os.path.dirname(sys.executable) == os.path.dirname(pinned), (sys.executable, pinned)


def test_protobuf_matches_protoc():
    assert google.protobuf.__version__ == "4.21.12"
