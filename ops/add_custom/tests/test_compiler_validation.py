"""The graph compiler's checks on what declare_launch_args publishes (one clear line naming node
and op), its Python register_op path (infer_meta), and its memory plan, on small Python-only ops.
Runs ge._compiler.compile_graph in a clean process; no kernel is executed."""

import json
import textwrap

import harness

PLUGIN = textwrap.dedent("""
    from ge.custom_op import (AnnotatedKernelLaunchInfo, get_declare_launch_args_ctx, register_op,
                              register_op_impl)
    from ge.runtime import Tensor, TensorDesc

    ELF = b"\\x7fELF" + b"\\0" * 60

    def _proto(op_type):
        @register_op(op_type=op_type)
        def infer(x: TensorDesc, z: TensorDesc) -> TensorDesc:
            return TensorDesc(x.shape.storage_shape.dims, x.data_type)
        return infer

    def _impl(op_type, declare):
        cls = type(op_type + "Impl", (), {"declare_launch_args": declare})
        return register_op_impl(op_type=op_type)(cls)

    def _launch(x, z, y, *, stream_delta=0, kernel_bin=ELF, block_dim=1, slots=("i0", "i1", "o0")):
        ctx = get_declare_launch_args_ctx()
        args = ctx.create_kernel_args()
        for slot in slots:
            kind, index = slot[0], int(slot[1:])
            if kind == "i":
                args.append_input(index, (x, z)[index] if index < 2 else x)
            elif kind == "o":
                args.append_output(index, y)
            else:
                args.append_workspace(ctx.malloc_workspace(index))
        ctx.add_launch(AnnotatedKernelLaunchInfo(kernel_name="k", kernel_bin=kernel_bin, block_dim=block_dim,
                                                 stream_id=ctx.get_stream_id() + stream_delta), args)

    def good(self, x: Tensor, z: Tensor, y: Tensor) -> None:
        _launch(x, z, y, slots=("i0", "i1", "o0", "w1000", "w24"))

    def no_launch(self, x: Tensor, z: Tensor, y: Tensor) -> None:
        get_declare_launch_args_ctx().create_kernel_args()

    def not_elf(self, x: Tensor, z: Tensor, y: Tensor) -> None:
        _launch(x, z, y, kernel_bin=b"plain bytes")

    def zero_blocks(self, x: Tensor, z: Tensor, y: Tensor) -> None:
        _launch(x, z, y, block_dim=0)

    def bad_slot(self, x: Tensor, z: Tensor, y: Tensor) -> None:
        _launch(x, z, y, slots=("i0", "i5", "o0"))

    def other_stream(self, x: Tensor, z: Tensor, y: Tensor) -> None:
        _launch(x, z, y, stream_delta=1)

    def buggy(self, x: Tensor, z: Tensor, y: Tensor) -> None:
        blocks = len(x.storage_shape.dims) - 1
        _launch(x, z, y, block_dim=64 // blocks)  # BUGGY_LINE: 1-D shapes divide by zero

    for name, declare in [("GoodOp", good), ("NoLaunchOp", no_launch), ("NotElfOp", not_elf),
                          ("ZeroBlocksOp", zero_blocks), ("BadSlotOp", bad_slot), ("OtherStreamOp", other_stream),
                          ("BuggyOp", buggy)]:
        _proto(name)
        _impl(name, declare)
""")

SCRIPT = textwrap.dedent("""
    import json, sys
    from ge.es.graph_builder import GraphBuilder
    from ge._compiler import GraphCompileError, compile_graph
    from twin.om import om

    def node(b, op, a, c):
        return b._add_op_node(op, inputs=[("x", "required", a), ("z", "required", c)], attrs=[],
                              outputs=[("output0", "required", 1)])[0][0]

    results = {}
    for op in ["NoLaunchOp", "NotElfOp", "ZeroBlocksOp", "BadSlotOp", "OtherStreamOp", "BuggyOp"]:
        b = GraphBuilder(op)
        x, z = b.create_input(0, shape=[64]), b.create_input(1, shape=[64])
        try:
            compile_graph(b.build_and_reset([node(b, op, x, z)])._ir, {})
            results[op] = "NO_ERROR"
        except GraphCompileError as exc:
            results[op] = str(exc)
            results[op + ".cause"] = type(exc.__cause__).__name__

    # a chain of GoodOp: t1 = x+z, t2 = t1+x, t3 = t2+t1, out = t3+z  -> t1..t3 in the feature map
    b = GraphBuilder("chain")
    x, z = b.create_input(0, shape=[64]), b.create_input(1, shape=[64])
    t1 = node(b, "GoodOp", x, z)
    t2 = node(b, "GoodOp", t1, x)
    t3 = node(b, "GoodOp", t2, t1)
    out = node(b, "GoodOp", t3, z)
    model = om.read(compile_graph(b.build_and_reset([out, z])._ir, {}).om).model_def
    results["chain"] = {
        "feature_map_size": model.feature_map_size,
        "tasks": [[a.WhichOneof("kind") + ":" + (str(getattr(a, a.WhichOneof("kind")).offset)
                   if a.WhichOneof("kind") == "feature_map" else str(getattr(a, a.WhichOneof("kind"))))
                   for a in t.kernel.args] if t.WhichOneof("task") == "kernel" else
                  ["memcpy", t.memcpy.src.WhichOneof("kind"), t.memcpy.dst.WhichOneof("kind")]
                  for t in model.tasks],
        "outputs": [list(o.dims) for o in model.outputs],
    }
    print("RESULTS=" + json.dumps(results))
""")


def _results():
    paths = harness.sample_paths()
    plugins = harness.scratch_dir("validation_plugins")
    (plugins / "validation_ops.py").write_text(PLUGIN)
    proc = harness.run_script(SCRIPT, harness.clean_env(paths, opp_path=str(plugins)), "validation")
    assert proc.returncode == 0, proc.stderr
    line = [out for out in proc.stdout.splitlines() if out.startswith("RESULTS=")][0]
    return json.loads(line[len("RESULTS=") :])


RESULTS = None


def results():
    global RESULTS
    if RESULTS is None:
        RESULTS = _results()
    return RESULTS


def test_declare_without_add_launch():
    msg = results()["NoLaunchOp"]
    assert msg.startswith("node NoLaunchOp_0 (op NoLaunchOp): declare_launch_args failed")
    assert "did not call add_launch" in msg


def test_a_bug_in_the_holder_names_its_file_and_line():
    line = next(i for i, text in enumerate(PLUGIN.splitlines(), 1) if "BUGGY_LINE" in text)
    assert results()["BuggyOp"] == (
        "node BuggyOp_0 (op BuggyOp): declare_launch_args failed: ZeroDivisionError: "
        f"integer division or modulo by zero (at validation_ops.py:{line} in buggy)"
    )
    assert results()["BuggyOp.cause"] == "ZeroDivisionError"  # the holder's traceback stays chained


def test_kernel_bin_must_be_a_device_binary():
    msg = results()["NotElfOp"]
    assert msg.startswith("node NotElfOp_0 (op NotElfOp): launch 0 (k)") and "not a device binary" in msg


def test_block_dim_zero():
    msg = results()["ZeroBlocksOp"]
    assert msg.startswith("node ZeroBlocksOp_0 (op ZeroBlocksOp)") and "block_dim must be greater than zero" in msg


def test_argument_slot_out_of_range():
    msg = results()["BadSlotOp"]
    assert msg.startswith("node BadSlotOp_0 (op BadSlotOp)")
    assert "input instance index 5 is out of range for input count 2" in msg


def test_stream_id_mismatch():
    msg = results()["OtherStreamOp"]
    assert msg.startswith("node OtherStreamOp_0 (op OtherStreamOp)")
    assert "launch stream_id does not match current context stream_id" in msg


def test_chain_memory_plan_reuses_feature_map_and_places_workspaces_after_tensors():
    chain = results()["chain"]
    # 64 floats = 256 B -> one 512 B block per tensor. t3 is computed while t1 and t2 are still
    # live, so three blocks; t1/t2 are freed after t3's node, so nothing more is needed. The
    # workspaces (1000 -> 1024 B, 24 -> 512 B) follow the tensors and are shared by all nodes.
    tensors = 3 * 512
    assert chain["feature_map_size"] == tensors + 1024 + 512
    tasks = chain["tasks"]
    assert tasks[0] == [
        "input:0",
        "input:1",
        "feature_map:0",
        f"feature_map:{tensors}",
        f"feature_map:{tensors + 1024}",
    ]
    assert tasks[1][:3] == ["feature_map:0", "input:0", "feature_map:512"]
    assert tasks[2][:3] == ["feature_map:512", "feature_map:0", "feature_map:1024"]
    assert tasks[3][:3] == ["feature_map:1024", "input:1", "output:0"]
    assert tasks[4] == ["memcpy", "input", "output"]  # graph input z wired straight to output 1
    assert chain["outputs"] == [[64], [64]]
