"""Where each custom node runs, and which graphs need the stepped executor.

A node whose impl declares launch arguments is a *kernel* node: its launch goes into an OM and
runs without Python (CANN: annotated-args task). Otherwise the impl's ``execute`` runs at every
graph run — on the device stream (``OpBackend.DEVICE``) or on the host CPU (``OpBackend.HOST``) —
as CANN's runtime calls ``Execute`` when an op has no AnnotatedArgs plan. An impl with both
execute backends runs on the device (the host kernel is for ops that only have one).
"""

from typing import List, Optional

from ge.custom_op.registry import (
    INTERFACE_ANNOTATED_ARGS,
    INTERFACE_EAGER_EXECUTE,
    INTERFACE_HOST_CPU_EXECUTE,
    OpBackend,
    OpImplDescriptor,
)
from ge.graph._ir import DATA_NODE_TYPES, GraphIR, Node, TensorDescIR

from .constants import CONST_NODE_TYPES

KERNEL = "kernel"  # launch plan in the OM (declare_launch_args)
DEVICE_EXECUTE = OpBackend.DEVICE  # Python execute, device memory, the model's stream
HOST_EXECUTE = OpBackend.HOST  # Python execute, host memory, synchronous


def placement_of(descriptor: OpImplDescriptor):
    """KERNEL, DEVICE_EXECUTE or HOST_EXECUTE; None when the impl can neither launch nor execute."""
    interfaces = descriptor.interfaces
    if INTERFACE_ANNOTATED_ARGS in interfaces:
        return KERNEL
    if INTERFACE_EAGER_EXECUTE in interfaces:
        return DEVICE_EXECUTE
    if INTERFACE_HOST_CPU_EXECUTE in interfaces:
        return HOST_EXECUTE
    return None


def is_dynamic(desc: TensorDescIR) -> bool:
    """-1 (unknown dim) or -2 (unknown rank) anywhere in the shape."""
    return any(d < 0 for d in desc.shape)


def dynamic_inputs(graph: GraphIR) -> List[Node]:
    return [node for node in graph.input_nodes() if node.output_descs and is_dynamic(node.output_descs[0])]


def custom_nodes(graph: GraphIR) -> List[Node]:
    return [
        node for node in graph.nodes.values() if node.type not in DATA_NODE_TYPES and node.type not in CONST_NODE_TYPES
    ]


def stepped_reason(graph: GraphIR, impl_of) -> Optional[str]:
    """Why ``graph`` cannot be one static OM (None when it can): a dynamic graph input, or a
    node whose impl runs ``execute``. ``impl_of(op_type)`` -> OpImplDescriptor or None."""
    dynamic = dynamic_inputs(graph)
    if dynamic:
        node = dynamic[0]
        return f"graph input {node.name} has dynamic shape {node.output_descs[0].shape}"
    for node in custom_nodes(graph):
        descriptor = impl_of(node.type)
        if descriptor is not None and placement_of(descriptor) not in (KERNEL, None):
            return f"node {node.name} (op {node.type}) runs a Python execute ({placement_of(descriptor).name} backend)"
    return None
