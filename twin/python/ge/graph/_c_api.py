"""ctypes bindings of the graph library's C ABI (libgraph.so, include/ge_twin/graph_c_api.h).

Requests and responses are messages of twin/graph/proto/graph_c_api.proto (package
ge.twin.capi), generated at build time into ``twin.graph.proto.graph_c_api_pb2`` (the install
tree carries it under python/site-packages); C++ gets its classes from the same file.

The library is found at $ASCEND_TWIN_GRAPH_LIB, else $ASCEND_HOME_PATH/lib64/libgraph.so (it finds
libgraph_base.so and libopp_registry.so next to itself).
"""

import ctypes
import importlib
import os
import threading
from pathlib import Path
from typing import List, Optional

from ._air import air_pb2

LIB_NAME = "libgraph.so"
LIB_ENV = "ASCEND_TWIN_GRAPH_LIB"
API_VERSION = 2

_pb2 = None


class GraphCApiError(RuntimeError):
    """A failed C ABI call: the library's one-line message; ``status`` is its graphStatus."""

    def __init__(self, message: str, status: int = 0) -> None:
        super().__init__(message)
        self.status = status


def capi_pb2():
    """The generated module of graph_c_api.proto (imports AIR's module, which it builds on)."""
    global _pb2
    if _pb2 is None:
        air_pb2()  # a clear error when protobuf itself is missing
        try:
            _pb2 = importlib.import_module("twin.graph.proto.graph_c_api_pb2")
        except ImportError as exc:
            raise GraphCApiError(
                f"the C ABI schema module twin.graph.proto.graph_c_api_pb2 is not importable "
                f"({exc}); it is part of the build (//twin/graph:c_api_proto_py) and of the "
                "install tree's python/site-packages"
            ) from None
    return _pb2


def library_path() -> Path:
    override = os.environ.get(LIB_ENV)
    if override:
        return Path(override)
    home = os.environ.get("ASCEND_HOME_PATH")
    if not home:
        raise GraphCApiError(f"cannot find {LIB_NAME}: set ASCEND_HOME_PATH (or {LIB_ENV})")
    return Path(home) / "lib64" / LIB_NAME


_OUT = (ctypes.POINTER(ctypes.c_void_p), ctypes.POINTER(ctypes.c_size_t), ctypes.POINTER(ctypes.c_void_p))
_SIGNATURES = {
    "GeTwinGraphLoadOppLibraries": [ctypes.c_char_p, *_OUT],
    "GeTwinGraphListOpProtos": [*_OUT],
    "GeTwinGraphInferOp": [ctypes.c_void_p, ctypes.c_size_t, *_OUT],
    "GeTwinGraphDescribeAir": [ctypes.c_char_p, *_OUT],
}


class GraphCApi:
    """One loaded libgraph.so; each method sends one message and parses the response."""

    def __init__(self, path: Path) -> None:
        try:
            lib = ctypes.CDLL(str(path), mode=ctypes.RTLD_GLOBAL)
        except OSError as exc:
            raise GraphCApiError(f"cannot load the graph library {path}: {exc}") from None
        lib.GeTwinGraphApiVersion.restype = ctypes.c_uint32
        for name, args in _SIGNATURES.items():
            fn = getattr(lib, name)
            fn.argtypes, fn.restype = args, ctypes.c_uint32
        for name in ("GeTwinGraphFreeBuffer", "GeTwinGraphFreeString"):
            fn = getattr(lib, name)
            fn.argtypes, fn.restype = [ctypes.c_void_p], None
        version = lib.GeTwinGraphApiVersion()
        if version != API_VERSION:
            raise GraphCApiError(f"{path} has graph C ABI version {version}, expected {API_VERSION}")
        self.lib = lib
        self.path = path

    def _call(self, name: str, response_type, *args):
        data, size, error = ctypes.c_void_p(), ctypes.c_size_t(), ctypes.c_void_p()
        status = getattr(self.lib, name)(*args, ctypes.byref(data), ctypes.byref(size), ctypes.byref(error))
        payload = ctypes.string_at(data.value, size.value) if data.value else b""
        message = ctypes.string_at(error.value).decode("utf-8", "replace") if error.value else None
        self.lib.GeTwinGraphFreeBuffer(data)
        self.lib.GeTwinGraphFreeString(error)
        if status != 0:
            raise GraphCApiError(message or f"{name} failed with status {status}", status)
        response = response_type()
        response.ParseFromString(payload)
        return response

    def load_opp_libraries(self, roots: Optional[str]) -> List[str]:
        """Loads OPP libraries (roots None: ASCEND_CUSTOM_OPP_PATH); the paths loaded by this call."""
        arg = None if roots is None else roots.encode("utf-8")
        return list(self._call("GeTwinGraphLoadOppLibraries", capi_pb2().LoadedLibraries, arg).paths)

    def list_op_protos(self):
        """Every registered prototype: an OpProtoList message."""
        return self._call("GeTwinGraphListOpProtos", capi_pb2().OpProtoList)

    def infer(self, request):
        """IMPL_OP inference: an InferRequest message (or its bytes) -> an InferResponse message."""
        payload = request if isinstance(request, bytes) else request.SerializeToString()
        buffer = ctypes.create_string_buffer(payload, len(payload))
        return self._call("GeTwinGraphInferOp", capi_pb2().InferResponse, buffer, len(payload))

    def describe_air(self, path) -> object:
        """Validates an AIR file as ge::Graph::LoadFromFile does: an AirDescription message."""
        return self._call("GeTwinGraphDescribeAir", capi_pb2().AirDescription, str(path).encode("utf-8"))


_lock = threading.Lock()
_api: Optional[GraphCApi] = None


def graph_c_api() -> GraphCApi:
    """The process's graph library (loaded once, from library_path())."""
    global _api
    with _lock:
        if _api is None:
            _api = GraphCApi(library_path())
        return _api
