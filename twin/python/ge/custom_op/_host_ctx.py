"""HostCpuOpExecutionContext: the context of an ``execute`` registered for OpBackend.HOST (§1.13).

Same inputs, attrs and outputs as the device context, but every tensor is in host memory (the
graph executor copies device tensors in and results back out) and there is no stream and no
device workspace: a host kernel runs synchronously on the calling CPU thread.
"""

from typing import Optional

from ge.runtime._meta import TensorPlacement

from ._execute_ctx import DeviceAllocator, ExecutionContextBase
from ._node import NodeSpec


class HostCpuOpExecutionContext(ExecutionContextBase):
    __slots__ = ()
    _PLACEMENT = TensorPlacement.ON_HOST

    @classmethod
    def _create(
        cls, node: NodeSpec, *, allocator: DeviceAllocator, output_count: Optional[int] = None
    ) -> "HostCpuOpExecutionContext":
        """``allocator.malloc(size)`` returns host addresses."""
        ctx = object.__new__(cls)
        ctx._init_execution(node, allocator, output_count)
        return ctx
