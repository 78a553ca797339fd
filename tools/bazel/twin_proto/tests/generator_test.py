"""protoc-gen-twin_cpp refuses what it does not support with one error line naming it."""

import os
import subprocess

import pytest

RUNFILES = os.environ["RUNFILES_DIR"]
PROTOC = os.path.join(RUNFILES, "system_protobuf", "bin", "protoc")
PLUGIN = os.path.join(RUNFILES, "ascend_twin", "tools", "bazel", "twin_proto", "protoc_gen_twin_cpp")


def run_plugin(tmp_path, source):
    (tmp_path / "t.proto").write_text(source)
    out = tmp_path / "out"
    out.mkdir()
    result = subprocess.run(
        [
            PROTOC,
            f"--plugin=protoc-gen-twin_cpp={PLUGIN}",
            f"--proto_path={tmp_path}",
            f"--twin_cpp_out={out}",
            "t.proto",
        ],
        capture_output=True,
        text=True,
    )
    return result, out


def test_generates_header_and_source(tmp_path):
    result, out = run_plugin(tmp_path, 'syntax = "proto3";\nmessage M { int32 a = 1; }\n')
    assert result.returncode == 0, result.stderr
    assert sorted(os.listdir(out)) == ["t.pb.cc", "t.pb.h"]
    header = (out / "t.pb.h").read_text()
    assert "google" not in header and "class M {" in header


@pytest.mark.parametrize(
    "source, message",
    [
        (
            'syntax = "proto2";\nmessage M { optional int32 a = 1; }\n',
            "t.proto: only proto3 is supported (syntax 'proto2')",
        ),
        ('syntax = "proto3";\nmessage M { map<string, int32> m = 1; }\n', "M_MEntry: map fields are not supported"),
        (
            'syntax = "proto3";\nmessage M {}\nservice S { rpc F(M) returns (M); }\n',
            "t.proto: services are not supported",
        ),
        ('syntax = "proto3";\nmessage M { optional int32 a = 1; }\n', "optional"),
    ],
)
def test_unsupported_input_is_one_error_line(tmp_path, source, message):
    result, out = run_plugin(tmp_path, source)
    assert result.returncode != 0
    assert message in result.stderr, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert os.listdir(out) == []
