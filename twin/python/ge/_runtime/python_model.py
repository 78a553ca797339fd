"""The Python side of an OM that needs the Python environment at run time (OM format version 2,
written by atc for a graph with an ``execute`` op or an input left dynamic).

``aclmdlLoadFromFile/Mem`` of such an OM starts (or attaches to) an interpreter inside the
calling process and calls, with the GIL held:

    load(om_bytes, acl_library) -> PythonModel           at aclmdlLoad*
    PythonModel.execute(packed_inputs) -> packed_outputs  at aclmdlExecute*
    PythonModel.close()                                   at aclmdlUnload

``load`` loads the op plugins from ASCEND_CUSTOM_OPP_PATH (as atc and Session do), checks every
op of the graph has an implementation that can run, and builds the stepped executor
(ge/_compiler/stepped_runner.py) on the caller's current device and context; each new input
shape is inferred and compiled once, a shape seen before runs without compiling.

Arguments cross as little-endian int64 arrays (the C side needs no Python object API beyond
bytes): inputs are, per input, ``address, bytes, rank, dims...``; outputs come back as
``count`` then, per output, ``address, bytes, rank, dims...`` — addresses in this model's own
memory, valid until its next run, which the runtime copies into the caller's buffers.

A failure raises ModelError whose ``acl_code`` is the ACL error code the runtime returns; its
message (one line) is what aclGetRecentErrMsg reports.
"""

import os
import struct
import sys
import threading
from typing import List, Tuple

ACL_ERROR_PARSE_MODEL = 100013
ACL_ERROR_MODEL_INPUT_NOT_MATCH = 100017
ACL_ERROR_GE_FAILURE = 500002
ACL_ERROR_INVALID_OPP_PATH = 148049
ACL_ERROR_FEATURE_UNSUPPORTED = 200006  # no usable Python environment
ACL_LIBRARY_ENV = "ASCEND_TWIN_ACL_LIB"
GRAPH_LIBRARY_ENV = "ASCEND_TWIN_GRAPH_LIB"


# Python-run models loaded and not yet unloaded. Holders (and what they cache: loaded kernel
# binaries, ACL handles) live while one does, as GE drops them at finalize: the last unload
# resets them, so a runtime started again later gets fresh holders.
_live_models = 0
_live_lock = threading.Lock()


class ModelError(RuntimeError):
    def __init__(self, acl_code: int, message: str) -> None:
        super().__init__(" ".join(message.split()))
        self.acl_code = acl_code


def _unpack_inputs(packed: bytes) -> List[Tuple[int, int, List[int]]]:
    values = struct.unpack(f"<{len(packed) // 8}q", packed)
    inputs, at = [], 0
    while at < len(values):
        addr, size, rank = values[at : at + 3]
        inputs.append((addr, size, list(values[at + 3 : at + 3 + rank])))
        at += 3 + rank
    return inputs


def _pack_outputs(outputs: List[Tuple[int, int, List[int]]]) -> bytes:
    values = [len(outputs)]
    for addr, size, dims in outputs:
        values += [addr, size, len(dims), *dims]
    return struct.pack(f"<{len(values)}q", *values)


def _use_acl_library(path: str) -> None:
    """pyACL must bind the very libascendcl that loaded this model (one runtime per process)."""
    if "acl" not in sys.modules and path:
        os.environ[ACL_LIBRARY_ENV] = path


def _use_loaded_graph_library() -> None:
    """If the host program already has a libgraph.so (e.g. GE's C++ Session), GE's op catalog
    must use that one: the OPP proto libraries register their REG_OPs in the copy they link."""
    if os.environ.get(GRAPH_LIBRARY_ENV):
        return
    try:
        with open("/proc/self/maps") as maps:
            paths = {line.split()[-1] for line in maps if line.rstrip().endswith("/libgraph.so")}
    except OSError:
        return
    if len(paths) == 1:
        os.environ[GRAPH_LIBRARY_ENV] = paths.pop()


def _check_ops(graph) -> None:
    """Every op can run here: it has a prototype, and its plugin is loaded and has a launch plan or
    an execute (resolve_custom_node's rule, reported with ACL_ERROR_INVALID_OPP_PATH)."""
    from ge._compiler.custom_optimizer import resolve_custom_node
    from ge._compiler.errors import GraphCompileError
    from ge._compiler.op_catalog import OpCatalog
    from ge._compiler.placement import custom_nodes

    opp = os.environ.get("ASCEND_CUSTOM_OPP_PATH", "")
    try:
        catalog = OpCatalog()
        for node in custom_nodes(graph):
            resolve_custom_node(node, catalog)
    except GraphCompileError as exc:
        raise ModelError(
            ACL_ERROR_INVALID_OPP_PATH, f"{str(exc).splitlines()[0]} (ASCEND_CUSTOM_OPP_PATH={opp or '<unset>'})"
        ) from None


class PythonModel:
    def __init__(self, container, acl) -> None:
        from ge._compiler.errors import GraphCompileError, ModelRunError
        from ge._compiler.stepped_runner import SteppedModel
        from ge.graph import _air

        model = container.model_def
        try:
            graph = _air.parse(container.graph)
        except ValueError as exc:
            raise ModelError(ACL_ERROR_PARSE_MODEL, f"model {model.name}: its graph does not load: {exc}") from None
        _check_ops(graph)
        device_id, ret = acl.rt.get_device()
        if ret != 0:
            raise ModelError(ret, f"model {model.name}: no current device ({acl.get_recent_err_msg()})")
        try:
            self.stepped = SteppedModel(graph, {"ge.socVersion": model.soc_version}, device_id, own_runtime=False)
        except (GraphCompileError, ModelRunError) as exc:
            raise ModelError(ACL_ERROR_GE_FAILURE, f"model {model.name}: {str(exc).splitlines()[0]}") from None
        self.name = model.name
        global _live_models
        with _live_lock:
            _live_models += 1
        self._open = True

    @property
    def compiled_signatures(self) -> int:
        return self.stepped.compiled_signatures

    def execute(self, packed_inputs: bytes) -> bytes:
        from ge._compiler.errors import GraphCompileError, ModelRunError

        try:
            outputs = self.stepped.run_device(_unpack_inputs(packed_inputs))
        except ModelRunError as exc:
            code = ACL_ERROR_MODEL_INPUT_NOT_MATCH if str(exc).startswith("input ") else ACL_ERROR_GE_FAILURE
            raise ModelError(code, f"model {self.name}: {str(exc).splitlines()[0]}") from None
        except GraphCompileError as exc:
            raise ModelError(ACL_ERROR_GE_FAILURE, f"model {self.name}: {str(exc).splitlines()[0]}") from None
        return _pack_outputs(outputs)

    def close(self) -> None:
        global _live_models
        if not self._open:
            return
        self._open = False
        self.stepped.close()
        with _live_lock:
            _live_models -= 1
            last = _live_models == 0
        if last:
            from ge._compiler import reset_holders

            reset_holders()


def load(om_bytes: bytes, acl_library: str) -> PythonModel:
    _use_acl_library(acl_library)
    _use_loaded_graph_library()
    from twin.om import om

    try:
        import acl
    except ImportError as exc:
        raise ModelError(
            ACL_ERROR_FEATURE_UNSUPPORTED, f"no Python environment: pyACL is not importable: {exc}"
        ) from None
    try:
        container = om.read(om_bytes)
    except om.OmFormatError as exc:  # the runtime validated it already; kept for direct callers
        raise ModelError(ACL_ERROR_PARSE_MODEL, str(exc)) from None
    if not container.requires_python:
        raise ModelError(ACL_ERROR_PARSE_MODEL, f"model {container.model_def.name} does not run through Python")
    return PythonModel(container, acl)
