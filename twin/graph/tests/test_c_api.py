"""The graph library's C ABI through ctypes, as the Python `ge` package uses it."""
from __future__ import annotations

import ctypes
import json
import os
import platform
import random
import shutil
from pathlib import Path

import pytest

GRAPH_SUCCESS = 0
GRAPH_FAILED = 0xFFFFFFFF
GRAPH_PARAM_INVALID = 50331649


def runfile(path: str) -> Path:
    root = Path(os.environ.get("TEST_SRCDIR", ".")) / os.environ.get("TEST_WORKSPACE", "")
    return root / path


class GraphLib:
    def __init__(self, path: Path) -> None:
        self.lib = ctypes.CDLL(str(path))
        for name in ("GeTwinGraphLoadOppLibraries", "GeTwinGraphListOpProtos", "GeTwinGraphInferOp",
                     "GeTwinGraphDescribeAir"):
            getattr(self.lib, name).restype = ctypes.c_uint32
        self.lib.GeTwinGraphFreeString.argtypes = [ctypes.c_void_p]

    def _call(self, fn, *args) -> tuple[int, dict | None, str | None]:
        out, err = ctypes.c_void_p(), ctypes.c_void_p()
        status = fn(*args, ctypes.byref(out), ctypes.byref(err))
        text = ctypes.string_at(out.value).decode() if out.value else None
        error = ctypes.string_at(err.value).decode() if err.value else None
        self.lib.GeTwinGraphFreeString(out)
        self.lib.GeTwinGraphFreeString(err)
        return status, (json.loads(text) if text else None), error

    def load(self, roots: str):
        return self._call(self.lib.GeTwinGraphLoadOppLibraries, roots.encode())

    def protos(self) -> dict:
        status, listing, error = self._call(self.lib.GeTwinGraphListOpProtos)
        assert status == GRAPH_SUCCESS, error
        return {op["op_type"]: op for op in listing["ops"]}

    def infer(self, request: dict):
        return self._call(self.lib.GeTwinGraphInferOp, json.dumps(request).encode())


@pytest.fixture(scope="module")
def graph(tmp_path_factory) -> GraphLib:
    lib = GraphLib(runfile("twin/graph/libgraph.so"))
    root = tmp_path_factory.mktemp("opp")
    lib_dir = root / "op_graph" / "lib" / "linux" / platform.machine()
    lib_dir.mkdir(parents=True)
    shutil.copy(runfile("twin/graph/tests/libtest_opp.so"), lib_dir / "libcust_opapi.so")
    status, loaded, error = lib.load(str(root))
    assert status == GRAPH_SUCCESS, error
    assert loaded == {"loaded": [str(lib_dir / "libcust_opapi.so")]}
    return lib


def test_listing_has_ir(graph: GraphLib) -> None:
    protos = graph.protos()
    concat = protos["TwinConcatTest"]
    assert [(i["name"], i["kind"]) for i in concat["inputs"]] == [("x", "DYNAMIC"), ("bias", "OPTIONAL")]
    assert [(o["name"], o["kind"]) for o in concat["outputs"]] == [("y", "REQUIRED"), ("extra", "DYNAMIC")]
    axis = concat["attrs"][0]
    assert axis == {"name": "axis", "type": "Int", "value_type": "VT_INT", "required": True}
    defaults = {a["name"]: a.get("default") for a in concat["attrs"]}
    assert defaults["pads"] == [1, 2, 3] and defaults["mode"] == "sum" and defaults["names"] == ["a", "b"]
    assert protos["Data"]["attrs"] == [{"name": "index", "type": "Int", "value_type": "VT_INT",
                                        "required": False, "default": 0}]


def test_infer_concat_matches_numpy(graph: GraphLib) -> None:
    np = pytest.importorskip("numpy")
    seed = int(os.environ.get("GE_TWIN_TEST_SEED", random.randrange(2**32)))
    print(f"[seed] GE_TWIN_TEST_SEED={seed}")
    rng = np.random.default_rng(seed)
    for _ in range(30):
        rank = int(rng.integers(1, 5))
        axis = int(rng.integers(-rank, rank))
        arrays = []
        base = rng.integers(1, 6, size=rank)
        for _ in range(int(rng.integers(1, 5))):
            dims = base.copy()
            dims[axis] = rng.integers(1, 6)
            arrays.append(rng.standard_normal(dims).astype(np.float32))
        request = {
            "op_type": "TwinConcatTest",
            "inputs": [[{"shape": list(map(int, a.shape)), "dtype": "DT_FLOAT"} for a in arrays], None],
            "attrs": {"axis": axis},
            "dynamic_output_counts": {"extra": 1},
        }
        status, result, error = graph.infer(request)
        assert status == GRAPH_SUCCESS, error
        expected = np.concatenate(arrays, axis=axis)
        y, extra = result["outputs"]
        assert y["shape"] == list(expected.shape)
        assert y["dtype"] == "DT_FLOAT"
        assert extra == {"name": "extra0", "ir_name": "extra", "ir_index": 1, "shape": [3, 15, 0],
                         "dtype": "DT_INT32"}


def test_non_finite_float_attrs_cross_the_json_boundary(graph: GraphLib) -> None:
    """Python's json writes inf/nan as Infinity/NaN; the library must read them (and write them
    back the same way), not fail the whole request as invalid JSON."""
    for scale in (float("inf"), float("-inf"), float("nan")):
        request = {"op_type": "TwinConcatTest", "inputs": [[{"shape": [2, 3], "dtype": "DT_FLOAT"}], None],
                   "attrs": {"axis": 0, "scale": scale, "weights": [scale, 1.0]},
                   "dynamic_output_counts": {"extra": 0}}
        assert "Infinity" in json.dumps(request) or "NaN" in json.dumps(request)
        status, result, error = graph.infer(request)
        assert status == GRAPH_SUCCESS, error
        assert result["outputs"][0]["shape"] == [2, 3]


def test_infer_failures(graph: GraphLib) -> None:
    status, result, error = graph.infer({"op_type": "TwinConcatTest",
                                         "inputs": [[{"shape": [2], "dtype": "DT_FLOAT"}], None],
                                         "attrs": {"axis": 3}, "dynamic_output_counts": {"extra": 0}})
    assert (status, result) == (GRAPH_FAILED, None)
    assert "InferShape of op 'TwinConcatTest'" in error
    status, _, error = graph.infer({"op_type": "TwinNoImplTest", "inputs": [{"shape": [1], "dtype": 0}]})
    assert status == GRAPH_PARAM_INVALID and "has no IMPL_OP registration" in error
    status, _, error = graph.load("/nonexistent/opp/root")
    assert status == GRAPH_FAILED and "'/nonexistent/opp/root'" in error
