"""declare_launch_args builder API: AnnotatedArgsContext, AnnotatedKernelArgs,
AnnotatedKernelLaunchInfo, WorkspaceAddr (§1.7)."""

from dataclasses import dataclass, field
from typing import List, Tuple

from ge._lease import NATIVE_EXPIRED, Lease
from ge.runtime import Tensor

from ._ctx_base import SchemaTensorAccess
from ._node import NodeSpec

UINT32_MAX = 0xFFFFFFFF
UINT64_MAX = 0xFFFFFFFFFFFFFFFF
WORKSPACE_ALIGN = 512  # GE rounds every workspace up to 512 bytes

Slot = Tuple[str, int]  # ("input", i) | ("output", i) | ("workspace", k) | ("scalar", v)


def _unsigned(value, limit: int, what: str) -> int:
    # pybind11 refuses non-int and negative/out-of-range values for unsigned parameters
    if not isinstance(value, int) or value < 0 or value > limit:
        raise TypeError(
            f"incompatible function arguments: {what} must be an unsigned integer in [0, {limit}], got {value!r}"
        )
    return int(value)


@dataclass(frozen=True)
class DeclaredLaunch:
    """One launch published by declare_launch_args, as plain data for the compiler."""

    kernel_name: str
    kernel_bin: bytes
    block_dim: int
    stream_id: int
    slots: List[Slot] = field(default_factory=list)


@dataclass(frozen=True)
class DeclaredLaunchPlan:
    launches: List[DeclaredLaunch]
    workspace_sizes: List[int]  # rounded to WORKSPACE_ALIGN, index = workspace index


class AnnotatedKernelLaunchInfo:
    """Owned launch metadata (name and binary are copied at construction)."""

    __slots__ = ("_kernel_name", "_kernel_bin", "_block_dim", "_stream_id")

    def __init__(self, *, kernel_name: str, kernel_bin: bytes, block_dim: int, stream_id: int) -> None:
        if not isinstance(kernel_name, str):
            raise TypeError("incompatible constructor arguments: kernel_name must be a str")
        if not isinstance(kernel_bin, bytes):
            raise TypeError("incompatible constructor arguments: kernel_bin must be bytes")
        block_dim = _unsigned(block_dim, UINT32_MAX, "block_dim")
        stream_id = _unsigned(stream_id, UINT32_MAX, "stream_id")
        if not kernel_name:
            raise ValueError("kernel_name must not be empty")
        if not kernel_bin:
            raise ValueError("kernel_bin must not be empty")
        if block_dim == 0:
            raise ValueError("block_dim must be greater than zero")
        self._kernel_name = str(kernel_name)
        self._kernel_bin = bytes(kernel_bin)
        self._block_dim = block_dim
        self._stream_id = stream_id


class WorkspaceAddr:
    __slots__ = ("_index", "_addr", "_owner", "_lease")
    # Set by the borrowing constructor below (object.__new__ skips __init__), declared here for type checkers.
    _index: int
    _addr: int
    _owner: "AnnotatedArgsContext"
    _lease: Lease

    def __init__(self, *args, **kwargs) -> None:
        raise TypeError("ge.custom_op.WorkspaceAddr: No constructor defined!")

    @classmethod
    def _borrow(cls, index: int, addr: int, owner, lease: Lease) -> "WorkspaceAddr":
        view = object.__new__(cls)
        view._index, view._addr, view._owner, view._lease = index, addr, owner, lease
        return view

    @property
    def index(self) -> int:
        self._lease.check(NATIVE_EXPIRED)
        return self._index

    @property
    def addr(self) -> int:
        self._lease.check(NATIVE_EXPIRED)
        return self._addr


class AnnotatedKernelArgs:
    """Ordered argument builder for one launch; consumed by add_launch."""

    __slots__ = ("_owner", "_lease", "_slots", "_consumed")
    # Set by the borrowing constructor below (object.__new__ skips __init__), declared here for type checkers.
    _owner: "AnnotatedArgsContext"
    _lease: Lease
    _slots: List[Tuple[str, int]]
    _consumed: bool

    def __init__(self, *args, **kwargs) -> None:
        raise TypeError("ge.custom_op.AnnotatedKernelArgs: No constructor defined!")

    @classmethod
    def _borrow(cls, owner: "AnnotatedArgsContext", lease: Lease) -> "AnnotatedKernelArgs":
        builder = object.__new__(cls)
        builder._owner, builder._lease, builder._slots, builder._consumed = owner, lease, [], False
        return builder

    def __copy__(self):
        raise TypeError("AnnotatedKernelArgs is not copyable")

    def __deepcopy__(self, memo):
        raise TypeError("AnnotatedKernelArgs is not copyable")

    def _usable(self) -> None:
        self._lease.check(NATIVE_EXPIRED)
        if self._consumed:
            raise RuntimeError("AnnotatedKernelArgs has been consumed")

    def _append_instance(self, kind: str, instance_index, tensor, count: int) -> None:
        self._usable()
        index = _unsigned(instance_index, UINT32_MAX, "instance_index")
        if not isinstance(tensor, Tensor):
            raise TypeError(
                f"incompatible function arguments: tensor must be a ge.runtime.Tensor, got {type(tensor).__name__}"
            )
        tensor.addr  # an expired tensor view must fail here, as the C++ side dereferences it
        if index >= count:
            raise IndexError(f"{kind} instance index {index} is out of range for {kind} count {count}")
        self._slots.append((kind, index))

    def append_input(self, instance_index: int, tensor: Tensor) -> None:
        self._append_instance("input", instance_index, tensor, len(self._owner._node.input_instances))

    def append_output(self, instance_index: int, tensor: Tensor) -> None:
        self._append_instance("output", instance_index, tensor, len(self._owner._node.output_instances))

    def append_workspace(self, workspace: WorkspaceAddr) -> None:
        self._usable()
        if not isinstance(workspace, WorkspaceAddr):
            raise TypeError("incompatible function arguments: workspace must be a WorkspaceAddr")
        index = workspace.index
        if workspace._owner is not self._owner:
            raise RuntimeError("Failed to append workspace: it was allocated by another context")
        self._slots.append(("workspace", index))

    def append_scalar(self, value: int) -> None:
        self._usable()
        self._slots.append(("scalar", _unsigned(value, UINT64_MAX, "value")))


class AnnotatedArgsContext(SchemaTensorAccess):
    """Borrowed context of one ``declare_launch_args`` callback."""

    __slots__ = ("_stream_id", "_workspace_base", "_workspace_limit", "_workspace_sizes", "_launches")
    # Set by the borrowing constructor below (object.__new__ skips __init__), declared here for type checkers.
    _stream_id: int
    _workspace_base: int
    _workspace_limit: int
    _workspace_sizes: List[int]
    _launches: List[DeclaredLaunch]

    @classmethod
    def _create(
        cls, node: NodeSpec, *, stream_id: int = 0, workspace_base: int = 0, workspace_limit: int = 1 << 36
    ) -> "AnnotatedArgsContext":
        """``workspace_base`` is the logical address where this node's workspaces start;
        ``workspace_limit`` caps their total bytes (allocation beyond it fails)."""
        ctx = object.__new__(cls)
        ctx._init_borrowed(node)
        ctx._stream_id = stream_id
        ctx._workspace_base = workspace_base
        ctx._workspace_limit = workspace_limit
        ctx._workspace_sizes = []
        ctx._launches = []
        return ctx

    def malloc_workspace(self, size: int) -> WorkspaceAddr:
        self._alive()
        size = _unsigned(size, UINT64_MAX, "size")
        if size == 0:
            raise ValueError("workspace size must be greater than zero")
        rounded = (size + WORKSPACE_ALIGN - 1) // WORKSPACE_ALIGN * WORKSPACE_ALIGN
        used = sum(self._workspace_sizes)
        if used + rounded > self._workspace_limit:
            raise RuntimeError(
                f"Failed to malloc workspace of {size} bytes: node {self._node.name} would use "
                f"{used + rounded} bytes, limit {self._workspace_limit}"
            )
        index = len(self._workspace_sizes)
        self._workspace_sizes.append(rounded)
        return WorkspaceAddr._borrow(index, self._workspace_base + used, self, self._lease)

    def get_stream_id(self) -> int:
        self._alive()
        return self._stream_id

    def create_kernel_args(self) -> AnnotatedKernelArgs:
        self._alive()
        return AnnotatedKernelArgs._borrow(self, self._lease)

    def add_launch(self, launch_info: AnnotatedKernelLaunchInfo, args: AnnotatedKernelArgs) -> None:
        self._alive()
        if not isinstance(launch_info, AnnotatedKernelLaunchInfo):
            raise TypeError("incompatible function arguments: launch_info must be an AnnotatedKernelLaunchInfo")
        if not isinstance(args, AnnotatedKernelArgs):
            raise TypeError("incompatible function arguments: args must be an AnnotatedKernelArgs")
        args._lease.check(NATIVE_EXPIRED)
        if launch_info._stream_id != self._stream_id:
            raise ValueError("launch stream_id does not match current context stream_id")
        args._usable()
        args._consumed = True  # consumed even when the add below fails, as in CANN
        if args._owner is not self:
            raise RuntimeError("Failed to add annotated kernel launch")
        self._launches.append(
            DeclaredLaunch(
                launch_info._kernel_name,
                launch_info._kernel_bin,
                launch_info._block_dim,
                launch_info._stream_id,
                list(args._slots),
            )
        )

    def _take_plan(self) -> DeclaredLaunchPlan:
        """Results for the graph compiler; readable after the callback ended."""
        if not self._launches:
            raise RuntimeError(
                f"declare_launch_args of op {self._node.op_type} (node {self._node.name}) did not call add_launch"
            )
        return DeclaredLaunchPlan(list(self._launches), list(self._workspace_sizes))
