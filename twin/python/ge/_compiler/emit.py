"""Emitting the OM: ModelDef (om.proto) + kernel binary partitions, serialized by twin/om."""

import hashlib
from typing import TYPE_CHECKING, Dict, List, Tuple

from ge.custom_op._args_ctx import DeclaredLaunchPlan
from ge.graph._ir import Endpoint, Node
from twin.om import om  # //twin/om:om_py, a dependency of //twin/python:ge

from .custom_optimizer import CustomNode
from .errors import GraphCompileError
from .memory import Location, MemoryPlan, tensor_bytes
from .node_spec import output_slots, present_input_slots
from .options import CompileTarget

if TYPE_CHECKING:
    from twin.om.om_pb2 import Binding, ModelDef, TensorDef


def _binding(message: "Binding", loc: Location) -> None:
    if loc.kind == "input":
        message.input = loc.index
    elif loc.kind == "output":
        message.output = loc.index
    elif loc.kind == "constant":
        message.constant.offset = loc.offset
        message.constant.size = loc.size
    else:
        message.feature_map.offset = loc.offset
        message.feature_map.size = loc.size


def _tensor_def(message: "TensorDef", name: str, desc, size: int) -> None:
    message.name = name
    message.data_type = int(desc.data_type)
    message.dims.extend(int(d) for d in desc.shape)
    message.size = size
    message.format = int(desc.format)


class _BinaryTable:
    """Identical kernel binaries are stored once."""

    def __init__(self) -> None:
        self.binaries: List[bytes] = []
        self._index: Dict[str, int] = {}

    def index_of(self, binary: bytes) -> int:
        digest = hashlib.sha256(binary).hexdigest()
        if digest not in self._index:
            self._index[digest] = len(self.binaries)
            self.binaries.append(binary)
        return self._index[digest]


def build_model_def(
    name: str, target: CompileTarget, memory: MemoryPlan, launches: List[Tuple[CustomNode, DeclaredLaunchPlan]]
) -> Tuple["ModelDef", List[bytes]]:
    model = om.ModelDef()
    model.name = name
    model.soc_version = target.soc_version
    model.npu_arch = target.npu_arch
    for node in memory.inputs:
        loc = memory.locations[Endpoint(node.name, 0)]
        _tensor_def(model.inputs.add(), node.name, node.output_descs[0], loc.size)
    for j, (ep, desc) in enumerate(memory.outputs):
        _tensor_def(model.outputs.add(), f"{ep.node}:{ep.index}", desc, tensor_bytes(desc, f"graph output {j}"))
    model.feature_map_size = memory.feature_map_size
    table = _BinaryTable()
    for custom, plan in launches:
        _kernel_tasks(model, table, custom, plan, memory)
    for source, out_index, size in memory.output_copies:
        task = model.tasks.add().memcpy
        _binding(task.src, source)
        task.dst.output = out_index
        task.size = size
    return model, table.binaries


def _kernel_tasks(model, table: _BinaryTable, custom: CustomNode, plan: DeclaredLaunchPlan, memory: MemoryPlan) -> None:
    node: Node = custom.node
    in_slots = present_input_slots(node, custom.info.ir_meta)
    out_slots = output_slots(node, custom.info.ir_meta)
    ws_offsets, cursor = [], memory.workspace_offset
    for size in plan.workspace_sizes:
        ws_offsets.append((cursor, size))
        cursor += size
    for launch in plan.launches:
        task = model.tasks.add().kernel
        task.node_name = node.name
        task.op_type = node.type
        task.kernel_binary_index = table.index_of(launch.kernel_bin)
        task.kernel_name = launch.kernel_name
        task.block_dim = launch.block_dim
        for kind, value in launch.slots:
            arg = task.args.add()
            if kind == "input":
                endpoint = node.inputs[in_slots[value]]
                assert endpoint is not None  # present_input_slots holds connected slots only
                _binding(arg, memory.locations[endpoint])
            elif kind == "output":
                _binding(arg, memory.locations[Endpoint(node.name, out_slots[value])])
            elif kind == "workspace":
                offset, size = ws_offsets[value]
                arg.feature_map.offset, arg.feature_map.size = offset, size
            else:
                arg.scalar = value


def serialize(model, binaries: List[bytes], constants: bytes = b"") -> bytes:
    try:
        return om.serialize(model, binaries, constants)
    except ValueError as exc:  # om.OmFormatError: the model the compiler built is inconsistent
        raise GraphCompileError(f"model {model.name}: {exc}") from None
