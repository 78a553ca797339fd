"""The compile holder through GE's bridge: artifacts per (storage dims, dtype), cleared when the
SoC/NpuArch changes, block_dim = elements / 1024, launch arguments x1, x2, y."""

import json
import textwrap

import harness

SCRIPT = textwrap.dedent("""
    import json
    from ge._platform import load_platform
    from ge.custom_op import _bridge
    from ge.custom_op._args_ctx import AnnotatedArgsContext
    from ge.custom_op._compile_ctx import OpCompileContext
    from ge.custom_op._node import NodeSpec
    from ge.custom_op.registry import get_registered_op_impl_by_op_type
    from ge.graph import DataType
    from ge.runtime._meta import TensorMeta

    IR = {"inputs": [{"name": "x1", "kind": 0}, {"name": "x2", "kind": 0}], "attrs": [],
          "outputs": [{"name": "y", "kind": 0}]}

    def node(n):
        meta = lambda addr: TensorMeta(data_type=DataType.DT_FLOAT, storage_dims=[n], addr=addr)
        return NodeSpec("PythonCompilableAddCustom", "add", inputs=[[meta(0x100)], [meta(0x200)]],
                        outputs=[[meta(0x300)]])

    _bridge.load_and_get_op_descriptors()
    key = get_registered_op_impl_by_op_type("PythonCompilableAddCustom").descriptor_key
    _bridge.create_op_impl_holder("h#0", key)
    holder = _bridge.get_op_impl_holder_instance("h#0")

    def compile_for(n, soc):
        ctx = OpCompileContext._create(node(n), options={"ge.twin.compileMode": "offline"},
                                       platform=load_platform(soc))
        _bridge.call_compile("h#0", IR, ctx)

    report = {}
    compile_for(4096, "Ascend910B1")
    compile_for(2048, "Ascend910B1")
    report["after_910"] = sorted(str(k) for k in holder._kernels.keys())
    ctx = AnnotatedArgsContext._create(node(4096))
    _bridge.call_declare_launch_args("h#0", IR, ctx)
    plan = ctx._take_plan()
    launch = plan.launches[0]
    report["launch"] = [launch.kernel_name, launch.block_dim, launch.stream_id, launch.slots,
                        launch.kernel_bin[:4].hex()]
    bin_910 = holder._kernels.get(((4096,), "DT_FLOAT"))
    compile_for(4096, "Ascend310P3")
    report["after_310"] = sorted(str(k) for k in holder._kernels.keys())
    report["target"] = list(holder._kernels.target)
    report["binary_changed"] = holder._kernels.get(((4096,), "DT_FLOAT")) != bin_910
    print("REPORT=" + json.dumps(report))
""")


def test_artifacts_per_shape_cleared_on_soc_change_and_launch_layout():
    paths = harness.sample_paths()
    proc = harness.run_script(SCRIPT, harness.clean_env(paths), "holder")
    assert proc.returncode == 0, proc.stderr
    report = json.loads([out for out in proc.stdout.splitlines() if out.startswith("REPORT=")][0][len("REPORT=") :])
    assert report["after_910"] == ["((2048,), 'DT_FLOAT')", "((4096,), 'DT_FLOAT')"]
    assert report["launch"] == ["add_custom", 4, 0, [["input", 0], ["input", 1], ["output", 0]], "7f454c46"]
    assert report["after_310"] == ["((4096,), 'DT_FLOAT')"]  # the 910B1 artifacts are gone
    assert report["target"] == ["Ascend310P3", "2002"]
    assert report["binary_changed"]  # built for dav-2002, not reused from dav-2201
    lines = proc.stdout.splitlines()
    assert "PY_COMPILE_CALLBACK_ENTER=1 mode=offline soc=Ascend910B1 arch=2201 shape=[4096]" in lines
    assert "PY_COMPILE_CALLBACK_ENTER=1 mode=offline soc=Ascend310P3 arch=2002 shape=[4096]" in lines
