"""register/tilingdata_base.h refuses, at compile time and with one line naming the field, field
types CANN does not support and nested structs not defined with BEGIN_TILING_DATA_DEF."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest


def runfile(path: str) -> Path:
    return Path(os.environ.get("TEST_SRCDIR", ".")) / os.environ.get("TEST_WORKSPACE", "") / path


def compile_snippet(tmp_path: Path, body: str) -> subprocess.CompletedProcess:
    compiler = shutil.which("c++") or shutil.which("g++")
    if compiler is None:
        pytest.skip("no host C++ compiler on PATH")
    source = tmp_path / "tiling.cc"
    source.write_text('#include "register/tilingdata_base.h"\nnamespace optiling {\n' + body + "\n}\n")
    return subprocess.run(
        [compiler, "-std=c++17", "-fsyntax-only", f"-I{runfile('twin/graph/include')}", str(source)],
        capture_output=True,
        text=True,
    )


@pytest.mark.parametrize(
    "field, message",
    [
        (
            "TILING_DATA_FIELD_DEF(double, ratio);",
            "TILING_DATA_FIELD_DEF(double, ratio): fields are int8_t..uint64_t, float or bool",
        ),
        (
            "TILING_DATA_FIELD_DEF_ARR(bool, 4, flags);",
            "TILING_DATA_FIELD_DEF_ARR(bool, flags): elements are int8_t..uint64_t or float",
        ),
        (
            "TILING_DATA_FIELD_DEF_STRUCT(Plain, plain);",
            "TILING_DATA_FIELD_DEF_STRUCT(Plain, plain): the type must be defined with BEGIN_TILING_DATA_DEF",
        ),
    ],
)
def test_unsupported_fields_are_compile_errors(tmp_path, field, message):
    body = (
        "struct Plain { int x; };\nBEGIN_TILING_DATA_DEF(Bad)\n  TILING_DATA_FIELD_DEF(uint32_t, ok);\n  "
        + field
        + "\nEND_TILING_DATA_DEF;"
    )
    result = compile_snippet(tmp_path, body)
    assert result.returncode != 0
    assert message in result.stderr, result.stderr


def test_supported_fields_compile(tmp_path):
    body = (
        "BEGIN_TILING_DATA_DEF(Inner)\n  TILING_DATA_FIELD_DEF(int8_t, a);\nEND_TILING_DATA_DEF;\n"
        "BEGIN_TILING_DATA_DEF(Good)\n"
        + "".join(
            f"  TILING_DATA_FIELD_DEF({t}, f_{t});\n"
            for t in ["int8_t", "uint8_t", "int16_t", "uint16_t", "int32_t", "uint32_t", "int64_t", "uint64_t", "float"]
        )
        + "  TILING_DATA_FIELD_DEF_ARR(float, 3, arr);\n  TILING_DATA_FIELD_DEF_STRUCT(Inner, inner);\n"
        "END_TILING_DATA_DEF;\nREGISTER_TILING_DATA_CLASS(GoodOp, Good)"
    )
    result = compile_snippet(tmp_path, body)
    assert result.returncode == 0, result.stderr
