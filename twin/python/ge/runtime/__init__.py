"""ge.runtime: tensor views handed to custom-op callbacks."""

from ._format import StorageFormat
from ._meta import TensorPlacement
from ._shape import ExpandDimsType, Shape, StorageShape
from ._tensor import Tensor, TensorDesc

__all__ = ["ExpandDimsType", "Shape", "StorageFormat", "StorageShape", "Tensor", "TensorDesc", "TensorPlacement"]
