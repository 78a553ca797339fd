import numpy as np
import pytest
from helpers import add_node

from ge.custom_op import EagerOpExecutionContext, _bridge, get_execute_ctx, register_op_impl
from ge.graph import DataType
from ge.runtime import Tensor


class HostArena:
    """A bump allocator over a numpy buffer: addresses are offsets into real host memory."""

    def __init__(self, size):
        self.buffer = np.zeros(size, dtype=np.uint8)
        self.base = self.buffer.ctypes.data
        self.used = 0

    def malloc(self, size):
        if self.used + size > self.buffer.size:
            raise MemoryError(f"arena exhausted by {size} bytes")
        addr = self.base + self.used
        self.used += (size + 31) // 32 * 32
        return addr


class EagerAdd:
    def execute(self, x1: Tensor, x2: Tensor) -> None:
        ctx = get_execute_ctx()
        out = ctx.malloc_output_tensor(0, x1.shape, x1.format, x1.data_type)
        EagerAdd.seen = (ctx, out, ctx.get_stream(), ctx.get_input_num(), ctx.malloc_workspace(64))


def test_execute_allocates_outputs_through_the_runtime_allocator():
    key = register_op_impl(op_type="EagerAdd")(EagerAdd).__ge_op_impl_descriptor__.descriptor_key
    _bridge.create_op_impl_holder("e#0", key)
    arena = HostArena(4096)
    ctx = EagerOpExecutionContext._create(add_node(16, addrs=(0x100, 0x200, 0)), stream=0xABC, allocator=arena)
    ir = {
        "inputs": [{"name": "x1", "kind": 0}, {"name": "x2", "kind": 0}],
        "attrs": [],
        "outputs": [{"name": "y", "kind": 0}],
    }
    _bridge.call_execute("e#0", ir, ctx)
    _, out, stream, count, workspace = EagerAdd.seen
    assert (stream, count) == (0xABC, 2)
    (produced,) = ctx._take_outputs()
    assert produced.addr == arena.base and produced.storage_dims == [16] and produced.data_type == DataType.DT_FLOAT
    assert workspace == arena.base + 64
    with pytest.raises(RuntimeError, match="^handle has expired$"):
        out.addr
    with pytest.raises(RuntimeError, match="^Borrowed native object has expired$"):
        EagerAdd.seen[0].get_stream()


def test_execute_context_lookup_errors():
    ctx = EagerOpExecutionContext._create(add_node(), stream=0, allocator=HostArena(64))
    with pytest.raises(RuntimeError):
        ctx.get_input_tensor(2)
    with pytest.raises(RuntimeError, match="not allocated"):
        ctx.get_output_tensor(0)
    with pytest.raises(RuntimeError):
        ctx.get_output_tensor(1)
    assert ctx.make_output_ref_input(0, 1).addr == 0
    with pytest.raises(ValueError):
        EagerOpExecutionContext._create(add_node(), stream=0, allocator=None)
