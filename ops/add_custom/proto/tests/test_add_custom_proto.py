"""PythonCompilableAddCustom's OPP library through the graph C ABI, with the bindings ge's Python
side uses (ge.graph._c_api) when it loads the library from ASCEND_CUSTOM_OPP_PATH."""

from __future__ import annotations

import os
import platform
import random
import shutil
from pathlib import Path

import numpy as np
import pytest

from ge.graph._c_api import GraphCApi, GraphCApiError, capi_pb2
from ge.graph.types import DataType

GRAPH_FAILED = 0xFFFFFFFF


def runfile(path: str) -> Path:
    return Path(os.environ["TEST_SRCDIR"]) / os.environ["TEST_WORKSPACE"] / path


@pytest.fixture(scope="module")
def api(tmp_path_factory) -> GraphCApi:
    graph = GraphCApi(runfile("twin/graph/libgraph.so"))
    root = tmp_path_factory.mktemp("custom_opp")
    lib_dir = root / "op_graph" / "lib" / "linux" / platform.machine()
    lib_dir.mkdir(parents=True)
    shutil.copy(runfile("ops/add_custom/proto/libcust_opapi.so"), lib_dir / "libcust_opapi.so")
    os.environ["ASCEND_CUSTOM_OPP_PATH"] = str(root)
    assert graph.load_opp_libraries(None) == [str(lib_dir / "libcust_opapi.so")]
    return graph


def infer(api: GraphCApi, x1: np.ndarray, x2: np.ndarray):
    request = capi_pb2().InferRequest(op_type="PythonCompilableAddCustom")
    for x in (x1, x2):
        request.inputs.add().instances.add(shape=list(x.shape), dtype=DataType.DT_FLOAT)
    return api.infer(request)


def test_ir(api: GraphCApi) -> None:
    op = next(o for o in api.list_op_protos().ops if o.op_type == "PythonCompilableAddCustom")
    required = capi_pb2().IR_REQUIRED
    assert [(i.name, i.kind) for i in op.inputs] == [("x1", required), ("x2", required)]
    assert [(o.name, o.kind) for o in op.outputs] == [("y", required)]
    assert list(op.attrs) == []
    assert [(d.name, list(d.dtypes.values)) for d in op.datatypes] == [("T", [DataType.DT_FLOAT])]


def test_infer_matches_numpy(api: GraphCApi) -> None:
    seed = int(os.environ.get("GE_TWIN_TEST_SEED", random.randrange(2**32)))
    print(f"[seed] GE_TWIN_TEST_SEED={seed}")
    rng = np.random.default_rng(seed)
    for _ in range(25):
        shape = tuple(int(d) for d in rng.integers(1, 9, size=int(rng.integers(0, 5))))
        x1 = rng.standard_normal(shape).astype(np.float32)
        x2 = rng.standard_normal(shape).astype(np.float32)
        (y,) = infer(api, x1, x2).outputs
        expected = x1 + x2
        assert list(y.shape) == list(expected.shape)
        assert y.dtype == DataType.DT_FLOAT and expected.dtype == np.float32


def test_mismatched_shapes_fail(api: GraphCApi) -> None:
    with pytest.raises(GraphCApiError) as info:
        infer(api, np.ones((2, 3), np.float32), np.ones((2, 4), np.float32))
    error = str(info.value)
    assert info.value.status == GRAPH_FAILED
    assert "InferShape of op 'PythonCompilableAddCustom'" in error
    # the op's own OP_LOGE diagnostic is the cause the error reports
    assert error.endswith("x1 shape [2,3] and x2 shape [2,4] differ"), error
