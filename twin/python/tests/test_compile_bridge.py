import pytest
from helpers import ADD_IR, add_node

from ge import _platform
from ge.custom_op import (
    CompilePlatformInfo,
    OpCompileContext,
    _bridge,
    get_compile_ctx,
    get_compile_platform_info,
    get_declare_launch_args_ctx,
    get_execute_ctx,
    register_op_impl,
)
from ge.graph import DataType, Format
from ge.runtime import Shape, StorageFormat, StorageShape, Tensor

SEEN = {}


class AddImpl:
    instances = 0

    def __init__(self):
        AddImpl.instances += 1
        self.cache = {}

    def compile(self, x1: Tensor, x2: Tensor, y: Tensor) -> None:
        ctx = get_compile_ctx()
        info = get_compile_platform_info()
        key = (tuple(x1.storage_shape.dims), str(x1.data_type))
        arch = info.get_platform_resource("version", "NpuArch")
        self.cache[key] = f"dav-{arch}"
        SEEN.update(
            ctx=ctx,
            info=info,
            x1=x1,
            shape=x1.shape,
            storage=x1.storage_shape,
            fmt=x1.format,
            soc=info.get_soc_version(),
            cores=info.get_core_num(),
            aic=info.get_ai_core_num(),
            vec=info.get_core_num("VectorCore"),
            group=info.get_platform_resource_group("AICoreSpec"),
            opt=ctx.get_option("ge.socVersion"),
            addr=x1.addr,
            size=y.size,
            shape_size=y.shape_size,
        )
        if SEEN.get("fail"):
            raise ValueError("compile failed on purpose")
        return SEEN.get("return_value")


def _run_compile(platform, options=None, n=64):
    key = AddImpl.__ge_op_impl_descriptor__.descriptor_key
    instance_id = _bridge.new_instance_id(key)
    _bridge.create_op_impl_holder(instance_id, key)
    ctx = OpCompileContext._create(add_node(n), options=options or {"ge.socVersion": "Ascend910B1"}, platform=platform)
    _bridge.call_compile(instance_id, ADD_IR, ctx)
    return instance_id, ctx


@pytest.fixture(autouse=True)
def reset_seen():
    register_op_impl(op_type="PythonCompilableAddCustom")(AddImpl)  # the autouse cleanup clears registries
    SEEN.clear()
    yield
    SEEN.clear()


def test_compile_sees_metadata_platform_and_options(reset_seen):
    platform = _platform.load_platform("Ascend910B1")
    instance_id, _ = _run_compile(platform)
    assert SEEN["soc"] == "Ascend910B1"
    assert SEEN["cores"] == 24 and SEEN["aic"] == 24 and SEEN["vec"] == 48
    assert SEEN["group"]["ub_size"] == "196608"
    assert SEEN["opt"] == "Ascend910B1"
    assert SEEN["addr"] == 0 and SEEN["size"] == 64 * 4 and SEEN["shape_size"] == 64
    holder = _bridge.get_op_impl_holder_instance(instance_id)
    assert holder.cache == {((64,), str(DataType.DT_FLOAT)): "dav-2201"}


def test_holder_is_created_once_per_instance_id(reset_seen):
    key = AddImpl.__ge_op_impl_descriptor__.descriptor_key
    before = AddImpl.instances
    assert _bridge.create_op_impl_holder("h#1", key) and _bridge.create_op_impl_holder("h#1", key)
    assert AddImpl.instances == before + 1
    assert _bridge.destroy_op_impl_holder("h#1") is True
    assert _bridge.destroy_op_impl_holder("h#1") is False
    with pytest.raises(KeyError, match="python op impl descriptor_key not found: nope"):
        _bridge.create_op_impl_holder("h#2", "nope")
    with pytest.raises(KeyError, match="python op impl holder is not created: h#9"):
        _bridge.call_compile("h#9", ADD_IR, OpCompileContext._create(add_node()))


def test_everything_borrowed_expires_after_the_callback(reset_seen):
    _run_compile(_platform.load_platform("Ascend910B1"))
    native = "^Borrowed native object has expired$"
    handle = "^handle has expired$"
    with pytest.raises(RuntimeError, match=native):
        SEEN["ctx"].get_option("ge.socVersion")
    with pytest.raises(RuntimeError, match=native):
        SEEN["ctx"]._get_platform_info()
    with pytest.raises(RuntimeError, match=native):
        SEEN["info"].get_soc_version()
    with pytest.raises(RuntimeError, match=native):
        SEEN["info"].get_platform_resource("version", "NpuArch")
    for touch in (
        lambda: SEEN["x1"].addr,
        lambda: SEEN["x1"].data_type,
        lambda: SEEN["shape"].origin_shape,
        lambda: SEEN["storage"].dims,
        lambda: SEEN["fmt"].storage_format,
    ):
        with pytest.raises(RuntimeError, match=handle):
            touch()


def test_contexts_unavailable_outside_callbacks(reset_seen):
    with pytest.raises(RuntimeError, match=r"^get_compile_ctx\(\) is only available inside schema-bound compile$"):
        get_compile_ctx()
    with pytest.raises(RuntimeError, match=r"^get_compile_ctx\(\) is only available inside schema-bound compile$"):
        get_compile_platform_info()
    with pytest.raises(
        RuntimeError,
        match=r"^get_declare_launch_args_ctx\(\) is only available inside "
        r"declare_launch_args$",
    ):
        get_declare_launch_args_ctx()
    with pytest.raises(RuntimeError, match=r"^get_execute_ctx\(\) is only available inside schema-bound execute$"):
        get_execute_ctx()
    _run_compile(_platform.load_platform("Ascend910B1"))
    with pytest.raises(RuntimeError, match="only available inside schema-bound compile"):
        get_compile_ctx()


def test_exception_and_non_none_return_still_invalidate(reset_seen):
    SEEN["fail"] = True
    with pytest.raises(ValueError, match="compile failed on purpose"):
        _run_compile(_platform.load_platform("Ascend910B1"))
    with pytest.raises(RuntimeError, match="Borrowed native object has expired"):
        SEEN["ctx"].get_option("ge.socVersion")
    SEEN.clear()
    SEEN["return_value"] = 1
    with pytest.raises(TypeError, match="^compile must return None$"):
        _run_compile(_platform.load_platform("Ascend910B1"))
    with pytest.raises(RuntimeError, match="^handle has expired$"):
        SEEN["x1"].addr
    with pytest.raises(RuntimeError, match="^Borrowed native object has expired$"):
        SEEN["ctx"].get_option("x")


def test_option_rules(reset_seen):
    ctx = OpCompileContext._create(add_node(), options={"a": "1"})
    assert ctx.get_option("a") == "1"
    with pytest.raises(KeyError):
        ctx.get_option("ge.unset")
    with pytest.raises(TypeError, match="^option_key must be a string$"):
        ctx.get_option(3)
    with pytest.raises(ValueError):
        ctx.get_option("")


def test_platform_failure_is_reported_and_remembered(reset_seen):
    calls = []

    def broken():
        calls.append(1)
        raise OSError("no ini")

    ctx = OpCompileContext._create(add_node(), platform=broken)
    info = ctx._get_platform_info()
    for _ in range(2):
        with pytest.raises(RuntimeError, match="^Failed to get platform infos$"):
            info.get_soc_version()
    assert len(calls) == 1
    assert isinstance(info, CompilePlatformInfo)


def test_platform_info_argument_rules(reset_seen):
    ctx = OpCompileContext._create(add_node(), platform=_platform.load_platform("Ascend310P3"))
    info = ctx._get_platform_info()
    with pytest.raises(TypeError):
        info.get_platform_resource(1, "x")
    with pytest.raises(ValueError):
        info.get_platform_resource("", "x")
    with pytest.raises(KeyError, match="version:NoSuchKey"):
        info.get_platform_resource("version", "NoSuchKey")
    with pytest.raises(KeyError, match="NoSection"):
        info.get_platform_resource_group("NoSection")
    with pytest.raises(TypeError):
        info.get_core_num(7)
    with pytest.raises(ValueError):
        info.get_core_num("")
    assert info.get_soc_version() == "Ascend310P3"


def test_views_are_not_user_constructible():
    for cls in (Tensor, Shape, CompilePlatformInfo, OpCompileContext):
        with pytest.raises(TypeError, match="No constructor defined"):
            cls()
    assert StorageShape().origin_shape.dims == [] and StorageFormat().storage_format == Format.FORMAT_ND


def test_compile_signature_is_checked_once_per_callable_and_ir(monkeypatch):
    """call_compile remembers a successful signature check for (class, callable, IR); whatever
    could change the answer (another IR, a replaced method) is checked again, and a failing
    check is never remembered."""
    checks = []
    real = _bridge.validate_args_signature

    def counting(method, ir_meta, descriptor, *, method_name):
        checks.append(method_name)
        return real(method, ir_meta, descriptor, method_name=method_name)

    monkeypatch.setattr(_bridge, "validate_args_signature", counting)
    platform = _platform.load_platform("Ascend910B1")
    for _ in range(3):
        _run_compile(platform)
    assert checks == ["compile"]  # three calls, two fresh holders included: one check

    # another IR for the same class: checked again, and it does not fit the 3-parameter method
    key = AddImpl.__ge_op_impl_descriptor__.descriptor_key
    instance_id = _bridge.new_instance_id(key)
    _bridge.create_op_impl_holder(instance_id, key)
    ir_with_attr = {**ADD_IR, "attrs": [{"name": "alpha", "type": "VT_FLOAT"}]}
    for _ in range(2):
        ctx = OpCompileContext._create(add_node(), options={"ge.socVersion": "Ascend910B1"}, platform=platform)
        with pytest.raises(TypeError, match="^invalid compile signature for op type PythonCompilableAddCustom"):
            _bridge.call_compile(instance_id, ir_with_attr, ctx)
    assert checks == ["compile"] * 3  # failures are checked on every call

    # the method replaced on the class after a successful check: the new one is checked
    def compile_missing_output(self, x1: Tensor, x2: Tensor) -> None:
        pass

    monkeypatch.setattr(AddImpl, "compile", compile_missing_output)
    with pytest.raises(TypeError, match="expected 3 positional input/output parameters"):
        _run_compile(platform)
    # ... and a bad method set on one instance only
    monkeypatch.undo()
    monkeypatch.setattr(_bridge, "validate_args_signature", counting)
    instance_id, _ = _run_compile(platform)
    _bridge.get_op_impl_holder_instance(instance_id).compile = lambda x1, x2, y, extra: None
    ctx = OpCompileContext._create(add_node(), options={"ge.socVersion": "Ascend910B1"}, platform=platform)
    with pytest.raises(TypeError, match="invalid compile signature"):
        _bridge.call_compile(instance_id, ADD_IR, ctx)
