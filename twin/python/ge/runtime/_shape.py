"""ge.runtime.Shape, StorageShape and ExpandDimsType."""

from typing import List, Optional

from ge._lease import HANDLE_EXPIRED, PERMANENT, Lease

from ._meta import MAX_DIM_NUM, ShapePair, element_count

_EXPAND_MASK_BITS = 56
_EXPAND_MASK = (1 << _EXPAND_MASK_BITS) - 1


def _check_int(value, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{what} must be an int, got {type(value).__name__}")
    return value


def _dims_from_list(dims, what: str) -> List[int]:
    if not isinstance(dims, (list, tuple)):
        raise TypeError(f"{what} must be a list of int, got {type(dims).__name__}")
    checked = [_check_int(d, f"{what} dim") for d in dims]
    if len(checked) > MAX_DIM_NUM:
        raise ValueError(f"{what} has {len(checked)} dims, more than the maximum {MAX_DIM_NUM}")
    return checked


class Shape:
    """View of one dims list (``gert::Shape``); valid while its owner lives."""

    __slots__ = ("_record", "_attr", "_lease")
    # Set by the borrowing constructor below (object.__new__ skips __init__), declared here for type checkers.
    _record: ShapePair
    _attr: str
    _lease: Lease

    def __init__(self, *args, **kwargs) -> None:
        raise TypeError("ge.runtime.Shape: No constructor defined!")

    @classmethod
    def _view(cls, record, attr: str, lease: Lease) -> "Shape":
        view = object.__new__(cls)
        view._record, view._attr, view._lease = record, attr, lease
        return view

    def _dims(self) -> List[int]:
        self._lease.check(HANDLE_EXPIRED)
        return getattr(self._record, self._attr)

    @property
    def dims(self) -> List[int]:
        return list(self._dims())

    @property
    def dim_num(self) -> int:
        return len(self._dims())

    @property
    def size(self) -> int:
        return element_count(self._dims())

    def get_dim(self, index: int) -> int:
        dims = self._dims()
        _check_int(index, "index")
        if index < 0 or index >= len(dims):
            raise ValueError(f"dim index {index} is out of range for dim num {len(dims)}")
        return dims[index]

    def set_dim(self, index: int, value: int) -> None:
        dims = self._dims()
        _check_int(index, "index")
        _check_int(value, "value")
        if index < 0 or index >= len(dims):
            raise ValueError(f"dim index {index} is out of range for dim num {len(dims)}")
        dims[index] = value

    def append_dim(self, value: int) -> "Shape":
        dims = self._dims()
        _check_int(value, "value")
        if len(dims) < MAX_DIM_NUM:  # gert silently ignores appends beyond the max rank
            dims.append(value)
        return self

    def set_scalar(self) -> None:
        self._dims().clear()

    def is_scalar(self) -> bool:
        return len(self._dims()) == 0

    def __eq__(self, other) -> bool:
        if isinstance(other, Shape):
            return self._dims() == other._dims()
        if isinstance(other, (list, tuple)):
            return self._dims() == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # unhashable, as a list; the stubs allow no None for it

    def __repr__(self) -> str:
        if not self._lease.valid:
            return "Shape(<expired>)"
        return f"Shape({self._dims()})"


class StorageShape:
    """``gert::StorageShape``: origin and storage dims."""

    __slots__ = ("_record", "_lease")

    def __init__(self, origin_shape: Optional[List[int]] = None, storage_shape: Optional[List[int]] = None) -> None:
        if (origin_shape is None) != (storage_shape is None):
            raise TypeError("StorageShape() takes either no arguments or both origin_shape and storage_shape")
        if origin_shape is None:
            self._record, self._lease = ShapePair(), PERMANENT
            return
        self._record = ShapePair(
            _dims_from_list(origin_shape, "origin_shape"), _dims_from_list(storage_shape, "storage_shape")
        )
        self._lease = PERMANENT

    @classmethod
    def _view(cls, record, lease: Lease) -> "StorageShape":
        view = object.__new__(cls)
        view._record, view._lease = record, lease
        return view

    @property
    def origin_shape(self) -> Shape:
        self._lease.check(HANDLE_EXPIRED)
        return Shape._view(self._record, "origin_dims", self._lease)

    @property
    def storage_shape(self) -> Shape:
        self._lease.check(HANDLE_EXPIRED)
        return Shape._view(self._record, "storage_dims", self._lease)

    def set_origin_shape(self, shape: Shape) -> None:
        self._set("origin_dims", shape)

    def set_storage_shape(self, shape: Shape) -> None:
        self._set("storage_dims", shape)

    def _set(self, attr: str, shape: Shape) -> None:
        self._lease.check(HANDLE_EXPIRED)
        if not isinstance(shape, Shape):
            raise TypeError(f"expected ge.runtime.Shape, got {type(shape).__name__}")
        getattr(self._record, attr)[:] = shape.dims  # in place: other views stay bound

    def __repr__(self) -> str:
        if not self._lease.valid:
            return "StorageShape(<expired>)"
        return f"StorageShape(origin={self._record.origin_dims}, storage={self._record.storage_dims})"


class ExpandDimsType:
    """``gert::ExpandDimsType``: which dims of the full shape were inserted."""

    __slots__ = ("_size", "_mask")

    def __init__(self, rule=None) -> None:
        self._size, self._mask = 0, 0
        if rule is None:
            return
        if isinstance(rule, str):
            if len(rule) > _EXPAND_MASK_BITS:  # CANN ignores an over-long rule
                return
            self._size = len(rule)
            for index, char in enumerate(rule):
                if char == "1":
                    self._mask |= 1 << index
            return
        if isinstance(rule, int) and not isinstance(rule, bool):
            self._size = (rule >> _EXPAND_MASK_BITS) & 0xFF
            self._mask = rule & _EXPAND_MASK
            return
        raise TypeError(f"ExpandDimsType rule must be a str or an int, got {type(rule).__name__}")

    @property
    def full_size(self) -> int:
        return self._size

    def is_expand_index(self, index: int) -> bool:
        _check_int(index, "index")
        return 0 <= index < _EXPAND_MASK_BITS and bool(self._mask >> index & 1)

    def set_expand_index(self, index: int) -> None:
        _check_int(index, "index")
        if 0 <= index < _EXPAND_MASK_BITS:
            self._mask |= 1 << index

    def _to_int(self) -> int:
        return (self._size << _EXPAND_MASK_BITS) | self._mask

    def __eq__(self, other) -> bool:
        return isinstance(other, ExpandDimsType) and self._to_int() == other._to_int()

    def __hash__(self) -> int:
        return hash(self._to_int())

    def __repr__(self) -> str:
        bits = "".join("1" if self._mask >> i & 1 else "0" for i in range(self._size))
        return f"ExpandDimsType('{bits}')"
