"""ge.graph.Tensor: host data + description used by Session.run_graph (reference §3.6).

Data live host-side in a numpy array of the element type. ``Placement.PLACEMENT_DEVICE`` is
recorded but the bytes stay in host memory: the twin's device memory is host memory, and the
session hands arrays to the runtime which copies them into device allocations itself.
"""

import math
import os
import stat
from typing import Any, Callable, List, Optional

import numpy as np

from . import _dtype
from .types import DataType, Format, Placement

_INT_TYPES = (
    DataType.DT_INT64,
    DataType.DT_UINT64,
    DataType.DT_INT32,
    DataType.DT_UINT32,
    DataType.DT_INT16,
    DataType.DT_UINT16,
    DataType.DT_INT8,
    DataType.DT_UINT8,
)


_new_object: Callable[[type], Any] = object.__new__
_PLACEMENT_HOST = Placement.PLACEMENT_HOST
_FORMAT_ND = Format.FORMAT_ND


class Shape(list):
    """Dims of a ge.graph.Tensor (a plain list subclass, as in CANN)."""


class TensorDesc:
    """Description of a ge.graph.Tensor: shape, format, data type."""

    def __init__(
        self,
        shape: Optional[List[int]] = None,
        format: Format = Format.FORMAT_ND,
        data_type: DataType = DataType.DT_FLOAT,
    ) -> None:
        self.shape = Shape(shape or [])
        self.format = Format(format)
        self.data_type = DataType(data_type)

    def __repr__(self) -> str:
        return f"TensorDesc(shape={list(self.shape)}, format={self.format.name}, data_type={self.data_type.name})"


def _check_shape(shape) -> None:
    if shape is not None:
        if not isinstance(shape, list) or not all(isinstance(d, int) and not isinstance(d, bool) for d in shape):
            raise TypeError("Shape must be a list of integers")
        if any(d < 0 for d in shape):
            raise ValueError(f"Tensor shape {shape} has a negative dim; a tensor with data needs a static shape")


def _element_count(shape: Optional[List[int]]) -> int:
    return math.prod(shape) if shape else 1


def _array_from_list(data: list, data_type: DataType) -> np.ndarray:
    for item in data:
        if isinstance(item, (list, tuple)):
            raise TypeError("data should be a flat List of numbers (the shape gives the nesting)")
        if not isinstance(item, (bool, int, float)):
            raise TypeError(f"data should be a List of numbers, found {type(item).__name__}")
    if data_type == DataType.DT_BOOL:
        if not all(isinstance(x, bool) for x in data):
            raise RuntimeError("Failed to create Tensor with data type: DataType.DT_BOOL (data must be all bool)")
        return np.array(data, dtype=np.bool_)
    if data_type in _INT_TYPES:
        dtype = _dtype.numpy_dtype(data_type)
        info = np.iinfo(dtype)
        values = [int(x) for x in data]
        for value in values:
            if value < info.min or value > info.max:
                raise ValueError(f"value {value} does not fit {data_type.name}")
        return np.array(values, dtype=dtype)
    if data_type == DataType.DT_FLOAT:
        return np.array([float(x) for x in data], dtype=np.float32)
    if data_type == DataType.DT_FLOAT16:
        return np.array([float(x) for x in data], dtype=np.float16)
    if data_type == DataType.DT_DOUBLE:
        raise RuntimeError("DT_DOUBLE is not supported in python Tensor constructor")
    raise RuntimeError("Failed to create Tensor with data type: {}".format(data_type))


class Tensor:
    def __init__(
        self,
        data: Optional[list] = None,
        file_path: Optional[str] = None,
        data_type: DataType = DataType.DT_FLOAT,
        format: Format = Format.FORMAT_ND,
        shape: Optional[List[int]] = None,
        placement: Placement = Placement.PLACEMENT_HOST,
    ) -> None:
        _check_shape(shape)
        if not isinstance(data_type, DataType):
            raise TypeError("Data_type must be a DataType")
        if not isinstance(format, Format):
            raise TypeError("Format must be a Format")
        if not isinstance(placement, Placement):
            raise TypeError("Placement must be a Placement")
        self._data_type = data_type
        self._format = format
        self._shape = list(shape) if shape is not None else []
        self._placement = Placement.PLACEMENT_HOST
        self._array: Optional[np.ndarray] = None
        if data is not None and file_path is not None:
            raise RuntimeError("Tensor should be created either by data or by file")
        if data is not None:
            if not isinstance(data, list):
                raise TypeError("data should be List")
            array = _array_from_list(data, data_type)
            self._array = self._fit_to_shape(array, "data")
        elif file_path is not None:
            self._array = self._fit_to_shape(self._read_file(file_path), f"file {file_path}")
        if placement == Placement.PLACEMENT_DEVICE:
            self.to_device()

    def _read_file(self, file_path: str) -> np.ndarray:
        if not isinstance(file_path, str):
            raise TypeError("file_path must be a string")
        try:
            dtype = _dtype.numpy_dtype(self._data_type)
        except ValueError as exc:
            raise RuntimeError(f"Failed to create Tensor from file {file_path}: {exc}") from None
        # Non-blocking open and fstat first: a FIFO, device or directory is refused without
        # waiting on it, and a file of the wrong size without reading it.
        try:
            fd = os.open(file_path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        except OSError as exc:
            raise RuntimeError(f"Failed to create Tensor from file {file_path}: {exc.strerror}") from None
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            os.close(fd)
            raise RuntimeError(f"Failed to create Tensor from file {file_path}: not a regular file")
        with os.fdopen(fd, "rb") as source:
            if info.st_size % dtype.itemsize:
                raise RuntimeError(
                    f"Failed to create Tensor from file {file_path}: size {info.st_size} bytes "
                    f"is not a multiple of {self._data_type.name} element size {dtype.itemsize}"
                )
            count = info.st_size // dtype.itemsize
            if count != _element_count(self._shape):
                raise ValueError(self._shape_mismatch(count, f"file {file_path}"))
            try:
                raw = source.read()
            except OSError as exc:
                raise RuntimeError(f"Failed to create Tensor from file {file_path}: {exc.strerror}") from None
        return np.frombuffer(raw, dtype=dtype).copy()

    def _shape_mismatch(self, count: int, source: str) -> str:
        return f"Tensor {source} has {count} elements but shape {self._shape} needs {_element_count(self._shape)}"

    def _fit_to_shape(self, array: np.ndarray, source: str) -> np.ndarray:
        if array.size != _element_count(self._shape):
            raise ValueError(self._shape_mismatch(array.size, source))
        return array.reshape(self._shape)

    @classmethod
    def _from_numpy(
        cls, array: np.ndarray, data_type: Optional[DataType] = None, format: Format = Format.FORMAT_ND
    ) -> "Tensor":
        """Wrap an array (copied only if it is not a C-contiguous ndarray)."""
        if type(array) is not np.ndarray or not array.flags.c_contiguous:
            array = np.ascontiguousarray(array)
        if data_type is None:
            data_type = _dtype.data_type_of_numpy(array.dtype)
        tensor = _tensor_of_array(array, DataType(data_type), cls)
        if format != Format.FORMAT_ND:
            tensor._format = Format(format)
        return tensor

    def _to_numpy(self) -> Optional[np.ndarray]:
        """The tensor's data as an array shaped like the tensor (None for an empty tensor)."""
        return self._array

    def __copy__(self):
        raise RuntimeError("Tensor does not support copy")

    def __deepcopy__(self, memodict):
        raise RuntimeError("Tensor does not support deepcopy")

    def set_format(self, format: Format) -> "Tensor":
        if not isinstance(format, Format):
            raise TypeError("Format must be a Format")
        self._format = format
        return self

    def get_format(self) -> Format:
        return self._format

    @property
    def format(self) -> Format:
        return self._format

    def set_data_type(self, data_type: DataType) -> "Tensor":
        if not isinstance(data_type, DataType):
            raise TypeError("Data_type must be a DataType")
        if self._array is not None and data_type != self._data_type:
            # Reinterpreting bytes as another type would change the values; CANN's C++ side
            # keeps the bytes too, but that is only sound for equal element sizes.
            target = _dtype.numpy_dtype(data_type)
            if target.itemsize != self._array.dtype.itemsize:
                raise RuntimeError(
                    f"Failed to set datatype {data_type}: element size differs from {self._data_type.name}"
                )
            self._array = self._array.view(target)
        self._data_type = data_type
        return self

    def get_data_type(self) -> DataType:
        return self._data_type

    @property
    def data_type(self) -> DataType:
        return self._data_type

    def get_shape(self) -> Shape:
        return Shape(self._shape)

    @property
    def shape(self) -> Shape:
        return self.get_shape()

    def get_placement(self) -> Placement:
        return self._placement

    @property
    def placement(self) -> Placement:
        return self._placement

    def get_tensor_desc(self) -> TensorDesc:
        return TensorDesc(list(self._shape), self._format, self._data_type)

    def to_device(self) -> "Tensor":
        if self._placement == Placement.PLACEMENT_DEVICE:
            raise ValueError("Tensor is already on device")
        self._placement = Placement.PLACEMENT_DEVICE
        return self

    def to_host(self) -> "Tensor":
        if self._placement == Placement.PLACEMENT_HOST:
            raise ValueError("Tensor is already on host")
        self._placement = Placement.PLACEMENT_HOST
        return self

    def get_data(self):
        """Values nested by shape; a 0-d tensor gives a scalar, an empty tensor []."""
        if self._array is None:
            return []
        array = self._array
        if self._data_type == DataType.DT_BF16:
            array = (array.astype(np.uint32) << 16).view(np.float32)
        return array.tolist()

    @property
    def data(self):
        return self.get_data()

    def __str__(self) -> str:
        return (
            f"Tensor format is {self._format}, data_type is {self._data_type}, "
            f"shape is {self.get_shape()}, data is {self.get_data()}"
        )


def _tensor_of_array(array: np.ndarray, data_type: DataType, cls: type = Tensor) -> Tensor:
    """Session.run_graph's output wrapper: ``data_type`` is a DataType member (the session
    converts a model's output types once per graph); the array is kept as is when it is a
    C-contiguous ndarray, as the backend's fresh outputs are."""
    if type(array) is not np.ndarray or not array.flags.c_contiguous:
        array = np.ascontiguousarray(array)
    tensor = _new_object(cls)
    # one dict assignment instead of five attribute stores
    tensor.__dict__ = {
        "_data_type": data_type,
        "_format": _FORMAT_ND,
        "_shape": list(array.shape),
        "_placement": _PLACEMENT_HOST,
        "_array": array,
    }
    return tensor
