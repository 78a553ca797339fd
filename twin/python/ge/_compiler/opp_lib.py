"""C++ operator prototypes through the graph library's C ABI (twin/graph ge_twin/graph_c_api.h).

The library (libgraph.so, CANN's graph library; it finds libgraph_base.so and libopp_registry.so
next to itself) is found at $ASCEND_TWIN_GRAPH_LIB, else $ASCEND_HOME_PATH/lib64/libgraph.so.
OPP libraries are loaded from ASCEND_CUSTOM_OPP_PATH, then the ASCEND_OPP_PATH tree, with CANN's
discovery rules (done by the C++ side, idempotently; it also refuses libraries built with the
other _GLIBCXX_USE_CXX11_ABI, and that one-line error becomes the OppLibError message).
"""

import ctypes
import json
import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, List, Optional, Tuple

from ge.custom_op._ir_types import InputType, OutputType
from ge.graph.types import DataType

LIB_NAME = "libgraph.so"
LIB_ENV = "ASCEND_TWIN_GRAPH_LIB"
API_VERSION = 1
_INPUT_KINDS = {"REQUIRED": InputType.REQUIRED, "OPTIONAL": InputType.OPTIONAL, "DYNAMIC": InputType.DYNAMIC}
_OUTPUT_KINDS = {"REQUIRED": OutputType.REQUIRED, "DYNAMIC": OutputType.DYNAMIC}


class OppLibError(RuntimeError):
    pass


def _lib_path() -> Path:
    override = os.environ.get(LIB_ENV)
    if override:
        return Path(override)
    home = os.environ.get("ASCEND_HOME_PATH")
    if not home:
        raise OppLibError(f"cannot find {LIB_NAME}: set ASCEND_HOME_PATH (or {LIB_ENV})")
    return Path(home) / "lib64" / LIB_NAME


class _Api:
    def __init__(self, path: Path) -> None:
        try:
            lib = ctypes.CDLL(str(path), mode=ctypes.RTLD_GLOBAL)
        except OSError as exc:
            raise OppLibError(f"cannot load the graph library {path}: {exc}") from None
        out = ctypes.POINTER(ctypes.c_void_p)
        lib.GeTwinGraphApiVersion.restype = ctypes.c_uint32
        for name, args in (("GeTwinGraphLoadOppLibraries", [ctypes.c_char_p, out, out]),
                           ("GeTwinGraphListOpProtos", [out, out]),
                           ("GeTwinGraphInferOp", [ctypes.c_char_p, out, out])):
            fn = getattr(lib, name)
            fn.argtypes, fn.restype = args, ctypes.c_uint32
        lib.GeTwinGraphFreeString.argtypes, lib.GeTwinGraphFreeString.restype = [ctypes.c_void_p], None
        version = lib.GeTwinGraphApiVersion()
        if version != API_VERSION:
            raise OppLibError(f"{path} has graph C ABI version {version}, expected {API_VERSION}")
        self.lib = lib

    def _take(self, ptr: ctypes.c_void_p) -> Optional[str]:
        if not ptr.value:
            return None
        text = ctypes.string_at(ptr.value).decode("utf-8")
        self.lib.GeTwinGraphFreeString(ptr)
        return text

    def call(self, name: str, *args) -> Optional[dict]:
        """Calls a JSON-returning function; raises OppLibError with the library's message."""
        json_out, error_out = ctypes.c_void_p(), ctypes.c_void_p()
        status = getattr(self.lib, name)(*args, ctypes.byref(json_out), ctypes.byref(error_out))
        text, error = self._take(json_out), self._take(error_out)
        if status != 0:
            raise OppLibError(error or f"{name} failed with status {status}")
        return json.loads(text) if text else None


_api_lock = threading.Lock()
_api: Optional[_Api] = None


def _get_api() -> _Api:
    global _api
    with _api_lock:
        if _api is None:
            _api = _Api(_lib_path())
        return _api


def _dtype(value) -> int:
    return int(DataType[value]) if isinstance(value, str) else int(value)


@dataclass(frozen=True)
class OppProto:
    op_type: str
    ir_meta: dict
    has_infer: bool
    api: _Api

    def infer(self, spec) -> List[Tuple[List[int], List[int], int]]:
        """IMPL_OP inference of one node (a pyge NodeSpec) -> [(origin, storage, dtype)] per output."""
        inputs = []
        for item, group in zip(self.ir_meta["inputs"], spec.inputs):
            metas = [{"shape": list(m.storage_dims), "dtype": DataType(m.data_type).name} for m in group]
            if item["kind"] == InputType.DYNAMIC:
                inputs.append(metas)
            else:
                inputs.append(metas[0] if metas else None)
        request = {"op_type": self.op_type, "node_name": spec.name, "inputs": inputs,
                   "attrs": {item["name"]: _json_attr(value)
                             for item, (_, value) in zip(self.ir_meta["attrs"], spec.attrs)},
                   "dynamic_output_counts": {item["name"]: len(group)
                                             for item, group in zip(self.ir_meta["outputs"], spec.outputs)
                                             if item["kind"] == OutputType.DYNAMIC}}
        response = self.api.call("GeTwinGraphInferOp", json.dumps(request).encode("utf-8"))
        return [(list(o["shape"]), list(o["shape"]), _dtype(o["dtype"])) for o in response["outputs"]]


def _json_attr(value):
    if isinstance(value, DataType):
        return value.name
    if isinstance(value, list):
        return [_json_attr(v) for v in value]
    return value


def load_opp_protos(root_list: Optional[str] = None) -> Dict[str, OppProto]:
    """Loads OPP libraries from ASCEND_CUSTOM_OPP_PATH and lists every registered proto."""
    api = _get_api()
    roots = os.environ.get("ASCEND_CUSTOM_OPP_PATH", "") if root_list is None else root_list
    api.call("GeTwinGraphLoadOppLibraries", roots.encode("utf-8"))
    listing = api.call("GeTwinGraphListOpProtos") or {"ops": []}
    protos = {}
    for op in listing["ops"]:
        ir_meta = {"inputs": [{"name": i["name"], "kind": int(_INPUT_KINDS[i["kind"]])} for i in op["inputs"]],
                   "attrs": [{"name": a["name"], "type": a["value_type"]} for a in op["attrs"]],
                   "outputs": [{"name": o["name"], "kind": int(_OUTPUT_KINDS[o["kind"]])} for o in op["outputs"]]}
        protos[op["op_type"]] = OppProto(op["op_type"], ir_meta, bool(op.get("has_infer_shape")), api)
    return protos


def list_raw_protos() -> List[dict]:
    """The library's proto listing as it reports it (``ops`` of GeTwinGraphListOpProtos)."""
    return (_get_api().call("GeTwinGraphListOpProtos") or {"ops": []})["ops"]
