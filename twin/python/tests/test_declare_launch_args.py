import pytest
from helpers import ADD_IR, add_node

from ge.custom_op import (
    AnnotatedArgsContext,
    AnnotatedKernelLaunchInfo,
    _bridge,
    get_declare_launch_args_ctx,
    register_op_impl,
)
from ge.runtime import Tensor

KERNEL = b"\x7fELF-device-binary"
SEEN = {}


class AddLaunch:
    def declare_launch_args(self, x1: Tensor, x2: Tensor, y: Tensor) -> None:
        ctx = get_declare_launch_args_ctx()
        SEEN.update(ctx=ctx, x1=x1, addrs=(x1.addr, x2.addr, y.addr))
        ws = ctx.malloc_workspace(100)
        ws2 = ctx.malloc_workspace(513)
        SEEN.update(ws=ws, ws_addrs=(ws.addr, ws2.addr), ws_idx=(ws.index, ws2.index))
        args = ctx.create_kernel_args()
        args.append_input(0, x1)
        args.append_input(1, x2)
        args.append_output(0, y)
        args.append_workspace(ws2)
        args.append_scalar(2**64 - 1)
        SEEN["args"] = args
        info = AnnotatedKernelLaunchInfo(
            kernel_name="add_custom", kernel_bin=KERNEL, block_dim=8, stream_id=ctx.get_stream_id()
        )
        ctx.add_launch(info, args)
        SEEN.get("extra", lambda c: None)(ctx)


@pytest.fixture(autouse=True)
def registered():
    register_op_impl(op_type="PythonCompilableAddCustom")(AddLaunch)
    SEEN.clear()


def _declare(stream_id=3):
    key = AddLaunch.__ge_op_impl_descriptor__.descriptor_key
    instance_id = _bridge.new_instance_id(key)
    _bridge.create_op_impl_holder(instance_id, key)
    ctx = AnnotatedArgsContext._create(
        add_node(16, addrs=(0x1000, 0x2000, 0x3000)), stream_id=stream_id, workspace_base=0x10000
    )
    _bridge.call_declare_launch_args(instance_id, ADD_IR, ctx)
    return ctx


def test_launch_plan_is_collected_as_plain_data():
    plan = _declare()._take_plan()
    assert SEEN["addrs"] == (0x1000, 0x2000, 0x3000)
    assert SEEN["ws_addrs"] == (0x10000, 0x10000 + 512) and SEEN["ws_idx"] == (0, 1)
    assert plan.workspace_sizes == [512, 1024]
    (launch,) = plan.launches
    assert (launch.kernel_name, launch.kernel_bin, launch.block_dim, launch.stream_id) == ("add_custom", KERNEL, 8, 3)
    assert launch.slots == [("input", 0), ("input", 1), ("output", 0), ("workspace", 1), ("scalar", 2**64 - 1)]


def test_builders_expire_after_callback():
    _declare()
    for touch in (
        lambda: SEEN["args"].append_scalar(1),
        lambda: SEEN["ws"].addr,
        lambda: SEEN["ctx"].get_stream_id(),
        lambda: SEEN["ctx"].create_kernel_args(),
    ):
        with pytest.raises(RuntimeError, match="^Borrowed native object has expired$"):
            touch()
    with pytest.raises(RuntimeError, match="^handle has expired$"):
        SEEN["x1"].addr


def _declare_with(extra):
    SEEN["extra"] = extra
    return _declare()


def test_append_rules():
    def extra(ctx):
        args = ctx.create_kernel_args()
        with pytest.raises(IndexError, match="^input instance index 2 is out of range for input count 2$"):
            args.append_input(2, SEEN["x1"])
        with pytest.raises(IndexError, match="^output instance index 1 is out of range for output count 1$"):
            args.append_output(1, SEEN["x1"])
        for bad in (-1, 2**64, 1.5, "1"):
            with pytest.raises(TypeError):
                args.append_scalar(bad)
        with pytest.raises(TypeError):
            args.append_input(-1, SEEN["x1"])
        with pytest.raises(TypeError):
            args.append_input(0, "not a tensor")
        with pytest.raises(TypeError):
            args.append_workspace(5)
        with pytest.raises(ValueError, match="^workspace size must be greater than zero$"):
            ctx.malloc_workspace(0)
        with pytest.raises(RuntimeError):
            ctx.malloc_workspace(1 << 40)
        with pytest.raises(RuntimeError, match="^AnnotatedKernelArgs has been consumed$"):
            SEEN["args"].append_scalar(1)

    _declare_with(extra)


def test_add_launch_checks_stream_before_consuming():
    def extra(ctx):
        args = ctx.create_kernel_args()
        args.append_scalar(7)
        wrong = AnnotatedKernelLaunchInfo(kernel_name="k", kernel_bin=b"x", block_dim=1, stream_id=9)
        with pytest.raises(ValueError, match="^launch stream_id does not match current context stream_id$"):
            ctx.add_launch(wrong, args)
        args.append_scalar(8)  # still usable
        right = AnnotatedKernelLaunchInfo(kernel_name="k2", kernel_bin=b"y", block_dim=2, stream_id=3)
        ctx.add_launch(right, args)
        with pytest.raises(RuntimeError, match="^AnnotatedKernelArgs has been consumed$"):
            ctx.add_launch(right, args)
        with pytest.raises(TypeError):
            ctx.add_launch("info", args)

    plan = _declare_with(extra)._take_plan()
    assert [launch.kernel_name for launch in plan.launches] == ["add_custom", "k2"]
    assert plan.launches[1].slots == [("scalar", 7), ("scalar", 8)]


def test_builder_of_another_context_is_refused_and_consumed():
    other = AnnotatedArgsContext._create(add_node(), stream_id=3)
    foreign = other.create_kernel_args()

    def extra(ctx):
        info = AnnotatedKernelLaunchInfo(kernel_name="k", kernel_bin=b"x", block_dim=1, stream_id=3)
        with pytest.raises(RuntimeError, match="^Failed to add annotated kernel launch$"):
            ctx.add_launch(info, foreign)
        with pytest.raises(RuntimeError, match="^AnnotatedKernelArgs has been consumed$"):
            foreign.append_scalar(1)

    _declare_with(extra)


@pytest.mark.parametrize(
    "kwargs, error, message",
    [
        (dict(kernel_name="", kernel_bin=b"x", block_dim=1, stream_id=0), ValueError, "kernel_name"),
        (dict(kernel_name="k", kernel_bin=b"", block_dim=1, stream_id=0), ValueError, "kernel_bin"),
        (dict(kernel_name="k", kernel_bin=b"x", block_dim=0, stream_id=0), ValueError, "block_dim"),
        (dict(kernel_name="k", kernel_bin=b"x", block_dim=2**32, stream_id=0), TypeError, "block_dim"),
        (dict(kernel_name="k", kernel_bin=b"x", block_dim=1, stream_id=-1), TypeError, "stream_id"),
        (dict(kernel_name="k", kernel_bin="str", block_dim=1, stream_id=0), TypeError, "kernel_bin"),
    ],
)
def test_launch_info_validation(kwargs, error, message):
    with pytest.raises(error, match=message):
        AnnotatedKernelLaunchInfo(**kwargs)


def test_launch_info_is_keyword_only_and_copies_bytes():
    with pytest.raises(TypeError):
        AnnotatedKernelLaunchInfo("k", b"x", 1, 0)
    assert not hasattr(
        AnnotatedKernelLaunchInfo(kernel_name="k", kernel_bin=b"x", block_dim=1, stream_id=0), "kernel_name"
    )


def test_no_launch_is_an_error_for_the_compiler():
    class Silent:
        def declare_launch_args(self, x1, x2, y) -> None:
            pass

    from ge.custom_op import clear_registered_op_impls

    clear_registered_op_impls()
    key = register_op_impl(op_type="PythonCompilableAddCustom")(Silent).__ge_op_impl_descriptor__.descriptor_key
    _bridge.create_op_impl_holder("s#0", key)
    ctx = AnnotatedArgsContext._create(add_node())
    _bridge.call_declare_launch_args("s#0", ADD_IR, ctx)
    with pytest.raises(RuntimeError, match="did not call add_launch"):
        ctx._take_plan()


def test_non_none_return_is_type_error():
    def extra(ctx):
        return None

    SEEN["extra"] = extra

    class Returns:
        def declare_launch_args(self, x1, x2, y) -> None:
            return 5

    from ge.custom_op import clear_registered_op_impls

    clear_registered_op_impls()
    key = register_op_impl(op_type="PythonCompilableAddCustom")(Returns).__ge_op_impl_descriptor__.descriptor_key
    _bridge.create_op_impl_holder("r#0", key)
    ctx = AnnotatedArgsContext._create(add_node())
    with pytest.raises(TypeError, match="^declare_launch_args must return None$"):
        _bridge.call_declare_launch_args("r#0", ADD_IR, ctx)
    with pytest.raises(RuntimeError, match="expired"):
        ctx.get_stream_id()
