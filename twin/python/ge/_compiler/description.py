"""A compiled model's interface, as the Session backend and atc need it."""

from dataclasses import dataclass
from typing import List, Tuple

from ge.graph.types import DataType, Format


@dataclass(frozen=True)
class TensorSpec:
    name: str
    data_type: DataType
    format: Format
    dims: Tuple[int, ...]
    size: int  # bytes


@dataclass(frozen=True)
class ModelDescription:
    name: str
    soc_version: str
    npu_arch: int
    inputs: Tuple[TensorSpec, ...]
    outputs: Tuple[TensorSpec, ...]
    feature_map_size: int
    kernel_nodes: Tuple[str, ...]
    task_count: int


def _spec(tensor) -> TensorSpec:
    return TensorSpec(tensor.name, DataType(tensor.data_type), Format(tensor.format), tuple(tensor.dims), tensor.size)


def describe(model, kernel_nodes: List[str]) -> ModelDescription:
    return ModelDescription(
        model.name,
        model.soc_version,
        model.npu_arch,
        tuple(_spec(t) for t in model.inputs),
        tuple(_spec(t) for t in model.outputs),
        model.feature_map_size,
        tuple(kernel_nodes),
        len(model.tasks),
    )
