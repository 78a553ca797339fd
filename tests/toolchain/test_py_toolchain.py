"""The interpreter running tests is the pinned venv, with requirements.txt's versions."""

import os
import subprocess
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


def test_protoc_matches_protobuf():
    # protoc generates the _pb2 modules the venv's protobuf 4.21.12 (C++ core 3.21.12) loads.
    protoc = os.path.join(os.environ["RUNFILES_DIR"], "system_protobuf", "bin", "protoc")
    version = subprocess.run([protoc, "--version"], check=True, capture_output=True, text=True).stdout.strip()
    assert version == "libprotoc 3.21.12", version
