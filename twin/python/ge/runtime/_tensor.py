"""ge.runtime.Tensor (borrowed view) and TensorDesc (owned, used by register_op)."""

from ge._lease import HANDLE_EXPIRED, PERMANENT, Lease
from ge.graph import _dtype
from ge.graph.types import DataType, Format

from ._format import StorageFormat
from ._meta import ShapePair, TensorMeta, TensorPlacement, element_count
from ._shape import ExpandDimsType, Shape, StorageShape, _dims_from_list


class Tensor:
    """Borrowed view of one node tensor (``gert::Tensor``); not user-constructible."""

    __slots__ = ("_meta", "_lease")
    # Set by the borrowing constructor below (object.__new__ skips __init__), declared here for type checkers.
    _meta: TensorMeta
    _lease: Lease

    def __init__(self, *args, **kwargs) -> None:
        raise TypeError("ge.runtime.Tensor: No constructor defined!")

    @classmethod
    def _borrow(cls, meta: TensorMeta, lease: Lease) -> "Tensor":
        view = object.__new__(cls)
        view._meta, view._lease = meta, lease
        return view

    def _m(self) -> TensorMeta:
        self._lease.check(HANDLE_EXPIRED)
        return self._meta

    @property
    def addr(self) -> int:
        return self._m().addr

    @property
    def shape_size(self) -> int:
        return element_count(self._m().storage_dims)

    @property
    def size(self) -> int:
        meta = self._m()
        count = element_count(meta.storage_dims)
        try:
            return _dtype.bytes_for(meta.data_type, count)
        except ValueError:
            return 0

    @property
    def shape(self) -> StorageShape:
        return StorageShape._view(self._m(), self._lease)

    @property
    def storage_shape(self) -> Shape:
        return Shape._view(self._m(), "storage_dims", self._lease)

    @property
    def origin_shape(self) -> Shape:
        return Shape._view(self._m(), "origin_dims", self._lease)

    @property
    def format(self) -> StorageFormat:
        return StorageFormat._view(self._m(), self._lease)

    @property
    def storage_format(self) -> Format:
        return Format(self._m().storage_format)

    @property
    def origin_format(self) -> Format:
        return Format(self._m().origin_format)

    @property
    def expand_dims_type(self) -> ExpandDimsType:
        return ExpandDimsType(self._m().expand_dims_type)

    @property
    def data_type(self) -> DataType:
        return DataType(self._m().data_type)

    @property
    def placement(self) -> TensorPlacement:
        return TensorPlacement(self._m().placement)

    def __repr__(self) -> str:
        if not self._lease.valid:
            return "Tensor(<expired>)"
        meta = self._meta
        return (
            f"Tensor(storage_shape={meta.storage_dims}, data_type={DataType(meta.data_type).name}, "
            f"format={Format(meta.storage_format).name}, addr=0x{meta.addr:x})"
        )


def _shape_record_from(shape) -> ShapePair:
    if shape is None:
        return ShapePair()
    if isinstance(shape, StorageShape):
        origin = shape.origin_shape.dims
        storage = shape.storage_shape.dims
        return ShapePair(origin, storage)
    if isinstance(shape, list):
        for dim in shape:
            if isinstance(dim, bool) or type(dim) is not int:
                raise TypeError("TensorDesc shape must be a StorageShape, a list of int or None")
        dims = _dims_from_list(shape, "shape")
        return ShapePair(list(dims), list(dims))
    raise TypeError("TensorDesc shape must be a StorageShape, a list of int or None")


def _checked_data_type(data_type) -> DataType:
    if not isinstance(data_type, DataType):
        raise TypeError("TensorDesc data_type must be a ge.graph.DataType")
    if data_type >= DataType.DT_MAX:
        raise ValueError("TensorDesc data_type must be less than DataType.DT_MAX")
    return data_type


class TensorDesc:
    """Owned tensor description (shape + data type) used by register_op and infer_meta."""

    __slots__ = ("_record", "_data_type")

    def __init__(self, shape=None, data_type: DataType = DataType.DT_FLOAT) -> None:
        self._record = _shape_record_from(shape)
        self._data_type = _checked_data_type(data_type)

    @property
    def shape(self) -> StorageShape:
        return StorageShape._view(self._record, PERMANENT)

    @shape.setter
    def shape(self, value) -> None:
        record = _shape_record_from(value)
        self._record.origin_dims[:] = record.origin_dims
        self._record.storage_dims[:] = record.storage_dims

    @property
    def data_type(self) -> DataType:
        return self._data_type

    @data_type.setter
    def data_type(self, value: DataType) -> None:
        self._data_type = _checked_data_type(value)

    def __repr__(self) -> str:
        return (
            f"TensorDesc(origin={self._record.origin_dims}, storage={self._record.storage_dims}, "
            f"data_type={self._data_type.name})"
        )
