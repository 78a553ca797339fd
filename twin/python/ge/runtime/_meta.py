"""Plain tensor metadata records behind ge.runtime views.

The graph compiler describes each node tensor with a ``TensorMeta``; callbacks see it through
borrowed ``ge.runtime.Tensor`` views. Shape and format views read and write these records'
attributes directly, like the pybind views over ``gert::Tensor``.
"""

from dataclasses import dataclass, field
from enum import IntEnum
from typing import List, Optional, Sequence

from ge.graph.types import DataType, Format

MAX_DIM_NUM = 8  # gert::Shape::kMaxDimNum (value not in the reference; CANN headers use 8)


class TensorPlacement(IntEnum):
    """gert::TensorPlacement."""

    ON_DEVICE_HBM = 0
    ON_HOST = 1
    FOLLOWING = 2
    ON_DEVICE_P2P = 3
    END = 4


@dataclass(init=False)
class TensorMeta:
    """One node tensor: dims, formats, dtype and (logical or real) address."""

    data_type: DataType
    storage_dims: List[int]
    origin_dims: List[int]
    storage_format: Format
    origin_format: Format
    addr: int
    placement: int
    expand_dims_type: int  # gert bit field: high 8 bits length, low 56 bits mask

    def __init__(
        self,
        data_type: int,
        storage_dims: Sequence[int],
        origin_dims: Optional[Sequence[int]] = None,  # None: same as storage_dims
        storage_format: int = Format.FORMAT_ND,
        origin_format: Optional[int] = None,  # None: same as storage_format
        addr: int = 0,
        placement: int = TensorPlacement.ON_DEVICE_HBM,
        expand_dims_type: int = 0,
    ) -> None:
        self.data_type = DataType(int(data_type))
        self.storage_dims = [int(d) for d in storage_dims]
        if len(self.storage_dims) > MAX_DIM_NUM:
            raise ValueError(f"tensor rank {len(self.storage_dims)} exceeds {MAX_DIM_NUM}")
        self.origin_dims = list(self.storage_dims) if origin_dims is None else [int(d) for d in origin_dims]
        self.storage_format = Format(int(storage_format))
        self.origin_format = self.storage_format if origin_format is None else Format(int(origin_format))
        self.addr = addr
        self.placement = placement
        self.expand_dims_type = expand_dims_type


@dataclass
class ShapePair:
    """Owned (origin, storage) dims record of a user-built StorageShape."""

    origin_dims: List[int] = field(default_factory=list)
    storage_dims: List[int] = field(default_factory=list)


@dataclass
class FormatRecord:
    """Owned format record of a user-built StorageFormat."""

    origin_format: int = Format.FORMAT_ND
    storage_format: int = Format.FORMAT_ND
    expand_dims_type: int = 0


def element_count(dims: List[int]) -> int:
    """gert::Shape::GetShapeSize: 1 for scalars, -1 if any dim is unknown (negative)."""
    count = 1
    for dim in dims:
        if dim < 0:
            return -1
        count *= dim
    return count
