"""ge.graph: enums, host tensors and graphs (reference/ge_api.md §3.6, §3.7)."""

from .graph import Graph
from .tensor import Shape, Tensor, TensorDesc
from .types import AttrValueType, DataType, Format, Placement

__all__ = ["AttrValueType", "DataType", "Format", "Graph", "Placement", "Shape", "Tensor", "TensorDesc"]
