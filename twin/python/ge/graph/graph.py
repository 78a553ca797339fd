"""ge.graph.Graph: a named graph backed by the in-memory IR of ``_ir.py``."""

import os
import tempfile
from typing import List, Optional

from ._ir import GraphIR, Node


class Graph:
    def __init__(self, name: str = "graph") -> None:
        if not isinstance(name, str):
            raise TypeError("Graph name must be a string")
        self._ir = GraphIR(name=name)

    @classmethod
    def _from_ir(cls, ir: GraphIR) -> "Graph":
        graph = cls.__new__(cls)
        graph._ir = ir
        return graph

    def __copy__(self):
        raise RuntimeError("Graph does not support copy")

    def __deepcopy__(self, memodict):
        raise RuntimeError("Graph does not support deepcopy")

    @property
    def name(self) -> str:
        return self._ir.name

    def get_all_nodes(self) -> List[Node]:
        return list(self._ir.nodes.values())

    def get_node(self, name: str) -> Optional[Node]:
        return self._ir.nodes.get(name)

    def save_to_air(self, file_path: str) -> None:
        """Serialize to an AIR file (written to a temp file, then renamed into place)."""
        from . import _air

        if not isinstance(file_path, str) or not file_path:
            raise TypeError("file_path must be a non-empty string")
        try:
            payload = _air.serialize(self._ir)
        except ValueError as exc:
            raise RuntimeError(f"Failed to save graph {self.name} to {file_path}: {exc}") from exc
        directory = os.path.dirname(os.path.abspath(file_path))
        try:
            fd, tmp = tempfile.mkstemp(prefix=".air-", dir=directory)
        except OSError as exc:
            raise RuntimeError(f"Failed to save graph {self.name} to {file_path}: {exc.strerror}") from None
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(payload)
            os.replace(tmp, file_path)
        except BaseException:
            os.unlink(tmp)
            raise

    def load_from_air(self, file_path: str) -> None:
        """Replace this graph's content with the graph stored in an AIR file."""
        from . import _air

        if not isinstance(file_path, str) or not file_path:
            raise TypeError("file_path must be a non-empty string")
        try:
            with open(file_path, "rb") as src:
                payload = src.read()
        except OSError as exc:
            raise RuntimeError(f"Failed to load graph from {file_path}: {exc.strerror}") from None
        try:
            self._ir = _air.parse(payload)
        except ValueError as exc:
            raise RuntimeError(f"Failed to load graph from {file_path}: {exc}") from exc

    def dump_to_file(self, file_path: str) -> None:
        """Write a human-readable listing of nodes and edges."""
        lines = [f"graph {self.name}"]
        for node in self._ir.nodes.values():
            ins = ", ".join(
                f"{n}<-{s.node}:{s.index}" if s else f"{n}<-none" for n, s in zip(node.input_names, node.inputs)
            )
            outs = ", ".join(f"{n}:{d.data_type.name}{d.shape}" for n, d in zip(node.output_names, node.output_descs))
            attrs = ", ".join(f"{k}={v.value!r}" for k, v in node.attrs.items())
            lines.append(f"  {node.type} {node.name}({ins}) -> ({outs}) [{attrs}]")
        lines.append("  outputs: " + ", ".join(f"{e.node}:{e.index}" for e in self._ir.outputs))
        with open(file_path, "w") as out:
            out.write("\n".join(lines) + "\n")
