"""ge.session.Session: add graphs and run them (reference §3.5).

Compiling and executing are delegated to the graph compiler backend ``ge._compiler.backend``,
which must provide:

    compile_graph(graph: ge.graph._ir.GraphIR, options: dict[str, str]) -> CompiledModel
        Compile a private copy of the graph (infer shapes, run Python custom ops' compile and
        declare_launch_args, plan memory). ``options`` = ge_initialize options, overridden by
        session options, overridden by add_graph options. Raise on any failure.

    CompiledModel.run(inputs: list[numpy.ndarray]) -> list[numpy.ndarray]
        Execute once; inputs in graph-input order (Data ``index``), outputs in graph-output
        order. Optional attribute ``output_data_types: list[ge.graph.DataType]`` names output
        types numpy cannot express (e.g. DT_BF16 stored as uint16).

The graph is compiled on its first run_graph, as GE builds a graph on first RunGraph. The
session reads ``run`` and ``output_data_types`` once, right after compiling; the model must
check its inputs (count, dtype, size) itself and serialize concurrent runs — later run_graph
calls go to ``run`` without taking the session lock. Output arrays that are C-contiguous
ndarrays are wrapped without a copy, so ``run`` must return arrays the caller may keep.
"""

import copy
import threading
from typing import Any, Callable, Dict, List, Optional

from ge import _state
from ge.error import GeError, make_ge_error
from ge.graph.graph import Graph
from ge.graph.tensor import Tensor, _tensor_of_array
from ge.graph.types import DataType


def _check_options(options, what: str) -> Dict[str, str]:
    if not isinstance(options, dict):
        raise TypeError(f"{what} must be a dictionary")
    for key, value in options.items():
        if not isinstance(key, str) or not isinstance(value, str):
            raise TypeError(f"{what} keys and values must be strings")
    return dict(options)


def _load_backend(api_name: str, **context):
    try:
        from ge._compiler import backend
    except ModuleNotFoundError as exc:
        if exc.name in ("ge._compiler", "ge._compiler.backend"):
            raise make_ge_error(
                api_name, f"graph compiler backend not available (module {exc.name} is missing)", **context
            ) from exc
        raise make_ge_error(api_name, f"graph compiler backend failed to import: {exc}", **context) from exc
    except Exception as exc:
        raise make_ge_error(
            api_name, f"graph compiler backend failed to import: {type(exc).__name__}: {exc}", **context
        ) from exc
    return backend


_from_numpy = Tensor._from_numpy


def _output_tensors(results, types: Optional[List[DataType]], api_name: str, **context) -> List[Tensor]:
    """The backend's output arrays as Tensors (of the model's declared types when it has them);
    a count that differs from those types, or an array a Tensor cannot hold, is a GeError."""
    try:
        if types is None:
            return [_from_numpy(array) for array in results]
        if len(results) != len(types):
            raise ValueError(f"{len(results)} outputs, the model declares {len(types)} output types")
        return list(map(_tensor_of_array, results, types))
    except (ValueError, TypeError) as exc:
        raise make_ge_error(api_name, f"bad output from backend: {exc}", **context) from exc


def _synchronize(stream: int) -> None:
    """Waits for the work queued on a caller's aclrtStream (pyACL)."""
    import acl

    ret = acl.rt.synchronize_stream(stream)
    if ret != 0:
        raise RuntimeError(
            f"aclrtSynchronizeStream(0x{stream:x}) failed with ACL error {ret}: {acl.get_recent_err_msg()}"
        )


class _GraphEntry:
    def __init__(self, ir, options: Dict[str, str]) -> None:
        self.ir = ir
        self.options = options
        self.model = None
        self.run: Optional[Callable[..., Any]] = None  # model.run, bound once the graph is compiled
        self.output_types: Optional[List[DataType]] = None

    def set_model(self, model, graph_id: int) -> None:
        """Per-graph state computed once: the bound run method and the output DataTypes."""
        types = getattr(model, "output_data_types", None)
        if types is not None:
            try:
                types = [DataType(t) for t in types]
            except (ValueError, TypeError) as exc:
                close = getattr(model, "close", None)
                if close is not None:
                    close()  # the model is unusable: release what it loaded
                raise make_ge_error("RunGraph", f"bad output types from backend: {exc}", graph_id=graph_id) from exc
        self.model, self.output_types = model, types
        self.run = model.run  # set last: a concurrent run_graph sees either nothing or all of it


# After GEFinalize a session's graphs no longer run (GE tears its sessions down there).
_FINALIZED = "GE is not initialized (GeApi.ge_finalize was called); call GeApi.ge_initialize first"


class Session:
    def __init__(self, options: Optional[dict] = None) -> None:
        self._options: Dict[str, str] = {} if options is None else _check_options(options, "option")
        if not _state.initialized:
            raise make_ge_error("CreateSession", "GE is not initialized; call GeApi.ge_initialize first")
        self._graphs: Dict[int, _GraphEntry] = {}
        self._lock = threading.RLock()

    def __copy__(self):
        raise RuntimeError("Session does not support copy")

    def __deepcopy__(self, memodict):
        raise RuntimeError("Session does not support deepcopy")

    def _check_graph_id(self, graph_id) -> int:
        if isinstance(graph_id, bool) or not isinstance(graph_id, int):
            raise TypeError("Graph_id must be an integer")
        return graph_id

    def add_graph(self, graph_id: int, add_graph: Graph, options: Optional[dict] = None) -> int:
        self._check_graph_id(graph_id)
        if not isinstance(add_graph, Graph):
            raise TypeError("Add_graph must be a Graph")
        graph_options = {} if options is None else _check_options(options, "options")
        with self._lock:
            if not _state.initialized:
                raise make_ge_error("AddGraph", "GE is not initialized", graph_id=graph_id)
            if graph_id in self._graphs:
                raise make_ge_error("AddGraph", "graph id already added", graph_id=graph_id)
            try:
                add_graph._ir.validate()
            except ValueError as exc:
                raise make_ge_error("AddGraph", str(exc), graph_id=graph_id) from exc
            merged = {**_state.global_options, **self._options, **graph_options}
            # the session keeps its own copy: later edits of the Graph object do not leak in
            self._graphs[graph_id] = _GraphEntry(copy.deepcopy(add_graph._ir), merged)
        return 0

    def remove_graph(self, graph_id: int) -> None:
        self._check_graph_id(graph_id)
        with self._lock:
            entry = self._graphs.pop(graph_id, None)
            if entry is None:
                raise make_ge_error("RemoveGraph", "graph id not found", graph_id=graph_id)
        close = getattr(entry.model, "close", None)  # release the loaded model's device memory
        if close is not None:
            try:
                close()
            except Exception as exc:
                raise make_ge_error("RemoveGraph", f"{type(exc).__name__}: {exc}", graph_id=graph_id) from exc

    def run_graph(self, graph_id: int, inputs: List[Tensor]) -> List[Tensor]:
        # Hot path: exact-type checks first (the isinstance forms below give the same answers,
        # subclasses included); a compiled graph runs without the session lock (dict reads are
        # atomic; the model serializes its own runs).
        if type(graph_id) is not int:
            self._check_graph_id(graph_id)
        if type(inputs) is not list and not isinstance(inputs, list):
            raise TypeError("inputs must be a list of Tensor")
        arrays = []
        for tensor in inputs:
            if type(tensor) is not Tensor and not isinstance(tensor, Tensor):
                raise TypeError("All elements in inputs must be the type of Tensor")
            arrays.append(tensor._array)
        entry = self._graphs.get(graph_id)
        if entry is None:
            raise make_ge_error("RunGraph", "graph id not found", graph_id=graph_id)
        if not _state.initialized:
            raise make_ge_error("RunGraph", _FINALIZED, graph_id=graph_id)
        for array in arrays:
            if array is None:
                index = next(i for i, a in enumerate(arrays) if a is None)
                raise make_ge_error("RunGraph", f"input {index} has no data", graph_id=graph_id)
        run = entry.run
        if run is None:
            run = self._prepare(graph_id).run
            assert run is not None  # _prepare compiled the graph, which binds run
        try:
            results = run(arrays)
        except GeError:
            raise
        except Exception as exc:
            raise make_ge_error("RunGraph", f"execute failed: {type(exc).__name__}: {exc}", graph_id=graph_id) from exc
        return _output_tensors(results, entry.output_types, "RunGraph", graph_id=graph_id)

    def run_graph_with_stream_async(self, graph_id: int, stream: int, inputs: List[Tensor]) -> List[Tensor]:
        """Runs the graph ordered after the work already queued on ``stream`` (an aclrtStream
        handle, e.g. ``acl.rt.create_stream()[0]``). A graph on the stepped executor queues its
        kernels on ``stream`` itself; a one-OM graph waits for ``stream`` and runs synchronously.
        Either way the returned host tensors are complete when this returns (so also after the
        caller synchronizes ``stream``, which is what CANN guarantees)."""
        self._check_graph_id(graph_id)
        if isinstance(stream, bool) or not isinstance(stream, int) or stream < 0:
            raise TypeError("stream must be an integer")
        if not isinstance(inputs, list) or not all(isinstance(t, Tensor) for t in inputs):
            raise TypeError("inputs must be a list of Tensor")
        context = {"graph_id": graph_id, "stream": f"0x{stream:x}"}
        if graph_id not in self._graphs:
            raise make_ge_error("RunGraphWithStreamAsync", "graph id not found", **context)
        if not _state.initialized:
            raise make_ge_error("RunGraphWithStreamAsync", _FINALIZED, **context)
        entry = self._prepare(graph_id)
        arrays = [t._array for t in inputs]
        if any(a is None for a in arrays):
            index = next(i for i, a in enumerate(arrays) if a is None)
            raise make_ge_error("RunGraphWithStreamAsync", f"input {index} has no data", **context)
        run_on = getattr(entry.model, "run_on_stream", None)
        try:
            if run_on is not None:
                results = run_on(arrays, stream)
            else:
                _synchronize(stream)
                run = entry.run
                assert run is not None  # _prepare compiled the graph, which binds run
                results = run(arrays)
        except GeError:
            raise
        except Exception as exc:
            raise make_ge_error(
                "RunGraphWithStreamAsync", f"execute failed: {type(exc).__name__}: {exc}", **context
            ) from exc
        return _output_tensors(results, entry.output_types, "RunGraphWithStreamAsync", **context)

    def _prepare(self, graph_id: int) -> _GraphEntry:
        """The graph's entry, compiled on its first run (as GE builds a graph on first RunGraph)."""
        with self._lock:
            entry = self._graphs.get(graph_id)
            if entry is None:
                raise make_ge_error("RunGraph", "graph id not found", graph_id=graph_id)
            if entry.model is None:
                backend = _load_backend("RunGraph", graph_id=graph_id)
                try:
                    model = backend.compile_graph(copy.deepcopy(entry.ir), dict(entry.options))
                except GeError:
                    raise
                except Exception as exc:
                    raise make_ge_error(
                        "RunGraph", f"compile failed: {type(exc).__name__}: {exc}", graph_id=graph_id
                    ) from exc
                entry.set_model(model, graph_id)
            return entry
