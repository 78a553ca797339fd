"""Byte size of a tensor description."""

from ge.graph import _dtype
from ge.graph._ir import TensorDescIR

from .errors import GraphCompileError


def tensor_bytes(desc: TensorDescIR, what: str) -> int:
    try:
        bits = _dtype.bits_of(desc.data_type)
    except ValueError as exc:
        raise GraphCompileError(f"{what}: {exc}") from None
    if any(dim < 0 for dim in desc.shape):
        raise GraphCompileError(
            f"{what}: shape {list(desc.shape)} has unknown dims, so its size is not known when the graph is compiled"
        )
    count = 1
    for dim in desc.shape:
        count *= dim
    return (count * bits + 7) // 8
