"""Plain description of one graph node, from which the callback contexts are built.

The graph compiler fills a ``NodeSpec`` (no Python-object handles, only data) and passes it to
the context factories; see INTERNALS.md for the contract.
"""

from dataclasses import dataclass, field
from typing import Any, List, Optional, Sequence, Tuple

from ge.runtime._meta import TensorMeta

from ._ir_types import AttrType


@dataclass
class NodeSpec:
    """One node's tensors grouped by IR declaration, and its attrs in IR order.

    inputs[i]  : instances of IR input i — [] for an absent optional input, [meta] for a
                 required/optional one, N metas for a dynamic input with N instances.
    outputs[i] : instances of IR output i (1 for required, N for dynamic).
    attrs[i]   : (ir attr type string such as "VT_INT", python value) of IR attr i. Tensor attrs
                 carry a TensorMeta.
    """

    op_type: str
    name: str
    inputs: List[List[TensorMeta]] = field(default_factory=list)
    outputs: List[List[TensorMeta]] = field(default_factory=list)
    attrs: List[Tuple[str, Any]] = field(default_factory=list)
    # host buffers the metas point into (tensor attrs' data): alive as long as the node spec
    keepalive: List[Any] = field(default_factory=list, repr=False, compare=False)

    def __post_init__(self) -> None:
        for ir_type, _ in self.attrs:
            if ir_type not in AttrType.ALL:
                raise ValueError(f"node {self.name}: unsupported attr type {ir_type}")

    @property
    def input_instances(self) -> List[TensorMeta]:
        """Present input instances in flattened (node input index) order."""
        return [meta for group in self.inputs for meta in group]

    @property
    def output_instances(self) -> List[TensorMeta]:
        return [meta for group in self.outputs for meta in group]


def _group(groups: Sequence[List[TensorMeta]], ir_index: int, what: str) -> List[TensorMeta]:
    if isinstance(ir_index, bool) or not isinstance(ir_index, int):
        raise TypeError(f"{what} ir_index must be an int")
    if not 0 <= ir_index < len(groups):
        raise RuntimeError(f"Failed to get {what} at ir index {ir_index}: op has {len(groups)} IR {what}s")
    return groups[ir_index]


def required_instance(groups, ir_index: int, what: str) -> TensorMeta:
    group = _group(groups, ir_index, what)
    if len(group) != 1:
        raise RuntimeError(f"Failed to get required {what} tensor at ir index {ir_index}")
    return group[0]


def optional_instance(groups, ir_index: int, what: str) -> Optional[TensorMeta]:
    group = _group(groups, ir_index, what)
    if len(group) > 1:
        raise RuntimeError(f"Failed to get optional {what} tensor at ir index {ir_index}")
    return group[0] if group else None


def dynamic_count(groups, ir_index: int, what: str) -> int:
    return len(_group(groups, ir_index, what))


def dynamic_instance(groups, ir_index: int, relative_index: int, what: str) -> TensorMeta:
    group = _group(groups, ir_index, what)
    if isinstance(relative_index, bool) or not isinstance(relative_index, int):
        raise TypeError("relative_index must be an int")
    if not 0 <= relative_index < len(group):
        raise RuntimeError(
            f"Failed to get dynamic {what} tensor at ir index {ir_index}, relative index {relative_index}"
        )
    return group[relative_index]
