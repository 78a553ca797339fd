"""atc refuses what CANN's ATC refuses, with one line and no OM: format and output-type values
it does not know, an --output_type the compiled graph would not honour, AIRs whose Data indices
collide or point past the inputs, and plugins that crash the compiler or end it early."""

import textwrap

import pytest

from ascend_atc import console
from ascend_atc.main import EXIT_FAILED, main
from ge.es.graph_builder import GraphBuilder
from ge.graph import _ir


def _air(tmp_path, inputs=1, name="plain"):
    builder = GraphBuilder("g")
    xs = [builder.create_input(i, name=f"x{i}", shape=[4, 8]) for i in range(inputs)]
    path = tmp_path / f"{name}.air"
    builder.build_and_reset(xs).save_to_air(str(path))
    return str(path)


def _atc(capsys, tmp_path, air, *extra):
    status = main(
        [f"--model={air}", "--framework=1", f"--output={tmp_path / 'out'}", "--soc_version=Ascend910B1", *extra]
    )
    return status, capsys.readouterr().out.splitlines()


def _failed(status, out, tmp_path, code, *fragments):
    assert status == EXIT_FAILED, out
    assert out[-2] == console.FAILURE_LINE, out
    assert out[-1].startswith(code + ": "), out
    for fragment in fragments:
        assert fragment in out[-1], out[-1]
    assert not (tmp_path / "out.om").exists()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".out.om")]  # no temp file left


def test_unknown_input_format_is_e10001(capsys, tmp_path):
    status, out = _atc(capsys, tmp_path, _air(tmp_path), "--input_format=BOGUS")
    _failed(status, out, tmp_path, "E10001", "[BOGUS] for parameter [--input_format]", "NCHW, NHWC, ND, NCDHW, NDHWC")


@pytest.mark.parametrize("value", ["NCHW", "ND", "NDHWC"])
def test_known_input_formats_build(capsys, tmp_path, value):
    status, out = _atc(capsys, tmp_path, _air(tmp_path), f"--input_format={value}")
    assert status == 0 and out[-1] == console.SUCCESS_LINE, out


@pytest.mark.parametrize(
    "value,extra,fragment",
    [
        ("FP99", (), "must be any of FP32, FP16"),
        ("x0:0:FP32", (), "needs --out_nodes"),
        ("x0:zero:FP32", ("--out_nodes=x0:0",), "item [x0:zero:FP32] is not node:index:type"),
        ("FP16", (), "graph output x0:0 is DT_FLOAT; the CPU twin inserts no cast"),
        ("nope:0:FP32", ("--out_nodes=nope:0",), "[nope:0] is not a graph output (outputs: x0:0)"),
    ],
)
def test_bad_or_unhonoured_output_type_is_e10001(capsys, tmp_path, value, extra, fragment):
    status, out = _atc(capsys, tmp_path, _air(tmp_path), f"--output_type={value}", *extra)
    _failed(status, out, tmp_path, "E10001", "--output_type", fragment)


@pytest.mark.parametrize("value,extra", [("FP32", ()), ("x0:0:FP32", ("--out_nodes=x0:0",))])
def test_an_output_type_the_graph_already_has_builds(capsys, tmp_path, value, extra):
    status, out = _atc(capsys, tmp_path, _air(tmp_path), f"--output_type={value}", *extra)
    assert status == 0 and out[-1] == console.SUCCESS_LINE, out


def _air_with_indices(tmp_path, monkeypatch, indices):
    """An AIR whose Data nodes carry `indices` (written past the builder's own check)."""
    builder = GraphBuilder("g")
    xs = [builder.create_input(i, name=f"x{i}", shape=[4]) for i in range(len(indices))]
    graph = builder.build_and_reset(xs)
    for i, index in enumerate(indices):
        graph._ir.nodes[f"x{i}"].attrs["index"] = _ir.AttrValue(_ir.AttrValueType.VT_INT, index)
    monkeypatch.setattr(_ir.GraphIR, "_check_input_indices", lambda self: None)
    path = tmp_path / "crafted.air"
    graph.save_to_air(str(path))
    monkeypatch.undo()
    return str(path)


@pytest.mark.parametrize(
    "indices,fragment",
    [
        ([0, 0], "Data nodes x0 and x1 both have index 0"),
        ([0, 2**40], "Data node x1 has index 1099511627776; the graph has 2 inputs, so an index must be 0..1"),
        ([-1, 0], "has index -1"),
    ],
)
def test_an_air_with_colliding_or_far_data_indices_is_refused(capsys, tmp_path, monkeypatch, indices, fragment):
    air = _air_with_indices(tmp_path, monkeypatch, indices)
    status, out = _atc(capsys, tmp_path, air)
    _failed(status, out, tmp_path, "E10001", "--model", fragment)


CRASHING = {
    "segfault": "import ctypes\nctypes.string_at(0)\n",
    "os_exit_0": "import os\nos._exit(0)\n",
}


@pytest.mark.parametrize(
    "kind,fragment",
    [
        ("segfault", "the compile process was killed by SIGSEGV (signal 11)"),
        ("os_exit_0", "the compile process ended (exit status 0) before it finished"),
    ],
)
def test_a_plugin_that_crashes_or_ends_the_compiler_is_one_e19999_line(capsys, tmp_path, monkeypatch, kind, fragment):
    plugins = tmp_path / "plugins"
    plugins.mkdir()
    (plugins / f"{kind}.py").write_text(textwrap.dedent(CRASHING[kind]))
    monkeypatch.setenv("ASCEND_CUSTOM_OPP_PATH", str(plugins))
    status, out = _atc(capsys, tmp_path, _air(tmp_path))
    _failed(status, out, tmp_path, "E19999", fragment, "no OM was written")
    # the atc process itself lives on: a good compile right after works
    monkeypatch.delenv("ASCEND_CUSTOM_OPP_PATH")
    status, out = _atc(capsys, tmp_path, _air(tmp_path, name="after"))
    assert status == 0 and out[-1] == console.SUCCESS_LINE, out
