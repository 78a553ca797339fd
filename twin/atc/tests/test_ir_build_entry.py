"""ascend_atc.ir_build, the compiler entry of libge_compiler.so/libge_runner.so: option values
are rejected with exit 2 and one line in --error_file; load failures exit 1; nothing on stdout.

Every case here fails before the graph compiler runs, so it needs no OPP (the full path is
tested end to end in tests/ge_api).
"""

import pytest

from ascend_atc import ir_build


def run(tmp_path, capsys, **override):
    values = {
        "air": str(tmp_path / "missing.air"),
        "om": str(tmp_path / "out.om"),
        "error_file": str(tmp_path / "error.txt"),
        "soc_version": "Ascend910B1",
    }
    values.update(override)
    status = ir_build.main([f"--{k}={v}" for k, v in values.items()])
    error = (tmp_path / "error.txt").read_text() if (tmp_path / "error.txt").exists() else ""
    assert capsys.readouterr().out == "", "no console banner: stdout belongs to the plugins"
    assert not (tmp_path / "out.om").exists()
    return status, error


@pytest.mark.parametrize(
    "override, fragment",
    [
        ({"log": "loud"}, "build option log='loud' is invalid"),
        ({"input_shape": "x:1,a"}, "build option input_shape='x:1,a' is invalid"),
        ({"input_shape_range": "x:1~2"}, "input_shape_range item [x:1~2] is not of the form"),
        ({"input_shape_range": "x:[1,b]"}, "input_shape_range dimension [b]"),
        ({"soc_version": "Ascend999Z"}, "ge.socVersion='Ascend999Z' is not a known SoC"),
    ],
)
def test_bad_option_values_exit_2(tmp_path, capsys, override, fragment):
    status, error = run(tmp_path, capsys, **override)
    assert status == ir_build.EXIT_BAD_OPTION == 2
    assert fragment in error
    assert error.count("\n") == 1, "one line"


def test_good_option_values_reach_the_air_loader(tmp_path, capsys):
    status, error = run(tmp_path, capsys, log="error", input_shape="x:1,2;y:-1", input_shape_range="x:[1~8,2];[3]")
    assert status == ir_build.EXIT_COMPILE_FAILED == 1
    assert error.startswith(f"the graph's AIR {tmp_path / 'missing.air'} does not load: ")
