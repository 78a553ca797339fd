"""PythonCompilableAddCustom's OPP library through the graph C ABI (ctypes), as ge's Python side
loads it from ASCEND_CUSTOM_OPP_PATH."""
from __future__ import annotations

import ctypes
import json
import os
import platform
import random
import shutil
from pathlib import Path

import numpy as np
import pytest

GRAPH_SUCCESS = 0
GRAPH_FAILED = 0xFFFFFFFF


def runfile(path: str) -> Path:
    return Path(os.environ["TEST_SRCDIR"]) / os.environ["TEST_WORKSPACE"] / path


def call(lib, fn, *args):
    out, err = ctypes.c_void_p(), ctypes.c_void_p()
    status = fn(*args, ctypes.byref(out), ctypes.byref(err))
    text = ctypes.string_at(out.value).decode() if out.value else None
    error = ctypes.string_at(err.value).decode() if err.value else None
    lib.GeTwinGraphFreeString(out)
    lib.GeTwinGraphFreeString(err)
    return status, (json.loads(text) if text else None), error


@pytest.fixture(scope="module")
def lib(tmp_path_factory):
    graph = ctypes.CDLL(str(runfile("twin/graph/libgraph.so")))
    for name in ("GeTwinGraphLoadOppLibraries", "GeTwinGraphListOpProtos", "GeTwinGraphInferOp"):
        getattr(graph, name).restype = ctypes.c_uint32
    graph.GeTwinGraphFreeString.argtypes = [ctypes.c_void_p]
    root = tmp_path_factory.mktemp("custom_opp")
    lib_dir = root / "op_graph" / "lib" / "linux" / platform.machine()
    lib_dir.mkdir(parents=True)
    shutil.copy(runfile("ops/add_custom/proto/libcust_opapi.so"), lib_dir / "libcust_opapi.so")
    os.environ["ASCEND_CUSTOM_OPP_PATH"] = str(root)
    status, loaded, error = call(graph, graph.GeTwinGraphLoadOppLibraries, None)
    assert status == GRAPH_SUCCESS, error
    assert loaded["loaded"] == [str(lib_dir / "libcust_opapi.so")]
    return graph


def infer(lib, x1: np.ndarray, x2: np.ndarray):
    request = {"op_type": "PythonCompilableAddCustom",
               "inputs": [{"shape": list(x1.shape), "dtype": "DT_FLOAT"},
                          {"shape": list(x2.shape), "dtype": "DT_FLOAT"}]}
    return call(lib, lib.GeTwinGraphInferOp, json.dumps(request).encode())


def test_ir(lib) -> None:
    _, listing, _ = call(lib, lib.GeTwinGraphListOpProtos)
    op = next(o for o in listing["ops"] if o["op_type"] == "PythonCompilableAddCustom")
    assert [(i["name"], i["kind"]) for i in op["inputs"]] == [("x1", "REQUIRED"), ("x2", "REQUIRED")]
    assert [(o["name"], o["kind"]) for o in op["outputs"]] == [("y", "REQUIRED")]
    assert op["attrs"] == [] and op["datatypes"] == {"T": ["DT_FLOAT"]}


def test_infer_matches_numpy(lib) -> None:
    seed = int(os.environ.get("GE_TWIN_TEST_SEED", random.randrange(2**32)))
    print(f"[seed] GE_TWIN_TEST_SEED={seed}")
    rng = np.random.default_rng(seed)
    for _ in range(25):
        shape = tuple(int(d) for d in rng.integers(1, 9, size=int(rng.integers(0, 5))))
        x1 = rng.standard_normal(shape).astype(np.float32)
        x2 = rng.standard_normal(shape).astype(np.float32)
        status, result, error = infer(lib, x1, x2)
        assert status == GRAPH_SUCCESS, error
        (y,) = result["outputs"]
        expected = x1 + x2
        assert y["shape"] == list(expected.shape)
        assert y["dtype"] == "DT_FLOAT" and expected.dtype == np.float32


def test_mismatched_shapes_fail(lib) -> None:
    status, result, error = infer(lib, np.ones((2, 3), np.float32), np.ones((2, 4), np.float32))
    assert status == GRAPH_FAILED and result is None
    assert "InferShape of op 'PythonCompilableAddCustom'" in error
    # the op's own OP_LOGE diagnostic is the cause the error reports
    assert error.endswith("x1 shape [2,3] and x2 shape [2,4] differ"), error
