"""Bad input to the online flow: each case fails with one clear line naming the cause.

Every case runs in its own clean process (GE and plugins are process-global) and reports either
`GE_ERROR=<first line>` (+ the rest of the message) or `NO_ERROR`.
"""

import textwrap
from pathlib import Path

import harness

CASE_PRELUDE = textwrap.dedent("""
    import sys
    import numpy as np
    from ge.error import GeError
    from ge.es.graph_builder import GraphBuilder
    from ge.ge_global import GeApi
    from ge.graph import DataType, Format, Tensor
    from ge.session import Session

    def report(exc):
        lines = str(exc).splitlines() or [""]
        print("GE_ERROR=" + lines[0])
        print("\\n".join(lines[1:]))
        sys.exit(3)

    def add_once(shapes, dtype=DataType.DT_FLOAT, init=None, session_options=None):
        try:
            GeApi.ge_initialize(init or {"ge.exec.deviceId": "0", "ge.socVersion": SOC})
        except GeError as exc:
            report(exc)
        from es_custom import PythonCompilableAddCustom
        rng = np.random.default_rng(7)
        builder = GraphBuilder("bad")
        xs = [builder.create_input(i, data_type=dtype, shape=list(s)) for i, s in enumerate(shapes)]
        graph = builder.build_and_reset([PythonCompilableAddCustom(xs[0], xs[1])])
        session = Session(session_options or {})
        session.add_graph(1, graph)
        np_type = np.float32 if dtype == DataType.DT_FLOAT else np.int32
        inputs = [Tensor(rng.integers(-50, 50, int(np.prod(s))).astype(np_type).tolist(), None, dtype,
                         Format.FORMAT_ND, list(s)) for s in shapes]
        try:
            session.run_graph(1, inputs)
        except GeError as exc:
            report(exc)
        print("NO_ERROR")
""")


def _run_case(name: str, body: str, **env_kwargs):
    paths = harness.sample_paths()
    source = f"SOC = {paths.soc!r}\n" + CASE_PRELUDE + textwrap.dedent(body)
    env = harness.clean_env(paths, **env_kwargs)
    proc = harness.run_script(source, env, name)
    return proc


def _error_of(proc) -> str:
    assert proc.returncode == 3, f"expected a GeError, got exit {proc.returncode}"
    first = [line for line in proc.stdout.splitlines() if line.startswith("GE_ERROR=")]
    assert len(first) == 1
    return first[0][len("GE_ERROR=") :]


def _plugin_dir(name: str, source: str) -> Path:
    directory = harness.scratch_dir(name)
    (directory / f"{name}.py").write_text(textwrap.dedent(source))
    return directory


def test_element_count_not_multiple_of_1024():
    line = _error_of(_run_case("count", "add_once([[1000], [1000]])"))
    assert "PythonCompilableAddCustom" in line
    assert "element count 1000" in line and "multiple of 1024" in line


def test_dtype_other_than_float32():
    line = _error_of(_run_case("dtype", "add_once([[1024], [1024]], dtype=DataType.DT_INT32)"))
    assert "PythonCompilableAddCustom" in line
    assert "DT_INT32" in line


def test_mismatched_shapes():
    proc = _run_case("shapes", "add_once([[2048], [1024]])")
    line = _error_of(proc)
    assert "PythonCompilableAddCustom" in line and "shape inference failed" in line
    # IMPL_OP's own diagnostic (OP_LOGE) is the cause, on the user's GeError line
    assert "x1 shape [2048] and x2 shape [1024] differ" in line


def test_nonexistent_plugin_path():
    paths = harness.sample_paths()
    missing = harness.scratch_dir("gone") / "no_such_plugins"
    line = _error_of(_run_case("missing", "add_once([[1024], [1024]])", opp_path=f"{paths.opp_root}:{missing}"))
    assert str(missing) in line and "does not exist" in line


def test_plugin_with_syntax_error():
    paths = harness.sample_paths()
    plugins = _plugin_dir("broken_plugin", "def broken(:\n    pass\n")
    line = _error_of(_run_case("syntax", "add_once([[1024], [1024]])", opp_path=f"{paths.opp_root}:{plugins}"))
    assert "SyntaxError" in line and "broken_plugin.py" in line


def test_holder_without_compile_or_declare():
    paths = harness.sample_paths()
    plugins = _plugin_dir(
        "empty_holder",
        """
        from ge.custom_op import register_op_impl

        @register_op_impl(op_type="PythonCompilableAddCustom")
        class NothingToCall:
            def helper(self):
                return 1
    """,
    )
    line = _error_of(_run_case("empty", "add_once([[1024], [1024]])", opp_path=f"{paths.opp_root}:{plugins}"))
    assert "execute, compile, declare_launch_args" in line


def test_wrong_callback_signature():
    paths = harness.sample_paths()
    plugins = _plugin_dir(
        "wrong_signature",
        """
        from ge.custom_op import register_op_impl

        @register_op_impl(op_type="PythonCompilableAddCustom")
        class MissingOutput:
            def compile(self, x1, x2) -> None:
                pass

            def declare_launch_args(self, x1, x2, y) -> None:
                pass
    """,
    )
    line = _error_of(_run_case("signature", "add_once([[1024], [1024]])", opp_path=f"{paths.opp_root}:{plugins}"))
    assert "invalid compile signature" in line
    assert "PythonCompilableAddCustom" in line


def test_kernel_that_does_not_compile():
    broken = harness.scratch_dir("broken_kernel") / "add_custom.asc"
    broken.write_text(
        '#include "kernel_operator.h"\n'
        'extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z)\n'
        "{\n    undeclared_identifier_in_kernel(x, y, z);\n}\n"
    )
    proc = _run_case("kernel", "add_once([[1024], [1024]])", extra={"ADD_CUSTOM_KERNEL_SOURCE": str(broken)})
    line = _error_of(proc)
    assert "compile failed" in line and "PythonCompilableAddCustom" in line and "bisheng failed" in line
    # the compiler's own diagnostic reaches the user
    assert "undeclared_identifier_in_kernel" in proc.stdout
    assert "error:" in proc.stdout
    assert "NO_ERROR" not in proc.stdout


def test_bisheng_not_found():
    paths = harness.sample_paths()
    home = harness.scratch_dir("home-without-bisheng")
    for child in paths.cann_home.iterdir():
        if child.name != "bin":
            (home / child.name).symlink_to(child)
    (home / "bin").mkdir()
    for tool in (paths.cann_home / "bin").iterdir():
        if tool.name != "bisheng":
            (home / "bin" / tool.name).symlink_to(tool)
    line = _error_of(_run_case("nobisheng", "add_once([[1024], [1024]])", cann_home=home))
    assert "bisheng not found" in line and str(home / "bin" / "bisheng") in line


def test_unknown_soc_at_initialize():
    line = _error_of(
        _run_case(
            "soc_init",
            """
        add_once([[1024], [1024]], init={"ge.exec.deviceId": "0", "ge.socVersion": "Ascend999Z"})
    """,
        )
    )
    assert "Ascend999Z" in line


def test_unknown_soc_in_session_options():
    line = _error_of(
        _run_case(
            "soc_session",
            """
        add_once([[1024], [1024]], init={"ge.exec.deviceId": "0"},
                 session_options={"ge.socVersion": "Ascend999Z"})
    """,
        )
    )
    assert "ge.socVersion" in line and "unknown SoC version 'Ascend999Z'" in line


def test_borrowed_tensor_used_after_callback():
    paths = harness.sample_paths()
    plugins = _plugin_dir(
        "leaky_holder",
        """
        from ge.custom_op import register_op_impl

        @register_op_impl(op_type="PythonCompilableAddCustom")
        class KeepsBorrowedTensor:
            def compile(self, x1, x2, y) -> None:
                self.saved = x1  # a borrowed view: valid only during this call

            def declare_launch_args(self, x1, x2, y) -> None:
                print("SAVED_DIMS", self.saved.storage_shape.dims)
    """,
    )
    proc = _run_case("borrowed", "add_once([[1024], [1024]])", opp_path=f"{paths.opp_root}:{plugins}")
    line = _error_of(proc)
    assert "declare_launch_args failed" in line and "expired" in line
    assert "SAVED_DIMS" not in proc.stdout


def test_declare_launch_args_cache_miss():
    """declare_launch_args for a shape compile() never saw raises and never compiles."""
    cache = harness.scratch_dir("miss-kcache")
    proc = _run_case(
        "declare_miss",
        """
        from ge.custom_op import _bridge
        from ge.custom_op._args_ctx import AnnotatedArgsContext
        from ge.custom_op._node import NodeSpec
        from ge.custom_op.registry import get_registered_op_impl_by_op_type
        from ge.runtime._meta import TensorMeta
        GeApi.ge_initialize({"ge.exec.deviceId": "0", "ge.socVersion": SOC})
        descriptor = get_registered_op_impl_by_op_type("PythonCompilableAddCustom")
        _bridge.create_op_impl_holder("miss#0", descriptor.descriptor_key)
        ir_meta = {"inputs": [{"name": "x1", "kind": 0}, {"name": "x2", "kind": 0}], "attrs": [],
                   "outputs": [{"name": "y", "kind": 0}]}
        meta = lambda: TensorMeta(data_type=DataType.DT_FLOAT, storage_dims=[4096])
        node = NodeSpec("PythonCompilableAddCustom", "add", inputs=[[meta()], [meta()]], outputs=[[meta()]])
        try:
            _bridge.call_declare_launch_args("miss#0", ir_meta, AnnotatedArgsContext._create(node))
        except RuntimeError as exc:
            report(exc)
        print("NO_ERROR")
    """,
        kernel_cache=cache,
    )
    line = _error_of(proc)
    assert "no kernel compiled for shape [4096]" in line and "never compiles" in line
    assert "PY_COMPILE_CALLBACK_ENTER" not in proc.stdout
    assert not list(cache.rglob("*.aicore"))  # nothing was built


def test_run_graph_inputs_not_matching_the_model():
    """Wrong count, dtype and shape after the model is loaded: each run raises a GeError naming
    the input and the cause, and a good run afterwards still gives the right sums."""
    proc = _run_case(
        "wrong_inputs",
        """
        GeApi.ge_initialize({"ge.exec.deviceId": "0", "ge.socVersion": SOC})
        from es_custom import PythonCompilableAddCustom
        builder = GraphBuilder("g")
        x1, x2 = builder.create_input(0, shape=[1024]), builder.create_input(1, shape=[1024])
        session = Session()
        session.add_graph(1, builder.build_and_reset([PythonCompilableAddCustom(x1, x2)]))
        good = Tensor([1.5] * 1024, None, DataType.DT_FLOAT, Format.FORMAT_ND, [1024])
        print("FIRST_RUN", session.run_graph(1, [good, good])[0].get_data()[:2])
        cases = {
            "count": [good],
            "dtype": [good, Tensor(list(range(1024)), None, DataType.DT_INT32, Format.FORMAT_ND, [1024])],
        }
        for name, inputs in cases.items():
            try:
                session.run_graph(1, inputs)
                print(f"CASE_{name}=NO_ERROR")
            except GeError as exc:
                print(f"CASE_{name}=" + str(exc).splitlines()[0])
        print("AFTER_ERRORS", session.run_graph(1, [good, good])[0].get_data()[:2])
        try:
            session.run_graph(1, [good, Tensor([1.0] * 2048, None, DataType.DT_FLOAT, Format.FORMAT_ND, [2048])])
        except GeError as exc:
            report(exc)
        print("NO_ERROR")
    """,
    )
    line = _error_of(proc)
    assert "FIRST_RUN [3.0, 3.0]" in proc.stdout and "AFTER_ERRORS [3.0, 3.0]" in proc.stdout
    assert "input 1" in line and "[1024]" in line and "[2048]" in line
    cases = dict(out[len("CASE_") :].split("=", 1) for out in proc.stdout.splitlines() if out.startswith("CASE_"))
    assert cases["count"].startswith("RunGraph failed; graph_id=1;") and "takes 2 inputs, got 1" in cases["count"]
    assert "input 1" in cases["dtype"] and "DT_FLOAT" in cases["dtype"] and "int32" in cases["dtype"]
