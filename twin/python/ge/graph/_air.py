"""AIR (de)serialization of the graph IR, schema twin/graph/proto/air.proto (format_version 1).

The generated protobuf module is generated at build time (``//twin/graph:air_proto_py``, imported
as ``twin.graph.proto.air_pb2``; the install tree carries it under python/site-packages).
"""

import importlib
from typing import Dict, List, Set

from ._ir import AttrValue, Endpoint, GraphIR, Node, TensorDescIR, TensorValue
from .types import AttrValueType, DataType, Format

MAGIC = "ge.twin.air"
FORMAT_VERSION = 1
END_MARKER = 0x52494121
PRODUCER = "ge_twin python (ge.graph.Graph.save_to_air)"
_KIND_TO_INPUT = {"required": 0, "optional": 1, "dynamic": 2}
_KIND_TO_OUTPUT = {"required": 0, "dynamic": 1}

_pb2 = None


def air_pb2():
    global _pb2
    if _pb2 is None:
        try:
            import google.protobuf  # noqa: F401
        except ImportError:
            raise RuntimeError("the Python protobuf runtime (protobuf==4.21.12) is required for AIR files") from None
        try:
            _pb2 = importlib.import_module("twin.graph.proto.air_pb2")
        except ImportError as exc:
            raise RuntimeError(
                f"the AIR schema module twin.graph.proto.air_pb2 is not importable ({exc}); "
                "it is part of the build (//twin/graph:air_proto_py) and of the install tree's "
                "python/site-packages"
            ) from None
    return _pb2


# -- writing ----------------------------------------------------------------------------------------
def _topological(ir: GraphIR) -> List[Node]:
    remaining: Dict[str, Set[str]] = {name: set() for name in ir.nodes}
    for node in ir.nodes.values():
        for src in node.inputs:
            if src is not None:
                remaining[node.name].add(src.node)
        remaining[node.name].update(node.control_inputs)
    ordered: List[Node] = []
    done: Set[str] = set()
    while remaining:
        ready = [n for n in ir.nodes if n in remaining and remaining[n] <= done]  # stable: creation order
        if not ready:
            raise ValueError(f"graph {ir.name} has a cycle through nodes {sorted(remaining)}")
        for name in ready:
            ordered.append(ir.nodes[name])
            done.add(name)
            del remaining[name]
    return ordered


def _fill_desc(msg, desc: TensorDescIR) -> None:
    if desc.attrs:
        raise ValueError("tensor attrs cannot be stored in AIR format_version 1")
    msg.dims.extend(desc.shape)
    msg.dtype = int(desc.data_type)
    msg.format = int(desc.format)
    msg.origin_dims.extend(desc.origin_shape)
    msg.origin_format = int(desc.origin_format)


def fill_attr(msg, attr: AttrValue, where: str) -> None:
    """Writes a typed attribute value into an air.proto AttrValue (AIR files and the graph C ABI)."""
    vt, value = AttrValueType(attr.type), attr.value
    scalar = {
        AttrValueType.VT_INT: "i",
        AttrValueType.VT_FLOAT: "f",
        AttrValueType.VT_BOOL: "b",
        AttrValueType.VT_STRING: "s",
        AttrValueType.VT_DATA_TYPE: "dt",
    }
    lists = {
        AttrValueType.VT_LIST_INT: "list_i",
        AttrValueType.VT_LIST_FLOAT: "list_f",
        AttrValueType.VT_LIST_BOOL: "list_b",
        AttrValueType.VT_LIST_STRING: "list_s",
        AttrValueType.VT_LIST_DATA_TYPE: "list_dt",
    }
    if vt in scalar:
        setattr(msg, scalar[vt], int(value) if vt == AttrValueType.VT_DATA_TYPE else value)
    elif vt in lists:
        getattr(msg, lists[vt]).values.extend(int(v) if vt == AttrValueType.VT_LIST_DATA_TYPE else v for v in value)
    elif vt == AttrValueType.VT_LIST_LIST_INT:
        msg.list_list_i.SetInParent()
        for row in value:
            msg.list_list_i.values.add().values.extend(row)
    elif vt == AttrValueType.VT_TENSOR:
        if not isinstance(value, TensorValue):
            raise ValueError(f"{where}: VT_TENSOR attr value must be a TensorValue")
        _fill_desc(msg.t.desc, value.desc)
        msg.t.data = value.data
    else:
        raise ValueError(f"{where}: attr type {vt.name} cannot be stored in AIR format_version 1")


def _fill_node(msg, node: Node) -> None:
    if node.control_inputs:
        raise ValueError(f"node {node.name}: control dependencies cannot be stored in AIR format_version 1")
    msg.name, msg.type = node.name, node.type
    slot = 0
    for ir_index, (ir_name, kind, count) in enumerate(node.ir_inputs):
        msg.ir_inputs.add(name=ir_name, kind=_KIND_TO_INPUT[kind])
        if kind == "optional" and count == 0:  # absent optional input: one unconnected instance
            msg.inputs.add(name=ir_name, ir_index=ir_index)
            continue
        for _ in range(count):
            item = msg.inputs.add(name=node.input_names[slot], ir_index=ir_index)
            src = node.inputs[slot]
            if src is not None:
                item.src_node, item.src_index = src.node, src.index
            _fill_desc(item.desc, node.input_descs[slot])
            slot += 1
    if slot != len(node.inputs):
        raise ValueError(f"node {node.name}: ir_inputs describe {slot} instances, node has {len(node.inputs)}")
    slot = 0
    for ir_index, (ir_name, kind, count) in enumerate(node.ir_outputs):
        msg.ir_outputs.add(name=ir_name, kind=_KIND_TO_OUTPUT[kind])
        for _ in range(count):
            item = msg.outputs.add(name=node.output_names[slot], ir_index=ir_index)
            _fill_desc(item.desc, node.output_descs[slot])
            slot += 1
    if slot != len(node.output_descs):
        raise ValueError(f"node {node.name}: ir_outputs describe {slot} instances, node has {len(node.output_descs)}")
    for name in sorted(node.attrs):
        fill_attr(msg.attrs.add(name=name).value, node.attrs[name], f"node {node.name} attr {name}")


def serialize(ir: GraphIR) -> bytes:
    pb = air_pb2()
    ir.validate()
    if ir.attrs:
        raise ValueError("graph attrs cannot be stored in AIR format_version 1")
    model = pb.Model(magic=MAGIC, format_version=FORMAT_VERSION, producer=PRODUCER, end_marker=END_MARKER)
    model.graph.name = ir.name
    for node in _topological(ir):
        _fill_node(model.graph.nodes.add(), node)
    model.graph.input_nodes.extend(n.name for n in ir.input_nodes())
    for out in ir.outputs:
        model.graph.outputs.add(node=out.node, index=out.index)
    return model.SerializeToString()


# -- reading ----------------------------------------------------------------------------------------
def _enum(enum_type, value: int, where: str):
    try:
        return enum_type(value)
    except ValueError:
        raise ValueError(f"{where}: {value} is not a valid {enum_type.__name__}") from None


def _read_desc(msg, where: str) -> TensorDescIR:
    return TensorDescIR(
        _enum(DataType, msg.dtype, f"{where} dtype"),
        _enum(Format, msg.format, f"{where} format"),
        list(msg.dims),
        _enum(Format, msg.origin_format, f"{where} origin_format"),
        list(msg.origin_dims),
    )


def _read_attr(msg, where: str) -> AttrValue:
    which = msg.WhichOneof("value")
    if which is None:
        raise ValueError(f"{where}: attr has no value")
    simple = {
        "i": AttrValueType.VT_INT,
        "f": AttrValueType.VT_FLOAT,
        "b": AttrValueType.VT_BOOL,
        "s": AttrValueType.VT_STRING,
    }
    if which in simple:
        return AttrValue(simple[which], getattr(msg, which))
    if which == "dt":
        return AttrValue(AttrValueType.VT_DATA_TYPE, _enum(DataType, msg.dt, where))
    lists = {
        "list_i": AttrValueType.VT_LIST_INT,
        "list_f": AttrValueType.VT_LIST_FLOAT,
        "list_b": AttrValueType.VT_LIST_BOOL,
        "list_s": AttrValueType.VT_LIST_STRING,
    }
    if which in lists:
        return AttrValue(lists[which], list(getattr(msg, which).values))
    if which == "list_dt":
        return AttrValue(AttrValueType.VT_LIST_DATA_TYPE, [_enum(DataType, v, where) for v in msg.list_dt.values])
    if which == "list_list_i":
        return AttrValue(AttrValueType.VT_LIST_LIST_INT, [list(r.values) for r in msg.list_list_i.values])
    return AttrValue(AttrValueType.VT_TENSOR, TensorValue(_read_desc(msg.t.desc, where), bytes(msg.t.data)))


def _read_node(msg) -> Node:
    node = Node(name=msg.name, type=msg.type)
    if not msg.name or not msg.type:
        raise ValueError("a node has an empty name or type")
    kinds_in = {v: k for k, v in _KIND_TO_INPUT.items()}
    kinds_out = {v: k for k, v in _KIND_TO_OUTPUT.items()}
    counts = [0] * len(msg.ir_inputs)
    for item in msg.inputs:
        if item.ir_index >= len(msg.ir_inputs):
            raise ValueError(f"node {msg.name}: input {item.name} has ir_index {item.ir_index} out of range")
        kind = kinds_in.get(msg.ir_inputs[item.ir_index].kind)
        if kind == "optional" and not item.src_node:
            continue  # absent optional input
        counts[item.ir_index] += 1
        node.input_names.append(item.name)
        node.input_descs.append(_read_desc(item.desc, f"node {msg.name} input {item.name}"))
        node.inputs.append(Endpoint(item.src_node, item.src_index) if item.src_node else None)
    node.ir_inputs = [(ir.name, kinds_in.get(ir.kind, "required"), counts[i]) for i, ir in enumerate(msg.ir_inputs)]
    counts = [0] * len(msg.ir_outputs)
    for item in msg.outputs:
        if item.ir_index >= len(msg.ir_outputs):
            raise ValueError(f"node {msg.name}: output {item.name} has ir_index {item.ir_index} out of range")
        counts[item.ir_index] += 1
        node.output_names.append(item.name)
        node.output_descs.append(_read_desc(item.desc, f"node {msg.name} output {item.name}"))
    node.ir_outputs = [(ir.name, kinds_out.get(ir.kind, "required"), counts[i]) for i, ir in enumerate(msg.ir_outputs)]
    for attr in msg.attrs:
        if attr.name in node.attrs:
            raise ValueError(f"node {msg.name}: duplicate attr {attr.name}")
        node.attrs[attr.name] = _read_attr(attr.value, f"node {msg.name} attr {attr.name}")
    return node


def parse(payload: bytes) -> GraphIR:
    pb = air_pb2()
    from google.protobuf.message import DecodeError

    model = pb.Model()
    try:
        model.ParseFromString(payload)
    except DecodeError as exc:
        raise ValueError(f"not an AIR file (protobuf decode failed: {exc})") from None
    if model.magic != MAGIC:
        raise ValueError(f"not an AIR file (magic {model.magic!r}, expected {MAGIC!r})")
    if model.format_version > FORMAT_VERSION:
        raise ValueError(f"AIR format_version {model.format_version} is newer than supported {FORMAT_VERSION}")
    if model.end_marker != END_MARKER:
        raise ValueError("AIR file is truncated (end marker missing)")
    ir = GraphIR(name=model.graph.name or "graph")
    for msg in model.graph.nodes:
        ir.add_node(_read_node(msg))
    ir.outputs = [Endpoint(o.node, o.index) for o in model.graph.outputs]
    ir.validate()
    expected_inputs = [n.name for n in ir.input_nodes()]
    if list(model.graph.input_nodes) != expected_inputs:
        raise ValueError(
            f"AIR input_nodes {list(model.graph.input_nodes)} do not match the Data nodes "
            f"ordered by index {expected_inputs}"
        )
    return ir
