"""TensorHolder: one output of a node under construction (reference §3.2)."""

from typing import Any, List

from ge.graph.types import DataType, Format


class TensorHolder:
    __slots__ = ("_builder", "_node", "_index", "__weakref__")
    # Set by the borrowing constructor below (object.__new__ skips __init__), declared here for type checkers.
    _builder: Any
    _node: str
    _index: int

    def __init__(self, *args, **kwargs) -> None:
        raise RuntimeError("TensorHolder cannot be constructed directly; use a GraphBuilder")

    @classmethod
    def _create_from(cls, builder, node_name: str, output_index: int) -> "TensorHolder":
        holder = object.__new__(cls)
        holder._builder, holder._node, holder._index = builder, node_name, output_index
        return holder

    def __copy__(self):
        raise RuntimeError("TensorHolder does not support copy")

    def __deepcopy__(self, memodict):
        raise RuntimeError("TensorHolder does not support deepcopy")

    @property
    def name(self) -> str:
        """Name of the producing node (``<node>:<index>`` for outputs after the first)."""
        return self._node if self._index == 0 else f"{self._node}:{self._index}"

    def get_owner_builder(self):
        return self._builder

    def _desc(self, operation: str):
        self._builder._check_usable(operation)
        return self._builder._ir.nodes[self._node].output_descs[self._index]

    def set_data_type(self, data_type: DataType) -> "TensorHolder":
        if not isinstance(data_type, DataType):
            raise TypeError("Data type must be a DataType")
        self._desc("set data type").data_type = data_type
        return self

    def set_format(self, format: Format) -> "TensorHolder":
        if not isinstance(format, Format):
            raise TypeError("Format must be a Format")
        desc = self._desc("set format")
        desc.format = format
        desc.origin_format = format
        return self

    def set_shape(self, shape: List[int]) -> "TensorHolder":
        if not isinstance(shape, list) or not all(isinstance(d, int) and not isinstance(d, bool) for d in shape):
            raise TypeError("Shape must be a list of integers")
        desc = self._desc("set shape")
        desc.shape = list(shape)
        desc.origin_shape = list(shape)
        return self

    def _binary(self, op_type: str, other, reverse: bool = False) -> "TensorHolder":
        builder = self._builder
        other = builder._to_holder(other, like=self)
        lhs, rhs = (other, self) if reverse else (self, other)
        (outputs,) = builder._add_op_node(
            op_type, inputs=[("x1", "required", lhs), ("x2", "required", rhs)], attrs=[], outputs=[("y", "required", 1)]
        )
        return outputs[0]

    def __add__(self, other):
        return self._binary("Add", other)

    def __radd__(self, other):
        return self._binary("Add", other, reverse=True)

    def __sub__(self, other):
        return self._binary("Sub", other)

    def __rsub__(self, other):
        return self._binary("Sub", other, reverse=True)

    def __mul__(self, other):
        return self._binary("Mul", other)

    def __rmul__(self, other):
        return self._binary("Mul", other, reverse=True)

    def __truediv__(self, other):
        return self._binary("Div", other)

    def __rtruediv__(self, other):
        return self._binary("Div", other, reverse=True)

    def __repr__(self) -> str:
        return f"TensorHolder({self.name})"
