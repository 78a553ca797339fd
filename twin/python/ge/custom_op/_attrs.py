"""RuntimeAttrs: typed, read-only access to a node's attrs by IR index (§1.8)."""

from typing import Any, List, Tuple

from ge._lease import NATIVE_EXPIRED, Lease
from ge.graph.types import DataType
from ge.runtime import Tensor

from ._ir_types import AttrType


class RuntimeAttrs:
    __slots__ = ("_attrs", "_lease")
    # Set by the borrowing constructor below (object.__new__ skips __init__), declared here for type checkers.
    _attrs: List[Tuple[str, Any]]
    _lease: Lease

    def __init__(self, *args, **kwargs) -> None:
        raise TypeError("ge.custom_op.RuntimeAttrs: No constructor defined!")

    @classmethod
    def _borrow(cls, attrs: List[Tuple[str, Any]], lease: Lease) -> "RuntimeAttrs":
        view = object.__new__(cls)
        view._attrs, view._lease = attrs, lease
        return view

    def _value(self, index: int, ir_type: str):
        self._lease.check(NATIVE_EXPIRED)
        if isinstance(index, bool) or not isinstance(index, int):
            raise TypeError("index must be an int")
        if not 0 <= index < len(self._attrs) or self._attrs[index][0] != ir_type:
            raise RuntimeError(f"Failed to get runtime attr type[{ir_type}] at index[{index}]")
        return self._attrs[index][1]

    def get_attr_num(self) -> int:
        self._lease.check(NATIVE_EXPIRED)
        return len(self._attrs)

    def get_int(self, index: int) -> int:
        return int(self._value(index, AttrType.INT))

    def get_float(self, index: int) -> float:
        return float(self._value(index, AttrType.FLOAT))

    def get_bool(self, index: int) -> bool:
        return bool(self._value(index, AttrType.BOOL))

    def get_str(self, index: int) -> str:
        return str(self._value(index, AttrType.STRING))

    def get_data_type(self, index: int) -> DataType:
        return DataType(int(self._value(index, AttrType.DATA_TYPE)))

    def get_tensor(self, index: int) -> Tensor:
        return Tensor._borrow(self._value(index, AttrType.TENSOR), self._lease)

    def get_list_int(self, index: int) -> List[int]:
        return [int(v) for v in self._value(index, AttrType.LIST_INT)]

    def get_list_float(self, index: int) -> List[float]:
        return [float(v) for v in self._value(index, AttrType.LIST_FLOAT)]

    def get_list_bool(self, index: int) -> List[bool]:
        return [bool(v) for v in self._value(index, AttrType.LIST_BOOL)]

    def get_list_str(self, index: int) -> List[str]:
        return [str(v) for v in self._value(index, AttrType.LIST_STRING)]

    def get_list_data_type(self, index: int) -> List[DataType]:
        return [DataType(int(v)) for v in self._value(index, AttrType.LIST_DATA_TYPE)]

    def get_list_list_int(self, index: int) -> List[List[int]]:
        return [[int(v) for v in row] for row in self._value(index, AttrType.LIST_LIST_INT)]
