"""atc on graphs that need Python at run time: a Python execute op (device or host backend), or
inputs left dynamic by the AIR or by --input_shape/--input_shape_range, give an OM that runs
through Python (format version 2: the graph as AIR, the inputs' ranges); an op nobody implements
is refused naming it; --input_shape/--input_shape_range that make every input static give a
static (version 1) OM with those shapes; bad shape flags are one E10001 line."""

import textwrap

import pytest

from ascend_atc import console, om_info
from ascend_atc.main import EXIT_FAILED, main
from ge.es.graph_builder import GraphBuilder
from twin.om import om

PLUGIN = textwrap.dedent("""
    from ge.custom_op import OpBackend, get_execute_ctx, register_kernel, register_op, register_op_impl
    from ge.runtime import Tensor, TensorDesc

    @register_op(op_type="PyExec")
    def py_exec(x: TensorDesc) -> TensorDesc:
        return x

    @register_op(op_type="PyHost")
    def py_host(x: TensorDesc) -> TensorDesc:
        return x

    @register_op(op_type="PyMissing")  # a prototype, and no implementation anywhere
    def py_missing(x: TensorDesc) -> TensorDesc:
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
""")


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
        out = builder._add_op_node(
            op_type, inputs=[("x", "required", x)], attrs=[], outputs=[("output0", "required", 1)], name="my_op"
        )[0][0]
    path = tmp_path / f"{op_type or 'plain'}.air"
    builder.build_and_reset([out]).save_to_air(str(path))
    return str(path)


def _atc(capsys, tmp_path, air, *extra):
    status = main(
        [f"--model={air}", "--framework=1", f"--output={tmp_path / 'out'}", "--soc_version=Ascend910B1", *extra]
    )
    return status, capsys.readouterr().out.splitlines()


def _refused(status, out, tmp_path, *fragments):
    assert status == EXIT_FAILED
    assert out[-2] == console.FAILURE_LINE
    line = out[-1]
    assert line.startswith("E10001: "), line
    for fragment in fragments:
        assert fragment in line, line
    assert not (tmp_path / "out.om").exists()


def _python_model(tmp_path):
    container = om.read((tmp_path / "out.om").read_bytes())
    assert container.requires_python and container.format_version == om.PYTHON_FORMAT_VERSION
    assert not container.kernel_binaries and not container.model_def.tasks
    return container


def _ranges(tensor):
    return [(r.min, r.max) for r in tensor.dim_ranges]


@pytest.mark.parametrize("op_type", ["PyExec", "PyHost"])
def test_python_execute_op_gives_an_om_that_runs_through_python(opp, tmp_path, capsys, op_type):
    status, out = _atc(capsys, tmp_path, _air(tmp_path, [4], op_type))
    assert status == 0, out
    assert out[-1] == console.SUCCESS_LINE
    container = _python_model(tmp_path)
    graph = _air_module().parse(container.graph)  # the graph itself, with its op and no path
    assert [n.type for n in graph.nodes.values()] == ["Data", op_type]
    model = container.model_def
    assert [(list(t.dims), t.size, _ranges(t)) for t in model.inputs] == [([4], 16, [(4, 4)])]
    assert [(list(t.dims), t.size) for t in model.outputs] == [([4], 16)]


def _air_module():
    from ge.graph import _air

    return _air


@pytest.mark.parametrize(
    "flags, ranges",
    [
        ((), [(1, -1), (4, 4)]),
        (("--input_shape=x:-1,4",), [(1, -1), (4, 4)]),
        (("--input_shape=x:2~6,4",), [(2, 6), (4, 4)]),
        (("--input_shape_range=x:[1~8,4]",), [(1, 8), (4, 4)]),
    ],
)
def test_dynamic_input_gives_an_om_with_its_ranges(opp, tmp_path, capsys, flags, ranges):
    status, out = _atc(capsys, tmp_path, _air(tmp_path, [-1, 4]), *flags)
    assert status == 0, out
    model = _python_model(tmp_path).model_def
    assert [(list(t.dims), t.size, _ranges(t)) for t in model.inputs] == [([-1, 4], 0, ranges)]
    assert [(list(t.dims), t.size) for t in model.outputs] == [([-1, 4], 0)]
    info = om_info.describe((tmp_path / "out.om").read_bytes())  # what atc --mode=6 prints
    assert info["om_info"]["requires_python"] and info["om_info"]["format_version"] == 2
    assert info["graph"]["inputs"][0]["dim_ranges"] == [list(r) for r in ranges]


def test_an_op_without_an_implementation_is_refused_naming_it(opp, tmp_path, capsys):
    status, out = _atc(capsys, tmp_path, _air(tmp_path, [-1], "PyMissing"))
    assert status == EXIT_FAILED and out[-2] == console.FAILURE_LINE
    assert out[-1].startswith("E19999: ") and "node my_op" in out[-1], out[-1]
    assert "no implementation registered for op type PyMissing" in out[-1], out[-1]
    assert not (tmp_path / "out.om").exists()


@pytest.mark.parametrize("flag, dims", [("--input_shape=x:3,4", [3, 4]), ("--input_shape_range=[2~2,4]", [2, 4])])
def test_static_shapes_from_the_flags_give_an_om(opp, tmp_path, capsys, flag, dims):
    status, out = _atc(capsys, tmp_path, _air(tmp_path, [-1, 4]), flag)
    assert status == 0, out
    assert out[-1] == console.SUCCESS_LINE
    container = om.read((tmp_path / "out.om").read_bytes())
    assert container.format_version == 1 and not container.requires_python
    model = container.model_def
    assert [list(t.dims) for t in model.inputs] == [dims] == [list(t.dims) for t in model.outputs]


@pytest.mark.parametrize(
    "flag, fragment",
    [
        ("--input_shape=nope:3", "[nope] is not a graph input (graph inputs: x)"),
        ("--input_shape_range=x:[5~2,4]", "dimension [5~2] is not a valid size or range"),
        ("--input_shape_range=[1];[2]", "item 1 has no graph input (the graph has 1)"),
    ],
)
def test_bad_shape_flags(opp, tmp_path, capsys, flag, fragment):
    status, out = _atc(capsys, tmp_path, _air(tmp_path, [-1, 4]), flag)
    _refused(status, out, tmp_path, fragment)


def _two_input_graph():
    builder = GraphBuilder("g")
    x = builder.create_input(0, name="x", shape=[-1, 4])
    y = builder.create_input(1, name="y", shape=[-1])
    return builder.build_and_reset([x, y])._ir


def _input_shapes(graph):
    return {node.name: list(node.output_descs[0].shape) for node in graph.input_nodes()}


def test_shape_flags_apply_in_order_and_a_later_item_replaces_an_earlier_one():
    from ascend_atc import input_shapes

    graph = _two_input_graph()
    dynamic = input_shapes.apply(graph, "x:2~6,4;y:-1", "y:[3];x:[1~8,4]")
    assert dynamic == {"x": [(1, 8), (4, 4)]}  # y made static by its range item: no longer dynamic
    assert _input_shapes(graph) == {"x": [-1, 4], "y": [3]}
    graph = _two_input_graph()
    assert input_shapes.apply(graph, "x:5,4", None) == {}
    assert input_shapes.apply(graph, None, "[2~3,4]") == {"x": [(2, 3), (4, 4)]}  # by position


def test_a_bad_shape_flag_item_changes_no_input():
    from ascend_atc import input_shapes
    from ascend_atc.errors import AtcError

    graph = _two_input_graph()
    with pytest.raises(AtcError, match=r"dimension \[a\] is not an integer"):
        input_shapes.apply(graph, "x:5,4", "y:[a]")
    with pytest.raises(AtcError, match=r"item 2 has no graph input \(the graph has 2\)"):
        input_shapes.apply(graph, "x:5,4;y:7", "[1,4];[2];[3]")
    assert _input_shapes(graph) == {"x": [-1, 4], "y": [-1]}
