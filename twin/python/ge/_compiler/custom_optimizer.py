"""The custom-op optimizer: ``compile`` for every custom node, then (after memory planning)
``declare_launch_args`` with logical addresses, with the launches validated.

Mirrors CANN's CustomGraphOptimizer/CustomOpsKernelBuilder: one holder (Python instance) per op
type, reused across nodes and graphs of the process; compile is called once per node (never
cached by GE); the launch plan is kept as plain data — nothing of the holder reaches the model.
"""

import os
import threading
import traceback
from dataclasses import dataclass
from typing import Dict, Mapping, Optional

from ge.custom_op import _bridge
from ge.custom_op._args_ctx import AnnotatedArgsContext, DeclaredLaunchPlan
from ge.custom_op._compile_ctx import OpCompileContext
from ge.custom_op.registry import INTERFACE_COMPILABLE, OpImplDescriptor
from ge.graph._ir import Endpoint, Node

from .errors import GraphCompileError
from .memory import LOGICAL_FEATURE_MAP_BASE, MemoryPlan
from .node_spec import node_spec, output_slots, present_input_slots
from .op_catalog import OpCatalog, OpInfo
from .options import CompileTarget
from .placement import placement_of

STREAM_ID = 0  # the model runs on one stream
ELF_MAGIC = b"\x7fELF"

_holders_lock = threading.Lock()
_holders: Dict[tuple, str] = {}  # (descriptor_key, id(class)) -> holder instance id
_validated: Dict[tuple, bool] = {}  # (descriptor_key, id(class)) -> signatures checked


def _where(node: Node) -> str:
    return f"node {node.name} (op {node.type})"


def _user_frame(exc: BaseException) -> str:
    """`file:line in function` of the innermost traceback frame outside the ge package: where the
    holder's own code raised (or called into ge with bad arguments)."""
    ge_root = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep
    where = ""
    for frame in traceback.extract_tb(exc.__traceback__):
        if not os.path.abspath(frame.filename).startswith(ge_root):
            where = f"{os.path.basename(frame.filename)}:{frame.lineno} in {frame.name}"
    return where


def _one_line(exc: BaseException) -> str:
    text = f"{type(exc).__name__}: {exc}"
    if isinstance(exc, RuntimeError) and "expired" in str(exc):
        text += " (a borrowed ge.runtime/ge.custom_op object was used after the callback that received it returned)"
    where = _user_frame(exc)
    return f"{text} (at {where})" if where else text


def holder_instance_id(descriptor: OpImplDescriptor, ir_meta: Optional[dict]) -> str:
    """The process-wide holder of an op impl: signatures checked once per registered class, the
    holder re-ensured on every use (GE finalize clears the bridge's holders)."""
    key = descriptor.descriptor_key
    token = (key, id(descriptor.cls))
    with _holders_lock:
        if token not in _validated:
            _bridge.validate_op_impl_descriptor(key, ir_meta)
            _validated[token] = True
        instance_id = _holders.get(token)
        if instance_id is None:
            instance_id = _holders[token] = _bridge.new_instance_id(key)
        _bridge.create_op_impl_holder(instance_id, key)  # idempotent
        return instance_id


def reset_holders() -> None:
    """Drops all holders (GE finalize / plugin reload)."""
    with _holders_lock:
        for instance_id in _holders.values():
            _bridge.destroy_op_impl_holder(instance_id)
        _holders.clear()
        _validated.clear()


@dataclass
class CustomNode:
    node: Node
    info: OpInfo
    descriptor: OpImplDescriptor
    instance_id: str


def resolve_custom_node(node: Node, catalog: OpCatalog) -> CustomNode:
    info = catalog.node_info(node)
    if info is None:
        raise GraphCompileError(
            f"{_where(node)}: no prototype of op type {node.type} (no REG_OP in the OPP "
            "libraries and no Python register_op)"
        )
    descriptor = catalog.impl(node.type)
    if descriptor is None:
        raise GraphCompileError(
            f"{_where(node)}: no implementation registered for op type {node.type} "
            "(no @register_op_impl class in ASCEND_CUSTOM_OPP_PATH)"
        )
    if placement_of(descriptor) is None:
        raise GraphCompileError(
            f"{_where(node)}: {descriptor.class_name} has neither declare_launch_args nor "
            "execute: GE has no way to run it"
        )
    try:
        instance_id = holder_instance_id(descriptor, info.registered_ir)
    except Exception as exc:
        raise GraphCompileError(f"{_where(node)}: {_one_line(exc)}") from None
    return CustomNode(node, info, descriptor, instance_id)


def run_compile(custom: CustomNode, options: Mapping[str, str], target: CompileTarget) -> None:
    if INTERFACE_COMPILABLE not in custom.descriptor.interfaces:
        return
    ctx = OpCompileContext._create(
        node_spec(custom.node, custom.info.ir_meta), options=options, platform=target.platform
    )
    try:
        _bridge.call_compile(custom.instance_id, custom.info.registered_ir, ctx)
    except Exception as exc:
        raise GraphCompileError(f"{_where(custom.node)}: compile failed: {_one_line(exc)}") from exc


def _validate(custom: CustomNode, plan: DeclaredLaunchPlan) -> None:
    where = _where(custom.node)
    if not plan.launches:
        raise GraphCompileError(f"{where}: declare_launch_args did not call add_launch")
    n_in = len(present_input_slots(custom.node, custom.info.ir_meta))
    n_out = len(output_slots(custom.node, custom.info.ir_meta))
    for i, launch in enumerate(plan.launches):
        what = f"{where}: launch {i} ({launch.kernel_name or '<no name>'})"
        if launch.stream_id != STREAM_ID:
            raise GraphCompileError(f"{what}: stream id {launch.stream_id} is not the node's stream {STREAM_ID}")
        if not launch.kernel_name:
            raise GraphCompileError(f"{what}: empty kernel name")
        if not launch.kernel_bin:
            raise GraphCompileError(f"{what}: empty kernel binary")
        if not launch.kernel_bin.startswith(ELF_MAGIC):
            raise GraphCompileError(
                f"{what}: kernel binary is not a device binary (no ELF header; extract the "
                ".aicore_binary section with llvm-objcopy)"
            )
        if launch.block_dim <= 0:
            raise GraphCompileError(f"{what}: block_dim must be > 0, got {launch.block_dim}")
        if not launch.slots:
            raise GraphCompileError(f"{what}: no kernel arguments")
        for kind, value in launch.slots:
            limit = {"input": n_in, "output": n_out, "workspace": len(plan.workspace_sizes)}.get(kind)
            if limit is not None and not 0 <= value < limit:
                raise GraphCompileError(f"{what}: {kind} slot {value} is out of range (node has {limit} {kind}s)")


def run_declare(custom: CustomNode, memory: MemoryPlan) -> DeclaredLaunchPlan:
    node, ir_meta = custom.node, custom.info.ir_meta
    in_addrs = [memory.locations[src].logical_addr if src is not None else 0 for src in node.inputs]
    out_addrs = [memory.locations[Endpoint(node.name, i)].logical_addr for i in range(len(node.output_descs))]
    ctx = AnnotatedArgsContext._create(
        node_spec(node, ir_meta, in_addrs, out_addrs),
        stream_id=STREAM_ID,
        workspace_base=LOGICAL_FEATURE_MAP_BASE + memory.workspace_offset,
    )
    try:
        _bridge.call_declare_launch_args(custom.instance_id, custom.info.registered_ir, ctx)
        plan = ctx._take_plan()
    except Exception as exc:
        raise GraphCompileError(f"{_where(node)}: declare_launch_args failed: {_one_line(exc)}") from exc
    _validate(custom, plan)
    return plan
