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

The graph is compiled on its first run_graph, as GE builds a graph on first RunGraph.
"""

import copy
import threading
from typing import Dict, List, Optional

from ge import _state
from ge.error import GeError, make_ge_error
from ge.graph.graph import Graph
from ge.graph.tensor import Tensor


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
            raise make_ge_error(api_name, "graph compiler backend not available "
                                f"(module {exc.name} is missing)", **context) from exc
        raise make_ge_error(api_name, f"graph compiler backend failed to import: {exc}", **context) from exc
    except Exception as exc:
        raise make_ge_error(api_name, f"graph compiler backend failed to import: {type(exc).__name__}: {exc}",
                            **context) from exc
    return backend


class _GraphEntry:
    def __init__(self, ir, options: Dict[str, str]) -> None:
        self.ir = ir
        self.options = options
        self.model = None


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
        self._check_graph_id(graph_id)
        if not isinstance(inputs, list):
            raise TypeError("inputs must be a list of Tensor")
        if not all(isinstance(t, Tensor) for t in inputs):
            raise TypeError("All elements in inputs must be the type of Tensor")
        with self._lock:
            entry = self._graphs.get(graph_id)
            if entry is None:
                raise make_ge_error("RunGraph", "graph id not found", graph_id=graph_id)
            arrays = []
            for index, tensor in enumerate(inputs):
                array = tensor._to_numpy()
                if array is None:
                    raise make_ge_error("RunGraph", f"input {index} has no data", graph_id=graph_id)
                arrays.append(array)
            if entry.model is None:
                backend = _load_backend("RunGraph", graph_id=graph_id)
                try:
                    entry.model = backend.compile_graph(copy.deepcopy(entry.ir), dict(entry.options))
                except GeError:
                    raise
                except Exception as exc:
                    raise make_ge_error("RunGraph", f"compile failed: {type(exc).__name__}: {exc}",
                                        graph_id=graph_id) from exc
            model = entry.model
        try:
            results = model.run(arrays)
        except GeError:
            raise
        except Exception as exc:
            raise make_ge_error("RunGraph", f"execute failed: {type(exc).__name__}: {exc}", graph_id=graph_id) from exc
        types = getattr(model, "output_data_types", None)
        try:
            return [Tensor._from_numpy(array, None if types is None else types[i]) for i, array in enumerate(results)]
        except ValueError as exc:
            raise make_ge_error("RunGraph", f"bad output from backend: {exc}", graph_id=graph_id) from exc
