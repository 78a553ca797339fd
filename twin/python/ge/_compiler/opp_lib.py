"""C++ operator prototypes through the graph library's C ABI (twin/graph ge_twin/graph_c_api.h).

The library (libgraph.so, CANN's graph library; it finds libgraph_base.so and libopp_registry.so
next to itself) is found at $ASCEND_TWIN_GRAPH_LIB, else $ASCEND_HOME_PATH/lib64/libgraph.so.
OPP libraries are loaded from ASCEND_CUSTOM_OPP_PATH, then the ASCEND_OPP_PATH tree, with CANN's
discovery rules (done by the C++ side, idempotently; it also refuses libraries built with the
other _GLIBCXX_USE_CXX11_ABI, and that one-line error becomes the OppLibError message).
"""

from dataclasses import dataclass
from typing import Callable, Dict, List, Optional, Tuple

from ge.custom_op._ir_types import InputType, OutputType
from ge.graph import _air
from ge.graph._c_api import GraphCApi, GraphCApiError, capi_pb2, graph_c_api
from ge.graph._ir import AttrValue
from ge.graph.types import AttrValueType

# The library's one-line errors (an OPP library refused, an inference failure) reach callers as this.
OppLibError = GraphCApiError


@dataclass(frozen=True)
class OppProto:
    op_type: str
    ir_meta: dict
    has_infer: bool
    api: GraphCApi

    def infer(self, spec) -> List[Tuple[List[int], List[int], int]]:
        """IMPL_OP inference of one node (a pyge NodeSpec) -> [(origin, storage, dtype)] per output."""
        return self._results(self.api.infer(self._request(spec)))

    def bind_infer(self, spec) -> Callable[[], List[Tuple[List[int], List[int], int]]]:
        """The node's inference with its request serialized once: InferShape runs at each call."""
        payload = self._request(spec).SerializeToString()
        return lambda: self._results(self.api.infer(payload))

    @staticmethod
    def _results(response) -> List[Tuple[List[int], List[int], int]]:
        return [(list(o.shape), list(o.shape), int(o.dtype)) for o in response.outputs]

    def _request(self, spec):
        request = capi_pb2().InferRequest(op_type=self.op_type, node_name=spec.name)
        for group in spec.inputs:
            slot = request.inputs.add()
            for meta in group:
                slot.instances.add(shape=list(meta.storage_dims), dtype=int(meta.data_type))
        for item, (vt, value) in zip(self.ir_meta["attrs"], spec.attrs):
            where = f"node {spec.name} attr {item['name']}"
            _air.fill_attr(request.attrs.add(name=item["name"]).value, AttrValue(AttrValueType[vt], value), where)
        for item, group in zip(self.ir_meta["outputs"], spec.outputs):
            if item["kind"] == OutputType.DYNAMIC:
                request.dynamic_output_counts.add(name=item["name"], count=len(group))
        return request


def load_opp_protos(root_list: Optional[str] = None) -> Dict[str, OppProto]:
    """Loads OPP libraries from ASCEND_CUSTOM_OPP_PATH and lists every registered proto."""
    api = graph_c_api()
    api.load_opp_libraries(root_list)
    protos = {}
    for op in api.list_op_protos().ops:
        # The wire's IrKind numbers inputs and outputs alike; OutputType's DYNAMIC is 1.
        ir_meta = {
            "inputs": [{"name": i.name, "kind": int(InputType(i.kind))} for i in op.inputs],
            "attrs": [{"name": a.name, "type": a.value_type} for a in op.attrs],
            "outputs": [
                {
                    "name": o.name,
                    "kind": int(OutputType.DYNAMIC if o.kind == capi_pb2().IR_DYNAMIC else OutputType.REQUIRED),
                }
                for o in op.outputs
            ],
        }
        protos[op.op_type] = OppProto(op.op_type, ir_meta, op.has_infer_shape, api)
    return protos
