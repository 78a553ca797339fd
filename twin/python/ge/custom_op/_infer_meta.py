"""Calling a register_op infer_meta function for one node."""

from typing import Any, List, Tuple

from ge.runtime import TensorDesc

from ._infer_meta_ctx import InferMetaContext
from ._ir_types import InputType, OutputType
from ._signature import runtime_attr_spec
from .proto import get_registered_op_proto_by_op_type

InferredOutput = Tuple[List[int], List[int], int]  # (origin dims, storage dims, dtype value)


def _arguments(ctx: InferMetaContext, ir_meta: dict):
    args: List[Any] = []  # a TensorDesc per input, a list of them per dynamic input
    for ir_index, item in enumerate(ir_meta["inputs"]):
        kind = item["kind"]
        if kind == InputType.REQUIRED:
            args.append(ctx.get_required_input_tensor(ir_index))
        elif kind == InputType.OPTIONAL:
            args.append(ctx.get_optional_input_tensor(ir_index))
        elif kind == InputType.DYNAMIC:
            args.append(
                [ctx.get_dynamic_input_tensor(ir_index, rel) for rel in range(ctx.get_dynamic_input_num(ir_index))]
            )
        else:
            raise ValueError(f"unsupported custom op IR input kind: {kind}, ir index: {ir_index}")
    kwargs = {}
    if ir_meta["attrs"]:
        attrs = ctx.get_attrs()
        for index, item in enumerate(ir_meta["attrs"]):
            getter, _ = runtime_attr_spec(item["type"], index)
            kwargs[item["name"]] = getattr(attrs, getter)(index)
    return args, kwargs


def _as_entry(value, what: str) -> InferredOutput:
    if not isinstance(value, TensorDesc):
        raise TypeError(f"infer_meta must return TensorDesc for {what}, got {type(value).__name__}")
    shape = value.shape
    return shape.origin_shape.dims, shape.storage_shape.dims, int(value.data_type)


def _flatten(result, ctx: InferMetaContext, ir_meta: dict, op_type: str) -> List[InferredOutput]:
    outputs = ir_meta["outputs"]
    if len(outputs) == 1:
        per_output = [result]
    elif isinstance(result, (list, tuple)) and len(result) == len(outputs):
        per_output = list(result)
    else:
        raise TypeError(f"infer_meta of {op_type} must return a list/tuple with {len(outputs)} entries")
    flat: List[InferredOutput] = []
    for ir_index, (item, value) in enumerate(zip(outputs, per_output)):
        name = item["name"]
        if item["kind"] == OutputType.DYNAMIC:
            if not isinstance(value, (list, tuple)):
                raise TypeError(f"infer_meta of {op_type} must return a list for dynamic output {name}")
            expected = ctx.get_dynamic_output_num(ir_index)
            if len(value) != expected:
                raise TypeError(
                    f"infer_meta of {op_type} returned {len(value)} descs for dynamic output "
                    f"{name}, node has {expected} instances"
                )
            flat.extend(_as_entry(v, f"output {name}") for v in value)
        else:
            flat.append(_as_entry(value, f"output {name}"))
    return flat


def call_infer_meta(op_type: str, ir_meta: dict, ctx: InferMetaContext) -> List[InferredOutput]:
    try:
        descriptor = get_registered_op_proto_by_op_type(op_type)
        if descriptor is None:
            raise KeyError(f"python op proto not found: {op_type}")
        args, kwargs = _arguments(ctx, ir_meta)
        result = descriptor.func(*args, **kwargs)
        return _flatten(result, ctx, ir_meta, op_type)
    finally:
        ctx._invalidate()
