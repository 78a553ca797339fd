"""The Session backend (contract in ge/session/session.py): compile a graph on its first
run_graph and execute the resulting OM in-process through pyACL, reusing device buffers.
Graphs that cannot be one static OM (a Python ``execute`` node, a dynamic input shape) run on
the stepped executor (stepped_runner.py)."""

from typing import Mapping

from ge.graph._ir import GraphIR

from . import compile_graph as _compile_graph
from .acl_runner import LoadedModel
from .errors import GraphCompileError, NotStaticModelError

OPTION_DEVICE_ID = "ge.exec.deviceId"


class SessionModel:
    """A compiled and loaded graph: ``run`` takes and returns numpy arrays."""

    def __init__(self, om: bytes, description, device_id: int) -> None:
        self.om = om
        self.description = description
        self.output_data_types = [t.data_type for t in description.outputs]
        self._loaded = LoadedModel(om, description, device_id)
        # run(inputs: list[np.ndarray]) -> list[np.ndarray]: the loaded model's fastest run
        # itself, one call layer less on Session.run_graph's path
        self.run = self._loaded.runner()

    def close(self) -> None:
        self._loaded.close()


def _device_id(options: Mapping[str, str]) -> int:
    raw = options.get(OPTION_DEVICE_ID, "0")
    try:
        return int(raw)
    except ValueError:
        raise GraphCompileError(f"option {OPTION_DEVICE_ID}={raw!r} is not an integer") from None


def compile_graph(graph: GraphIR, options: Mapping[str, str]):
    device_id = _device_id(options)
    try:
        compiled = _compile_graph(graph, options, mode="online")
    except NotStaticModelError:  # the compiler's one check: a Python execute node or a dynamic input
        compiled = None
    if compiled is None:  # outside the handler: a failure here is not chained to that signal
        from .stepped_runner import SteppedModel

        return SteppedModel(graph, options, device_id)
    return SessionModel(compiled.om, compiled.description, device_id)
