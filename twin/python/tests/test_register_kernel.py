"""register_kernel / OpBackend (§1.13): one execute per backend, the interfaces they give, the
bridge calling each backend's function, and every misuse as a TypeError."""

import pytest

from ge.custom_op import OpBackend, _bridge, register_kernel, register_op_impl
from ge.custom_op._backend import kernel_bindings
from ge.runtime import Tensor

IR = {"inputs": [{"name": "x", "kind": 0}], "attrs": [], "outputs": [{"name": "y", "kind": 0}]}


def test_enum_values():
    assert OpBackend.DEVICE.value == "device" and OpBackend.HOST.value == "host"
    assert [b.name for b in OpBackend] == ["DEVICE", "HOST"]


def test_two_backends_are_both_kept():
    ran = []

    @register_op_impl(op_type="Both")
    class Both:
        @register_kernel(backend=OpBackend.DEVICE)
        def execute(self, x: Tensor) -> None:
            ran.append("device")

        @register_kernel(backend=OpBackend.HOST)
        @staticmethod
        def execute(x: Tensor) -> None:  # noqa: F811  # one name, two backends: the case under test
            ran.append("host")

    desc = Both.__ge_op_impl_descriptor__
    assert desc.interfaces == ["eager_execute", "host_cpu_execute"]
    assert desc.kernel_bindings == ("device", "host")
    assert set(kernel_bindings(Both)) == {OpBackend.DEVICE, OpBackend.HOST}
    assert _bridge.validate_op_impl_descriptor(desc.descriptor_key, IR)
    _bridge.create_op_impl_holder("b#0", desc.descriptor_key)
    from helpers import meta

    from ge.custom_op._execute_ctx import EagerOpExecutionContext
    from ge.custom_op._host_ctx import HostCpuOpExecutionContext
    from ge.custom_op._node import NodeSpec

    node = NodeSpec("Both", "n", inputs=[[meta([4])]], outputs=[[meta([4])]])
    alloc = type("A", (), {"malloc": lambda self, size: 4096})()
    _bridge.call_execute("b#0", IR, HostCpuOpExecutionContext._create(node, allocator=alloc), OpBackend.HOST)
    _bridge.call_execute("b#0", IR, EagerOpExecutionContext._create(node, stream=1, allocator=alloc))
    assert ran == ["host", "device"]


def _device_context():
    from helpers import meta

    from ge.custom_op._execute_ctx import EagerOpExecutionContext
    from ge.custom_op._node import NodeSpec

    node = NodeSpec("Counted", "n", inputs=[[meta([4])]], outputs=[[meta([4])]])
    return EagerOpExecutionContext._create(node, stream=1, allocator=type("A", (), {"malloc": lambda s, n: 4096})())


def test_run_time_bindings_are_cached_per_class_and_follow_a_replaced_execute(monkeypatch):
    from ge.custom_op import _backend

    computed = []
    real = _backend.kernel_bindings
    monkeypatch.setattr(_backend, "kernel_bindings", lambda cls: computed.append(cls) or real(cls))
    ran = []

    @register_op_impl(op_type="Counted")
    class Counted:
        def execute(self, x: Tensor) -> None:
            ran.append("first")

    key = Counted.__ge_op_impl_descriptor__.descriptor_key
    _bridge.create_op_impl_holder("c#0", key)
    _bridge.create_op_impl_holder("c#1", key)
    for instance_id in ("c#0", "c#1", "c#0"):
        _bridge.call_execute(instance_id, IR, _device_context())
    assert ran == ["first"] * 3 and computed == [Counted]  # once for the class, not per run or holder

    def replaced(self, x: Tensor) -> None:
        ran.append("replaced")

    Counted.execute = replaced
    _bridge.call_execute("c#0", IR, _device_context())
    _bridge.call_execute("c#1", IR, _device_context())
    assert ran[3:] == ["replaced"] * 2 and computed == [Counted] * 2

    class Derived(Counted):  # a subclass is its own entry, and sees a base's execute change
        pass

    holder = _bridge._holder("c#0")
    holder.instance = Derived()
    _bridge.call_execute("c#0", IR, _device_context())
    Counted.execute = lambda self, x: ran.append("base again")
    _bridge.call_execute("c#0", IR, _device_context())
    assert ran[5:] == ["replaced", "base again"] and computed == [Counted, Counted, Derived, Derived]

    _bridge.clear_op_impl_holders()  # GE finalize: the classes are no longer referenced
    assert not _backend._bindings_by_class


def test_host_only_impl():
    @register_op_impl(op_type="HostOnly")
    class HostOnly:
        @register_kernel(backend=OpBackend.HOST)
        @classmethod
        def execute(cls, x: Tensor) -> None:
            pass

    assert HostOnly.__ge_op_impl_descriptor__.interfaces == ["host_cpu_execute"]


def test_host_execute_signature_is_validated():
    @register_op_impl(op_type="BadHost")
    class BadHost:
        @register_kernel(backend=OpBackend.HOST)
        def execute(self, x: Tensor, extra: Tensor) -> None:
            pass

    with pytest.raises(TypeError, match="^invalid execute signature for op type BadHost"):
        _bridge.validate_op_impl_descriptor(BadHost.__ge_op_impl_descriptor__.descriptor_key, IR)


def test_misuse_is_a_type_error():
    with pytest.raises(TypeError, match="backend must be an OpBackend"):
        register_kernel(backend="host")
    with pytest.raises(TypeError, match="only decorate a method named execute"):

        class NotExecute:
            @register_kernel(backend=OpBackend.HOST)
            def compile(self) -> None:
                pass

    with pytest.raises(TypeError, match="inside a class body"):

        def execute(x):
            pass

        register_kernel(backend=OpBackend.HOST)(execute)
    with pytest.raises(TypeError, match="backend DEVICE is already registered"):

        class Twice:
            @register_kernel(backend=OpBackend.DEVICE)
            def execute(self, x: Tensor) -> None:
                pass

            @register_kernel(backend=OpBackend.DEVICE)
            def execute(self, x: Tensor) -> None:  # noqa: F811
                pass

    class Mixed:
        @register_kernel(backend=OpBackend.HOST)
        def execute(self, x: Tensor) -> None:
            pass

        def execute(self, x: Tensor) -> None:  # noqa: F811  (undecorated, overwrites the attribute)
            pass

    with pytest.raises(TypeError, match="mixes an undecorated execute"):
        register_op_impl(op_type="Mixed")(Mixed)


def test_register_kernel_must_be_outermost():
    class Inner:
        @staticmethod
        @register_kernel(backend=OpBackend.HOST)
        def execute(x: Tensor) -> None:
            pass

    with pytest.raises(TypeError, match="register_kernel must be the outermost decorator of execute"):
        register_op_impl(op_type="Inner")(Inner)


def test_host_context_has_no_stream_and_marks_outputs_host():
    from helpers import meta

    from ge.custom_op import HostCpuOpExecutionContext
    from ge.custom_op._node import NodeSpec
    from ge.runtime import TensorPlacement

    node = NodeSpec("H", "h", inputs=[[meta([4], addr=64)]], outputs=[[meta([4])]])
    ctx = HostCpuOpExecutionContext._create(node, allocator=type("A", (), {"malloc": lambda self, n: 4096})())
    assert not hasattr(ctx, "get_stream") and not hasattr(ctx, "malloc_workspace")
    x = ctx.get_input_tensor(0)
    y = ctx.malloc_output_tensor(0, x.shape, x.format, x.data_type)
    assert (y.addr, y.placement) == (4096, TensorPlacement.ON_HOST)
    with pytest.raises(TypeError, match="No constructor defined"):
        HostCpuOpExecutionContext()
    with pytest.raises(ValueError, match="needs an allocator"):
        HostCpuOpExecutionContext._create(node, allocator=None)
