"""Element sizes and numpy storage types of ge.graph.DataType values.

Types without a numpy equivalent (bf16, fp8, ...) are stored as their raw bit patterns in
unsigned integers of the same width; sub-byte types have a fractional size in bits.
"""

import numpy as np

from .types import DataType

_BITS = {
    DataType.DT_FLOAT: 32,
    DataType.DT_FLOAT16: 16,
    DataType.DT_INT8: 8,
    DataType.DT_INT32: 32,
    DataType.DT_UINT8: 8,
    DataType.DT_INT16: 16,
    DataType.DT_UINT16: 16,
    DataType.DT_UINT32: 32,
    DataType.DT_INT64: 64,
    DataType.DT_UINT64: 64,
    DataType.DT_DOUBLE: 64,
    DataType.DT_BOOL: 8,
    DataType.DT_DUAL_SUB_INT8: 8,
    DataType.DT_DUAL_SUB_UINT8: 8,
    DataType.DT_COMPLEX64: 64,
    DataType.DT_COMPLEX128: 128,
    DataType.DT_QINT8: 8,
    DataType.DT_QINT16: 16,
    DataType.DT_QINT32: 32,
    DataType.DT_QUINT8: 8,
    DataType.DT_QUINT16: 16,
    DataType.DT_RESOURCE: 64,
    DataType.DT_DUAL: 40,
    DataType.DT_BF16: 16,
    DataType.DT_INT4: 4,
    DataType.DT_UINT1: 1,
    DataType.DT_INT2: 2,
    DataType.DT_UINT2: 2,
    DataType.DT_COMPLEX32: 32,
    DataType.DT_HIFLOAT8: 8,
    DataType.DT_FLOAT8_E5M2: 8,
    DataType.DT_FLOAT8_E4M3FN: 8,
    DataType.DT_FLOAT8_E8M0: 8,
    DataType.DT_FLOAT6_E3M2: 8,
    DataType.DT_FLOAT6_E2M3: 8,
    DataType.DT_FLOAT4_E2M1: 4,
    DataType.DT_FLOAT4_E1M2: 4,
    DataType.DT_HIFLOAT4: 4,
}

_NUMPY = {
    DataType.DT_FLOAT: np.float32,
    DataType.DT_FLOAT16: np.float16,
    DataType.DT_INT8: np.int8,
    DataType.DT_INT32: np.int32,
    DataType.DT_UINT8: np.uint8,
    DataType.DT_INT16: np.int16,
    DataType.DT_UINT16: np.uint16,
    DataType.DT_UINT32: np.uint32,
    DataType.DT_INT64: np.int64,
    DataType.DT_UINT64: np.uint64,
    DataType.DT_DOUBLE: np.float64,
    DataType.DT_BOOL: np.bool_,
    DataType.DT_COMPLEX64: np.complex64,
    DataType.DT_COMPLEX128: np.complex128,
    DataType.DT_BF16: np.uint16,
}

_FROM_NUMPY = {np.dtype(v): k for k, v in _NUMPY.items() if k != DataType.DT_BF16}


def bits_of(data_type: int) -> int:
    """Bits per element; raises ValueError for types without a storage size (string ...)."""
    try:
        return _BITS[DataType(data_type)]
    except (KeyError, ValueError):
        raise ValueError(f"data type {data_type} has no fixed element size") from None


def bytes_for(data_type: int, element_count: int) -> int:
    """Bytes needed for element_count elements (sub-byte types round up)."""
    if element_count <= 0:
        return 0
    return (bits_of(data_type) * element_count + 7) // 8


def numpy_dtype(data_type: int) -> np.dtype:
    try:
        return np.dtype(_NUMPY[DataType(data_type)])
    except (KeyError, ValueError):
        raise ValueError(
            f"data type {DataType(data_type).name if data_type in DataType._value2member_map_ else data_type} "
            "has no numpy storage type"
        ) from None


def data_type_of_numpy(dtype) -> DataType:
    try:
        return _FROM_NUMPY[np.dtype(dtype)]
    except KeyError:
        raise ValueError(f"numpy dtype {np.dtype(dtype)} has no ge.graph.DataType") from None
