"""atc on graphs an OM cannot hold: a Python execute op (device or host backend) and inputs left
dynamic by the AIR or by --input_shape/--input_shape_range are refused with one E10001 line naming
the op or input and why, and no OM is written; --input_shape/--input_shape_range that make every
input static give an OM with those shapes."""

import textwrap

import pytest

from ascend_atc import console
from ascend_atc.main import EXIT_FAILED, main
from ge.es.graph_builder import GraphBuilder
from twin.om import om

PLUGIN = textwrap.dedent('''
    from ge.custom_op import OpBackend, get_execute_ctx, register_kernel, register_op, register_op_impl
    from ge.runtime import Tensor, TensorDesc

    @register_op(op_type="PyExec")
    def py_exec(x: TensorDesc) -> TensorDesc:
        return x

    @register_op(op_type="PyHost")
    def py_host(x: TensorDesc) -> TensorDesc:
        return x

    @register_op_impl(op_type="PyExec")
    class PyExec:
        def execute(self, x: Tensor) -> None:
            get_execute_ctx().make_output_ref_input(0, 0)

    @register_op_impl(op_type="PyHost")
    class PyHost:
        @register_kernel(backend=OpBackend.HOST)
        def execute(self, x: Tensor) -> None:
            get_execute_ctx().make_output_ref_input(0, 0)
''')


@pytest.fixture(scope="module")
def plugin_dir(tmp_path_factory):
    """One plugin directory for the module: GE imports a plugin file once per process."""
    directory = tmp_path_factory.mktemp("plugins")
    (directory / "py_ops.py").write_text(PLUGIN)
    return directory


@pytest.fixture
def opp(plugin_dir, monkeypatch):
    monkeypatch.setenv("ASCEND_CUSTOM_OPP_PATH", str(plugin_dir))
    return plugin_dir


def _air(tmp_path, shape, op_type=None):
    builder = GraphBuilder("g")
    x = builder.create_input(0, name="x", shape=shape)
    out = x
    if op_type:
        out = builder._add_op_node(op_type, inputs=[("x", "required", x)], attrs=[],
                                   outputs=[("output0", "required", 1)], name="my_op")[0][0]
    path = tmp_path / f"{op_type or 'plain'}.air"
    builder.build_and_reset([out]).save_to_air(str(path))
    return str(path)


def _atc(capsys, tmp_path, air, *extra):
    status = main([f"--model={air}", "--framework=1", f"--output={tmp_path / 'out'}",
                   "--soc_version=Ascend910B1", *extra])
    return status, capsys.readouterr().out.splitlines()


def _refused(status, out, tmp_path, *fragments):
    assert status == EXIT_FAILED
    assert out[-2] == console.FAILURE_LINE
    line = out[-1]
    assert line.startswith("E10001: "), line
    for fragment in fragments:
        assert fragment in line, line
    assert not (tmp_path / "out.om").exists()


@pytest.mark.parametrize("op_type, backend", [("PyExec", "DEVICE"), ("PyHost", "HOST")])
def test_python_execute_op_is_refused_naming_the_op(opp, tmp_path, capsys, op_type, backend):
    status, out = _atc(capsys, tmp_path, _air(tmp_path, [4], op_type))
    _refused(status, out, tmp_path, "[--model]", f"node my_op (op {op_type}) runs a Python execute ({backend} backend)",
             "an offline model runs without Python")


def test_dynamic_input_is_refused(opp, tmp_path, capsys):
    air = _air(tmp_path, [-1, 4])
    status, out = _atc(capsys, tmp_path, air)
    _refused(status, out, tmp_path, "[--model]", "graph input x has dynamic shape [-1, 4]")
    status, out = _atc(capsys, tmp_path, air, "--input_shape=x:-1,4")
    _refused(status, out, tmp_path, "[--input_shape]", "ranges x:[-1,4]")
    status, out = _atc(capsys, tmp_path, air, "--input_shape_range=x:[1~8,4]")
    _refused(status, out, tmp_path, "[--input_shape_range]", "graph input x has dynamic shape [-1, 4]",
             "ranges x:[1~8,4]")


@pytest.mark.parametrize("flag, dims", [("--input_shape=x:3,4", [3, 4]), ("--input_shape_range=[2~2,4]", [2, 4])])
def test_static_shapes_from_the_flags_give_an_om(opp, tmp_path, capsys, flag, dims):
    status, out = _atc(capsys, tmp_path, _air(tmp_path, [-1, 4]), flag)
    assert status == 0, out
    assert out[-1] == console.SUCCESS_LINE
    model = om.read((tmp_path / "out.om").read_bytes()).model_def
    assert [list(t.dims) for t in model.inputs] == [dims] == [list(t.dims) for t in model.outputs]


@pytest.mark.parametrize("flag, fragment", [
    ("--input_shape=nope:3", "[nope] is not a graph input (graph inputs: x)"),
    ("--input_shape_range=x:[5~2,4]", "dimension [5~2] is not a valid size or range"),
    ("--input_shape_range=[1];[2]", "item 1 has no graph input (the graph has 1)"),
])
def test_bad_shape_flags(opp, tmp_path, capsys, flag, fragment):
    status, out = _atc(capsys, tmp_path, _air(tmp_path, [-1, 4]), flag)
    _refused(status, out, tmp_path, fragment)
