"""atc's command line: CANN's flag names, validation, console lines and exit status.

Every case here fails (or prints help) before the graph compiler runs, so it needs no OPP.
"""

import os
import platform

import pytest

from ascend_atc import console, flags
from ascend_atc.main import EXIT_FAILED, main


def run_atc(capsys, *args):
    status = main(list(args))
    out = capsys.readouterr().out.splitlines()
    return status, out


def assert_failed(status, out, code, *fragments):
    assert status == EXIT_FAILED == 255
    assert out[0] == console.START_LINE
    assert out[1] == console.FAILURE_LINE
    assert out[2].startswith(code + ": "), out
    for fragment in fragments:
        assert fragment in out[2], out[2]
    assert console.SUCCESS_LINE not in out


@pytest.fixture
def air(tmp_path):
    path = tmp_path / "model.air"
    path.write_bytes(b"placeholder: validation fails before the file is parsed")
    return str(path)


def base_args(air, tmp_path, **override):
    values = {"model": air, "framework": "1", "output": str(tmp_path / "out"), "soc_version": "Ascend910B1"}
    values.update(override)
    return [f"--{k}={v}" for k, v in values.items() if v is not None]


def test_help_exits_zero_and_lists_cann_flags(capsys):
    status, out = run_atc(capsys, "--help")
    assert status == 0
    text = "\n".join(out)
    for flag in (
        "--model",
        "--framework",
        "--output",
        "--soc_version",
        "--log",
        "--mode",
        "--input_shape",
        "--host_env_os",
        "--host_env_cpu",
    ):
        assert flag in text
    assert console.START_LINE not in out


def test_missing_framework_is_e10007(capsys, air, tmp_path):
    status, out = run_atc(capsys, *base_args(air, tmp_path, framework=None))
    assert_failed(status, out, "E10007", "[--framework] is required")


@pytest.mark.parametrize(
    "value,reason",
    [("0", "Caffe"), ("3", "TensorFlow"), ("5", "Onnx"), ("2", "must be any of"), ("air", "must be any of")],
)
def test_unsupported_or_invalid_framework_is_e10001(capsys, air, tmp_path, value, reason):
    status, out = run_atc(capsys, *base_args(air, tmp_path, framework=value))
    assert_failed(status, out, "E10001", f"[{value}]", "[--framework]", reason)


@pytest.mark.parametrize("flag", ["model", "output", "soc_version"])
def test_missing_required_flag_is_e10004(capsys, air, tmp_path, flag):
    status, out = run_atc(capsys, *base_args(air, tmp_path, **{flag: None}))
    assert_failed(status, out, "E10004", f"[--{flag}]")


def test_empty_required_value_is_e10004(capsys, air, tmp_path):
    status, out = run_atc(capsys, *base_args(air, tmp_path, output=""))
    assert_failed(status, out, "E10004", "[--output]")


@pytest.mark.parametrize("level", ["verbose", "DEBUG", "1"])
def test_invalid_log_level_is_e10001(capsys, air, tmp_path, level):
    status, out = run_atc(capsys, *base_args(air, tmp_path, log=level))
    assert_failed(status, out, "E10001", "[--log]", "debug, info, warning, error, null")


@pytest.mark.parametrize("mode,reason", [("2", "must be any of"), ("1", "not supported"), ("30", "not supported")])
def test_invalid_or_unsupported_mode_is_e10001(capsys, air, tmp_path, mode, reason):
    status, out = run_atc(capsys, *base_args(air, tmp_path, mode=mode))
    assert_failed(status, out, "E10001", "[--mode]", reason)


def test_unknown_flag_is_rejected(capsys, air, tmp_path):
    status, out = run_atc(capsys, *base_args(air, tmp_path), "--frobnicate=1")
    assert_failed(status, out, "E10001", "[--frobnicate]")


def test_positional_argument_is_rejected(capsys, air, tmp_path):
    status, out = run_atc(capsys, *base_args(air, tmp_path), "model.air")
    assert_failed(status, out, "E10001", "positional")


def test_host_env_flags_must_come_together_and_match_the_host(capsys, air, tmp_path):
    status, out = run_atc(capsys, *base_args(air, tmp_path, host_env_os="linux"))
    assert_failed(status, out, "E10001", "[--host_env_os]", "--host_env_cpu")
    status, out = run_atc(capsys, *base_args(air, tmp_path, host_env_os="solaris", host_env_cpu="x86_64"))
    assert_failed(status, out, "E10001", "[--host_env_os]")
    other = "aarch64" if platform.machine() in ("x86_64", "AMD64") else "x86_64"
    status, out = run_atc(capsys, *base_args(air, tmp_path, host_env_os="linux", host_env_cpu=other))
    assert_failed(status, out, "E10001", "cross-compiling")


@pytest.mark.parametrize("shape", ["data_x", "data_x:8,a", ":8"])
def test_malformed_input_shape_is_e10001(capsys, air, tmp_path, shape):
    status, out = run_atc(capsys, *base_args(air, tmp_path, input_shape=shape))
    assert_failed(status, out, "E10001", "[--input_shape]")


def test_input_shape_grammar_accepts_cann_forms():
    assert flags.parse_input_shape("data_x:8192;data_y:1,-1") == {"data_x": ["8192"], "data_y": ["1", "-1"]}
    assert flags.parse_input_shape("x:1~4,16") == {"x": ["1~4", "16"]}


def test_separate_value_form_is_accepted():
    options = flags.parse(["--model", "a.air", "--framework", "1", "-output=b", "--log=info"])
    assert options.values == {"model": "a.air", "framework": "1", "output": "b", "log": "info"}


def test_nonexistent_model_is_e10001(capsys, tmp_path):
    missing = str(tmp_path / "absent.air")
    status, out = run_atc(capsys, *base_args(missing, tmp_path))
    assert_failed(status, out, "E10001", "[--model]", "does not exist")


def test_output_in_missing_directory_is_e10001(capsys, air, tmp_path):
    status, out = run_atc(capsys, *base_args(air, tmp_path, output=str(tmp_path / "no" / "such" / "out")))
    assert_failed(status, out, "E10001", "[--output]", "does not exist")
    assert not os.path.exists(tmp_path / "no")


def test_mode6_requires_om(capsys):
    status, out = run_atc(capsys, "--mode=6")
    assert_failed(status, out, "E10004", "[--om]")


def test_nothing_is_written_on_a_flag_error(capsys, air, tmp_path):
    before = sorted(os.listdir(tmp_path))
    run_atc(capsys, *base_args(air, tmp_path, framework="3"))
    assert sorted(os.listdir(tmp_path)) == before


def test_plugin_sys_exit_is_e19999_and_255(capsys, air, tmp_path, monkeypatch):
    from ascend_atc import generate

    def plugin_exits(options):
        raise SystemExit(3)  # what a plugin's sys.exit(3) at import or in compile() raises

    monkeypatch.setattr(generate, "run", plugin_exits)
    status, out = run_atc(capsys, *base_args(air, tmp_path))
    assert_failed(status, out, "E19999", "a plugin called sys.exit(3) during the compile")


def test_control_characters_in_messages_are_escaped(capsys, air, tmp_path, monkeypatch):
    from ascend_atc import generate
    from ascend_atc.errors import AtcError

    def crafted(options):
        raise AtcError("E10001", "node 'a\nb\x1b[2J' is invalid")

    monkeypatch.setattr(generate, "run", crafted)
    status, out = run_atc(capsys, *base_args(air, tmp_path))
    assert_failed(status, out, "E10001", "node 'a\\x0ab\\x1b[2J' is invalid")
    assert len(out) == 3
