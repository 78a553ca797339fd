"""ge.graph: enums, host tensors and graphs."""

from .graph import Graph
from .tensor import Shape, Tensor, TensorDesc
from .types import AttrValueType, DataType, Format, Placement

__all__ = ["AttrValueType", "DataType", "Format", "Graph", "Placement", "Shape", "Tensor", "TensorDesc"]
