"""ge.runtime.StorageFormat (``gert::StorageFormat``)."""

from ge._lease import HANDLE_EXPIRED, PERMANENT, Lease
from ge.graph.types import Format

from ._meta import FormatRecord
from ._shape import ExpandDimsType


def _to_format(value, what: str) -> Format:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{what} must be a ge.graph.Format or int, got {type(value).__name__}")
    try:
        return Format(int(value))
    except ValueError:
        raise ValueError(f"{what} {value} is not a ge.graph.Format value") from None


class StorageFormat:
    __slots__ = ("_record", "_lease")

    def __init__(self, origin_format=None, storage_format=None, expand_dims_type=None) -> None:
        given = [origin_format is None, storage_format is None, expand_dims_type is None]
        if any(given) and not all(given):
            raise TypeError(
                "StorageFormat() takes either no arguments or origin_format, storage_format and expand_dims_type"
            )
        self._lease = PERMANENT
        if origin_format is None:
            self._record = FormatRecord()
            return
        if not isinstance(expand_dims_type, ExpandDimsType):
            raise TypeError("expand_dims_type must be a ge.runtime.ExpandDimsType")
        self._record = FormatRecord(
            _to_format(origin_format, "origin_format"),
            _to_format(storage_format, "storage_format"),
            expand_dims_type._to_int(),
        )

    @classmethod
    def _view(cls, record, lease: Lease) -> "StorageFormat":
        view = object.__new__(cls)
        view._record, view._lease = record, lease
        return view

    def _rec(self):
        self._lease.check(HANDLE_EXPIRED)
        return self._record

    @property
    def origin_format(self) -> Format:
        return Format(self._rec().origin_format)

    @property
    def storage_format(self) -> Format:
        return Format(self._rec().storage_format)

    @property
    def expand_dims_type(self) -> ExpandDimsType:
        return ExpandDimsType(self._rec().expand_dims_type)

    def set_origin_format(self, value) -> None:
        self._rec().origin_format = _to_format(value, "origin_format")

    def set_storage_format(self, value) -> None:
        self._rec().storage_format = _to_format(value, "storage_format")

    def set_expand_dims_type(self, value: ExpandDimsType) -> None:
        record = self._rec()
        if not isinstance(value, ExpandDimsType):
            raise TypeError("expand_dims_type must be a ge.runtime.ExpandDimsType")
        record.expand_dims_type = value._to_int()

    def __repr__(self) -> str:
        if not self._lease.valid:
            return "StorageFormat(<expired>)"
        return f"StorageFormat({self.origin_format.name}, {self.storage_format.name})"
