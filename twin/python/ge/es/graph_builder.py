"""GraphBuilder: eager-style graph construction (reference §3.1), building ge.graph IR directly."""

import contextlib
import math
import threading
from enum import Enum
from typing import Dict, List, Optional, Sequence, Tuple, Union

import numpy as np

from ge.graph import Graph
from ge.graph._ir import AttrValue, Endpoint, GraphIR, Node, TensorDescIR, TensorValue
from ge.graph.types import AttrValueType, DataType, Format

from .tensor_holder import TensorHolder

_scope = threading.local()  # attr_scope / control_dependency_scope stacks, per thread


class InputType(Enum):
    DATA = "Data"
    REF_DATA = "RefData"
    AIPP_DATA = "AippData"
    ANY_DATA = "AnyData"


def _typed_attr(value) -> AttrValue:
    """Python value -> typed attr (bool before int: bool is an int subclass)."""
    if isinstance(value, AttrValue):
        return value
    if isinstance(value, DataType):
        return AttrValue(AttrValueType.VT_DATA_TYPE, value)
    for py_type, vt in (
        (bool, AttrValueType.VT_BOOL),
        (int, AttrValueType.VT_INT),
        (float, AttrValueType.VT_FLOAT),
        (str, AttrValueType.VT_STRING),
    ):
        if isinstance(value, py_type):
            return AttrValue(vt, value)
    if isinstance(value, list):
        if value and all(isinstance(v, list) for v in value):
            return AttrValue(AttrValueType.VT_LIST_LIST_INT, [[int(x) for x in row] for row in value])
        for item_type, vt in (
            (DataType, AttrValueType.VT_LIST_DATA_TYPE),  # DataType first: it is an int
            (bool, AttrValueType.VT_LIST_BOOL),
            (int, AttrValueType.VT_LIST_INT),
            (float, AttrValueType.VT_LIST_FLOAT),
            (str, AttrValueType.VT_LIST_STRING),
        ):
            if all(isinstance(v, item_type) for v in value):
                return AttrValue(vt, list(value))
    raise TypeError(f"unsupported attr value {value!r}")


def _check_dims(shape, what: str = "Shape") -> List[int]:
    if not isinstance(shape, list) or not all(isinstance(d, int) and not isinstance(d, bool) for d in shape):
        raise TypeError(f"{what} must be a list of integers")
    return list(shape)


class GraphBuilder:
    def __init__(self, name: Optional[str] = None) -> None:
        if name is not None and not isinstance(name, str):
            raise TypeError("Graph name must be a string")
        self._name = name or "graph"
        self._ir = GraphIR(name=self._name)
        self._outputs: Dict[int, Endpoint] = {}
        self._name_counters: Dict[str, int] = {}
        self._is_built = False

    def __copy__(self):
        raise RuntimeError("GraphBuilder does not support copy")

    def __deepcopy__(self, memodict):
        raise RuntimeError("GraphBuilder does not support deepcopy")

    @property
    def name(self) -> str:
        return self._name

    def _check_usable(self, operation: str) -> None:
        if self._is_built:
            raise RuntimeError(
                f"Cannot {operation}: GraphBuilder has already been built. "
                "Create a new GraphBuilder to build another graph."
            )

    def _unique_name(self, base: str) -> str:
        while True:
            count = self._name_counters.get(base, 0)
            self._name_counters[base] = count + 1
            candidate = f"{base}_{count}"
            if candidate not in self._ir.nodes:
                return candidate

    def _holder_of(self, value: TensorHolder, what: str) -> TensorHolder:
        if not isinstance(value, TensorHolder):
            raise TypeError(f"{what} must be a TensorHolder, got {type(value).__name__}")
        if value._builder is not self:
            raise ValueError(f"{what} belongs to GraphBuilder '{value._builder.name}', not '{self.name}'")
        return value

    def _finish_node(self, node: Node) -> List[TensorHolder]:
        """Add node, apply scope attrs/control deps, return one holder per output slot."""
        for key, value in getattr(_scope, "attrs", {}).items():
            node.attrs[key] = _typed_attr(value)
        for dep in getattr(_scope, "control", []):
            if dep._builder is not self:
                raise RuntimeError(
                    f"Failed to add control dependency for nodes in graph {self.name}: "
                    f"control_dependency_scope tensor {dep.name} belongs to GraphBuilder "
                    f"'{dep._builder.name}'"
                )
            if dep._node not in node.control_inputs:
                node.control_inputs.append(dep._node)
        self._ir.add_node(node)
        return [TensorHolder._create_from(self, node.name, i) for i in range(len(node.output_descs))]

    # -- hook used by generated ES wrappers (gen_esb) and TensorHolder arithmetic -------------------
    def _add_op_node(
        self,
        op_type: str,
        *,
        inputs: Sequence[Tuple[str, str, object]],
        attrs: Sequence[Tuple[str, object]],
        outputs: Sequence[Tuple[str, str, int]],
        name: Optional[str] = None,
    ) -> List[List[TensorHolder]]:
        """Add one ``op_type`` node.

        inputs : (ir name, "required"|"optional"|"dynamic", TensorHolder | None | list[TensorHolder])
        attrs  : (ir name, value or AttrValue) in IR order; value None = attr not set (IR default)
        outputs: (ir name, "required"|"dynamic", instance count)
        Returns, per IR output, the list of holders of its instances.
        """
        self._check_usable(f"create {op_type} node")
        node = Node(name=name or self._unique_name(op_type), type=op_type)
        for ir_name, kind, value in inputs:
            if kind == "dynamic":
                if not isinstance(value, (list, tuple)):
                    raise TypeError(f"{op_type} input {ir_name} is dynamic and takes a list of TensorHolder")
                instances = [
                    (f"{ir_name}{i}", self._holder_of(v, f"{op_type} input {ir_name}[{i}]"))
                    for i, v in enumerate(value)
                ]
            elif value is None:
                if kind != "optional":
                    raise TypeError(f"{op_type} input {ir_name} is required")
                instances = []
            else:
                instances = [(ir_name, self._holder_of(value, f"{op_type} input {ir_name}"))]  # type: ignore[arg-type]  # checked there
            node.ir_inputs.append((ir_name, kind, len(instances)))
            for slot_name, holder in instances:
                node.input_names.append(slot_name)
                node.input_descs.append(self._ir.nodes[holder._node].output_descs[holder._index].copy())
                node.inputs.append(Endpoint(holder._node, holder._index))
        for attr_name, value in attrs:
            if value is not None:
                node.attrs[attr_name] = _typed_attr(value)
        for ir_name, kind, count in outputs:
            if isinstance(count, bool) or not isinstance(count, int) or count < 0:
                raise TypeError(f"{op_type} output {ir_name} count must be a non-negative int")
            slot_names = [f"{ir_name}{i}" for i in range(count)] if kind == "dynamic" else [ir_name]
            node.ir_outputs.append((ir_name, kind, len(slot_names)))
            for slot_name in slot_names:
                node.output_names.append(slot_name)
                node.output_descs.append(TensorDescIR())
        holders = self._finish_node(node)
        grouped, start = [], 0
        for _, _, count in node.ir_outputs:
            grouped.append(holders[start : start + count])
            start += count
        return grouped

    def _to_holder(self, value, like: Optional[TensorHolder] = None) -> TensorHolder:
        """TensorLike (int, float, nested lists of them) -> Const node; holders pass through."""
        if isinstance(value, TensorHolder):
            return self._holder_of(value, "operand")
        array = np.array(value)
        if array.dtype == np.bool_ or array.dtype.kind not in "if":
            raise TypeError(f"cannot convert {value!r} to a tensor (expected int, float or nested lists)")
        if array.dtype.kind == "i":
            return self._create_const(array.astype(np.int64), DataType.DT_INT64)
        return self._create_const(array.astype(np.float32), DataType.DT_FLOAT)

    # -- graph inputs --------------------------------------------------------------------------------
    def create_input(
        self,
        index: int,
        *,
        name: Optional[str] = None,
        type_str: InputType = InputType.DATA,
        data_type: DataType = DataType.DT_FLOAT,
        format: Format = Format.FORMAT_ND,
        shape: Optional[List[int]] = None,
    ) -> TensorHolder:
        self._check_usable("create input")
        if isinstance(index, bool) or not isinstance(index, int):
            raise TypeError("Input index must be an integer")
        dims = [] if shape is None else _check_dims(shape)
        if not isinstance(type_str, InputType):
            raise TypeError("type_str must be an InputType")
        if not isinstance(data_type, DataType):
            raise TypeError("Data type must be a DataType")
        if not isinstance(format, Format):
            raise TypeError("Format must be a Format")
        node_name = name or f"input_{index}"
        if node_name in self._ir.nodes:
            raise RuntimeError(f"Failed to create input: node name {node_name} already exists")
        desc = TensorDescIR(data_type, format, dims)
        node = Node(
            name=node_name,
            type=type_str.value,
            input_names=["x"],
            input_descs=[desc.copy()],
            inputs=[None],
            output_names=["y"],
            output_descs=[desc],
            attrs={"index": AttrValue(AttrValueType.VT_INT, index)},
            ir_inputs=[("x", "required", 1)],
            ir_outputs=[("y", "required", 1)],
        )
        return self._finish_node(node)[0]

    def create_inputs(self, num: int, start_index: int = 0) -> List[TensorHolder]:
        self._check_usable("create inputs")
        if isinstance(num, bool) or not isinstance(num, int) or num <= 0:
            raise TypeError("Number of inputs must be a positive integer")
        if isinstance(start_index, bool) or not isinstance(start_index, int) or start_index < 0:
            raise TypeError("Start index must be a non-negative integer")
        return [self.create_input(i) for i in range(start_index, start_index + num)]

    def create_variable(self, index: int, name: str) -> TensorHolder:
        self._check_usable("create variable")
        if isinstance(index, bool) or not isinstance(index, int):
            raise TypeError("Variable index must be an integer")
        if not isinstance(name, str) or not name:
            raise TypeError("Variable name must be a non-empty string")
        node = Node(
            name=name,
            type="Variable",
            output_names=["y"],
            output_descs=[TensorDescIR()],
            attrs={"index": AttrValue(AttrValueType.VT_INT, index)},
            ir_outputs=[("y", "required", 1)],
        )
        if name in self._ir.nodes:
            raise RuntimeError(f"Failed to create variable: node name {name} already exists")
        return self._finish_node(node)[0]

    # -- constants -------------------------------------------------------------------------------------
    def _create_const(self, array: np.ndarray, data_type: DataType) -> TensorHolder:
        self._check_usable("create constant")
        desc = TensorDescIR(data_type, Format.FORMAT_ND, [int(d) for d in array.shape])
        value = TensorValue(desc.copy(), np.ascontiguousarray(array).astype(array.dtype.newbyteorder("<")).tobytes())
        node = Node(
            name=self._unique_name("Const"),
            type="Const",
            output_names=["y"],
            output_descs=[desc],
            attrs={"value": AttrValue(AttrValueType.VT_TENSOR, value)},
            ir_outputs=[("y", "required", 1)],
        )
        return self._finish_node(node)[0]

    def _const(self, value, shape, np_type, data_type: DataType, is_float: bool) -> TensorHolder:
        self._check_usable("create constant")
        kinds = (int, float) if is_float else (int,)
        kind_text = "a float or list of floats" if is_float else "an integer or list of integers"

        def ok(v) -> bool:
            return isinstance(v, kinds) and not isinstance(v, bool)

        if ok(value):
            values, dims = [value], ([] if shape is None else _check_dims(shape))
        elif isinstance(value, list):
            if not all(ok(v) for v in value):
                raise TypeError(f"Value must be {kind_text}")
            values, dims = value, ([len(value)] if shape is None else _check_dims(shape))
        else:
            raise TypeError(f"Value must be {kind_text}")
        expected = math.prod(dims)
        if len(values) != expected:
            raise ValueError(f"Value count ({len(values)}) doesn't match shape {dims} (expected {expected} elements)")
        info = None if is_float else np.iinfo(np_type)
        if info is not None and any(v < info.min or v > info.max for v in values):
            raise ValueError(f"Value out of range for {data_type.name}")
        return self._create_const(np.array(values, dtype=np_type).reshape(dims), data_type)

    def create_const_int64(self, value, shape: Optional[List[int]] = None) -> TensorHolder:
        return self._const(value, shape, np.int64, DataType.DT_INT64, False)

    def create_const_int32(self, value, shape: Optional[List[int]] = None) -> TensorHolder:
        return self._const(value, shape, np.int32, DataType.DT_INT32, False)

    def create_const_uint64(self, value, shape: Optional[List[int]] = None) -> TensorHolder:
        return self._const(value, shape, np.uint64, DataType.DT_UINT64, False)

    def create_const_uint32(self, value, shape: Optional[List[int]] = None) -> TensorHolder:
        return self._const(value, shape, np.uint32, DataType.DT_UINT32, False)

    def create_const_float(self, value, shape: Optional[List[int]] = None) -> TensorHolder:
        return self._const(value, shape, np.float32, DataType.DT_FLOAT, True)

    def create_vector_int64(self, value: List[int]) -> TensorHolder:
        if not isinstance(value, list):
            raise TypeError("Value must be a list of integers")
        return self._const(value, [len(value)], np.int64, DataType.DT_INT64, False)

    def create_scalar_int64(self, value: int) -> TensorHolder:
        return self._const(value, [], np.int64, DataType.DT_INT64, False)

    def create_scalar_int32(self, value: int) -> TensorHolder:
        return self._const(value, [], np.int32, DataType.DT_INT32, False)

    def create_scalar_uint64(self, value: int) -> TensorHolder:
        return self._const(value, [], np.uint64, DataType.DT_UINT64, False)

    def create_scalar_uint32(self, value: int) -> TensorHolder:
        return self._const(value, [], np.uint32, DataType.DT_UINT32, False)

    def create_scalar_float(self, value: float) -> TensorHolder:
        return self._const(value, [], np.float32, DataType.DT_FLOAT, True)

    # -- outputs, attrs, dependencies ------------------------------------------------------------------
    def set_graph_output(self, tensor: TensorHolder, output_index: int) -> None:
        self._check_usable("set graph output")
        holder = self._holder_of(tensor, "tensor")
        if isinstance(output_index, bool) or not isinstance(output_index, int) or output_index < 0:
            raise TypeError("Output index must be a non-negative integer")
        self._outputs[output_index] = Endpoint(holder._node, holder._index)

    def _set_attr(self, target: Dict[str, AttrValue], name: str, value, vt: AttrValueType, py_type) -> None:
        if not isinstance(name, str) or not name:
            raise TypeError("Attr name must be a non-empty string")
        if not isinstance(value, py_type) or (py_type is int and isinstance(value, bool)):
            raise TypeError(f"Attr value must be {py_type.__name__}")
        target[name] = AttrValue(vt, value)

    def set_graph_attr_int64(self, name: str, value: int) -> None:
        self._check_usable("set graph attr")
        self._set_attr(self._ir.attrs, name, value, AttrValueType.VT_INT, int)

    def set_graph_attr_string(self, name: str, value: str) -> None:
        self._check_usable("set graph attr")
        self._set_attr(self._ir.attrs, name, value, AttrValueType.VT_STRING, str)

    def set_graph_attr_bool(self, name: str, value: bool) -> None:
        self._check_usable("set graph attr")
        self._set_attr(self._ir.attrs, name, value, AttrValueType.VT_BOOL, bool)

    def _tensor_attrs(self, tensor: TensorHolder) -> Dict[str, AttrValue]:
        holder = self._holder_of(tensor, "tensor")
        return self._ir.nodes[holder._node].output_descs[holder._index].attrs

    def set_tensor_attr_int64(self, tensor: TensorHolder, name: str, value: int) -> None:
        self._check_usable("set tensor attr")
        self._set_attr(self._tensor_attrs(tensor), name, value, AttrValueType.VT_INT, int)

    def set_tensor_attr_string(self, tensor: TensorHolder, name: str, value: str) -> None:
        self._check_usable("set tensor attr")
        self._set_attr(self._tensor_attrs(tensor), name, value, AttrValueType.VT_STRING, str)

    def set_tensor_attr_bool(self, tensor: TensorHolder, name: str, value: bool) -> None:
        self._check_usable("set tensor attr")
        self._set_attr(self._tensor_attrs(tensor), name, value, AttrValueType.VT_BOOL, bool)

    def _node_attrs(self, tensor: TensorHolder) -> Dict[str, AttrValue]:
        return self._ir.nodes[self._holder_of(tensor, "tensor")._node].attrs

    def set_node_attr_int64(self, tensor: TensorHolder, name: str, value: int) -> None:
        self._check_usable("set node attr")
        self._set_attr(self._node_attrs(tensor), name, value, AttrValueType.VT_INT, int)

    def set_node_attr_string(self, tensor: TensorHolder, name: str, value: str) -> None:
        self._check_usable("set node attr")
        self._set_attr(self._node_attrs(tensor), name, value, AttrValueType.VT_STRING, str)

    def set_node_attr_bool(self, tensor: TensorHolder, name: str, value: bool) -> None:
        self._check_usable("set node attr")
        self._set_attr(self._node_attrs(tensor), name, value, AttrValueType.VT_BOOL, bool)

    def add_control_dependency(self, dst: TensorHolder, src_tensors: List[TensorHolder]) -> None:
        self._check_usable("add control dependency")
        target = self._ir.nodes[self._holder_of(dst, "dst")._node]
        if not isinstance(src_tensors, list):
            raise TypeError("src_tensors must be a list of TensorHolder")
        for src in src_tensors:
            name = self._holder_of(src, "src tensor")._node
            if name not in target.control_inputs:
                target.control_inputs.append(name)

    # The scopes are module-level in CANN (ge.es.graph_builder.attr_scope); these methods are the
    # same scopes, kept for code that calls them on a builder.
    def attr_scope(self, attrs: dict):
        return attr_scope(attrs)

    def control_dependency_scope(self, tensors: List[TensorHolder]):
        for tensor in tensors if isinstance(tensors, list) else []:
            self._holder_of(tensor, "control dependency")
        return control_dependency_scope(tensors)

    def build_and_reset(self, outputs: Optional[List[TensorHolder]] = None) -> Graph:
        self._check_usable("build graph")
        if outputs is not None:
            if not isinstance(outputs, list):
                raise TypeError("outputs must be a list of TensorHolder")
            for index, tensor in enumerate(outputs):
                self.set_graph_output(tensor, index)
        missing = [i for i in range(len(self._outputs)) if i not in self._outputs]
        if missing:
            raise RuntimeError(f"Failed to build graph {self.name}: graph output indices {missing} are not set")
        self._ir.outputs = [self._outputs[i] for i in range(len(self._outputs))]
        self._ir.validate()
        graph = Graph._from_ir(self._ir)
        self._is_built = True
        self._ir = GraphIR(name=self._name)  # "reset": nothing of the built graph stays shared
        return graph


@contextlib.contextmanager
def attr_scope(attr_maps: dict):
    """Every node created inside the scope (by any GraphBuilder of this thread: inputs, constants,
    ops) gets ``attr_maps`` as node attrs; nested scopes add to the outer one's, inner values win."""
    if not isinstance(attr_maps, dict):
        raise TypeError("attr_maps must be a dict")
    for key, value in attr_maps.items():
        if not isinstance(key, str):
            raise TypeError("attr names must be strings")
        _typed_attr(value)
    outer = getattr(_scope, "attrs", {})
    _scope.attrs = {**outer, **attr_maps}
    try:
        yield
    finally:
        _scope.attrs = outer


@contextlib.contextmanager
def control_dependency_scope(tensors: List[TensorHolder]):
    """Every node created inside the scope gets a control edge from the producer of each tensor
    in ``tensors`` (and of the outer scopes')."""
    if not isinstance(tensors, list) or not all(isinstance(t, TensorHolder) for t in tensors):
        raise TypeError("tensors must be a list of TensorHolder")
    outer = getattr(_scope, "control", [])
    _scope.control = outer + tensors
    try:
        yield
    finally:
        _scope.control = outer


TensorLike = Union[int, float, List]
