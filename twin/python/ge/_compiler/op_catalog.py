"""What the compiler knows about op types: canonical IR (ir_meta) and shape/dtype inference.

Sources, in CANN's precedence: Python prototypes (``register_op``, which may replace a C++ proto
of the same name), then the C++ OPP libraries found from ASCEND_CUSTOM_OPP_PATH (REG_OP protos,
IMPL_OP inference) through the graph library's C ABI. Python impls (``register_op_impl``) come
from the plugins loaded by pyge's loader.
"""

from dataclasses import dataclass
from typing import Callable, Dict, List, Optional, Tuple

from ge.custom_op import _bridge
from ge.custom_op._backend import INTERFACE_EAGER_EXECUTE, INTERFACE_HOST_CPU_EXECUTE, kernel_bindings, unbound_execute
from ge.custom_op._infer_meta_ctx import InferMetaContext
from ge.custom_op._ir_types import AttrType
from ge.custom_op._node import NodeSpec
from ge.custom_op._signature import is_legacy_execute
from ge.custom_op.proto import get_registered_op_proto_by_op_type
from ge.custom_op.registry import OpImplDescriptor, get_registered_op_impl_by_op_type
from ge.graph._ir import Node

from . import opp_lib
from .errors import GraphCompileError

InferredOutput = Tuple[List[int], List[int], int]  # (origin dims, storage dims, dtype value)


@dataclass(frozen=True)
class OpInfo:
    op_type: str
    ir_meta: dict
    source: str  # "python" | "opp" | "graph" (no prototype: the IR layout the node itself carries)
    infer: Optional[Callable[[NodeSpec], List[InferredOutput]]]
    # prepares what only depends on the node once (the C ABI request); None: nothing to prepare
    bind: Optional[Callable[[NodeSpec], Callable[[], List[InferredOutput]]]] = None

    @property
    def registered_ir(self) -> Optional[dict]:
        """The canonical IR the bridge binds schema-bound callbacks to (GE's GetRegisteredIrDef):
        none without a prototype, so only a legacy ``execute(self, ctx)`` runs then."""
        return None if self.source == "graph" else self.ir_meta

    def bound_infer(self, spec: NodeSpec) -> Callable[[], List[InferredOutput]]:
        """This node's inference, called again at each run while its inputs stay the same."""
        if self.bind is not None:
            return self.bind(spec)
        infer = self.infer
        if infer is None:  # callers bind only what runs_inference says infers
            raise GraphCompileError(f"op type {self.op_type} has no shape inference to bind")
        return lambda: infer(spec)


def _python_infer(op_type: str, ir_meta: dict) -> Callable[[NodeSpec], List[InferredOutput]]:
    def infer(spec: NodeSpec) -> List[InferredOutput]:
        return _bridge.call_infer_meta(op_type, ir_meta, InferMetaContext._create(spec))

    return infer


def _runs_without_ir(descriptor: OpImplDescriptor) -> bool:
    """Only legacy ``execute(self, ctx)`` callbacks: nothing to bind to a canonical IR."""
    if set(descriptor.interfaces) - {INTERFACE_EAGER_EXECUTE, INTERFACE_HOST_CPU_EXECUTE}:
        return False
    return all(
        is_legacy_execute(unbound_execute(descriptor.cls, backend)) for backend in kernel_bindings(descriptor.cls)
    )


class OpCatalog:
    """A snapshot of loaded protos and impls for one compilation."""

    def __init__(self) -> None:
        try:
            _bridge.load_and_get_op_descriptors()  # imports Python plugins (idempotent)
        except FileNotFoundError as exc:
            raise GraphCompileError(f"loading Python custom ops from ASCEND_CUSTOM_OPP_PATH failed: {exc}") from None
        except SyntaxError as exc:
            raise GraphCompileError(
                f"loading Python custom ops from ASCEND_CUSTOM_OPP_PATH failed: syntax error "
                f"in {exc.filename} line {exc.lineno}: {exc.msg}"
            ) from None
        except Exception as exc:  # a plugin raised at import or registration
            raise GraphCompileError(
                f"loading Python custom ops from ASCEND_CUSTOM_OPP_PATH failed: {type(exc).__name__}: {exc}"
            ) from None
        self._opp: Optional[Dict[str, opp_lib.OppProto]] = None  # loaded on first need
        self._cache: Dict[str, Optional[OpInfo]] = {}

    def op_info(self, op_type: str) -> Optional[OpInfo]:
        if op_type not in self._cache:
            self._cache[op_type] = self._lookup(op_type)
        return self._cache[op_type]

    def _lookup(self, op_type: str) -> Optional[OpInfo]:
        proto = get_registered_op_proto_by_op_type(op_type)
        if proto is not None:
            ir_meta = proto.ir_meta()
            return OpInfo(op_type, ir_meta, "python", _python_infer(op_type, ir_meta))
        opp = self._opp_protos().get(op_type)
        if opp is not None:
            return OpInfo(
                op_type,
                opp.ir_meta,
                "opp",
                opp.infer if opp.has_infer else None,
                opp.bind_infer if opp.has_infer else None,
            )
        return None

    def _opp_protos(self) -> Dict[str, "opp_lib.OppProto"]:
        if self._opp is None:
            try:
                self._opp = opp_lib.load_opp_protos()
            except opp_lib.OppLibError as exc:
                raise GraphCompileError(
                    f"loading C++ op protos (REG_OP) from ASCEND_CUSTOM_OPP_PATH failed: {exc}"
                ) from None
        return self._opp

    def node_info(self, node: Node) -> Optional[OpInfo]:
        """``op_info`` of the node's type; for a type with no prototype but a Python impl, the IR
        layout the node carries (what the ES builder recorded), as GE runs a custom op whose
        prototype library is not loaded. None when neither exists."""
        info = self.op_info(node.type)
        descriptor = self.impl(node.type)
        if info is not None or descriptor is None or not (node.ir_inputs or node.ir_outputs):
            return info
        if not _runs_without_ir(descriptor):
            return None  # schema-bound callbacks bind to a registered IR: "no prototype" it is
        kinds = {"required": 0, "optional": 1, "dynamic": 2}
        ir_meta = {
            "inputs": [{"name": name, "kind": kinds[kind]} for name, kind, _ in node.ir_inputs],
            "attrs": [
                {"name": name, "type": attr.type.name}
                for name, attr in node.attrs.items()
                if not name.startswith("_") and attr.type.name in AttrType.ALL
            ],
            "outputs": [{"name": name, "kind": 1 if kind == "dynamic" else 0} for name, kind, _ in node.ir_outputs],
        }
        return OpInfo(node.type, ir_meta, "graph", None)

    @staticmethod
    def impl(op_type: str) -> Optional[OpImplDescriptor]:
        return get_registered_op_impl_by_op_type(op_type)
