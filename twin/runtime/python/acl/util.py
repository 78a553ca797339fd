"""acl.util: host pointers of numpy arrays and bytes, and numpy views of host memory.

A pointer from numpy_to_ptr/bytes_to_ptr is valid while the object lives; keep a reference.
"""

from __future__ import annotations

import ctypes

import numpy as np

# NumPy's type numbers (NPY_TYPES), which CANN's ptr_to_numpy accepts as `np_type`.
_NPY_TYPES = {
    0: np.bool_,
    1: np.int8,
    2: np.uint8,
    3: np.int16,
    4: np.uint16,
    5: np.int32,
    6: np.uint32,
    7: np.int64,
    8: np.uint64,
    9: np.longlong,
    10: np.ulonglong,
    11: np.float32,
    12: np.float64,
    23: np.float16,
}


def numpy_to_ptr(array: np.ndarray) -> int:
    if not isinstance(array, np.ndarray):
        raise TypeError(f"acl.util.numpy_to_ptr: expected a numpy.ndarray, got {type(array).__name__}")
    if not array.flags["C_CONTIGUOUS"]:
        raise ValueError("acl.util.numpy_to_ptr: the array must be C-contiguous (use numpy.ascontiguousarray)")
    return array.ctypes.data


def bytes_to_ptr(data: bytes | bytearray) -> int:
    if isinstance(data, bytearray):
        return ctypes.addressof((ctypes.c_char * len(data)).from_buffer(data))
    if isinstance(data, bytes):
        # CPython keeps bytes contents in place for the object's life.
        return ctypes.cast(ctypes.c_char_p(data), ctypes.c_void_p).value or 0
    raise TypeError(f"acl.util.bytes_to_ptr: expected bytes or bytearray, got {type(data).__name__}")


def ptr_to_bytes(ptr: int, size: int) -> bytes:
    return ctypes.string_at(ptr, size)


def ptr_to_numpy(ptr: int, shape: tuple[int, ...], np_type) -> np.ndarray:
    """A numpy array viewing host memory at `ptr` (no copy). `np_type`: a numpy dtype or a
    NumPy type number (CANN's convention, e.g. 11 for float32)."""
    dtype = np.dtype(_NPY_TYPES[np_type] if isinstance(np_type, int) else np_type)
    count = int(np.prod(shape)) if len(shape) else 1
    buffer = (ctypes.c_char * (count * dtype.itemsize)).from_address(ptr)
    return np.frombuffer(buffer, dtype=dtype, count=count).reshape(shape)  # type: ignore[call-overload]  # a ctypes array is a buffer; numpy's stubs omit it
