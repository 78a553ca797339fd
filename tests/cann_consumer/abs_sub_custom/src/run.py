"""Online: build y = |x1 - x2| with the ES wrapper, run it in a GE Session, check against numpy."""

import os
import sys
import traceback

import numpy as np

from ge.es.graph_builder import GraphBuilder
from ge.ge_global import GeApi
from ge.graph import Tensor
from ge.graph.types import DataType, Format
from ge.session import Session

SHAPE = [4, 2048]


def build_graph():
    from es_custom import AbsSubCustom

    builder = GraphBuilder("abs_sub_graph")
    x1 = builder.create_input(index=0, name="x1", data_type=DataType.DT_FLOAT, format=Format.FORMAT_ND, shape=SHAPE)
    x2 = builder.create_input(index=1, name="x2", data_type=DataType.DT_FLOAT, format=Format.FORMAT_ND, shape=SHAPE)
    y = AbsSubCustom(x1, x2)
    y.set_shape(SHAPE).set_format(Format.FORMAT_ND).set_data_type(DataType.DT_FLOAT)
    builder.set_graph_output(y, 0)
    return builder.build_and_reset()


def main() -> int:
    seed = int(os.environ.get("ABS_SUB_SEED", "20261201"))
    print(f"seed={seed}", flush=True)
    rng = np.random.default_rng(seed)
    a = rng.standard_normal(SHAPE).astype(np.float32)
    b = rng.standard_normal(SHAPE).astype(np.float32)
    options = {"ge.exec.deviceId": "0", "ge.graphRunMode": "1"}
    api = GeApi()
    api.ge_initialize(options)
    try:
        session = Session(options)
        session.add_graph(1, build_graph())
        inputs = [Tensor(v.ravel().tolist(), None, DataType.DT_FLOAT, Format.FORMAT_ND, SHAPE) for v in (a, b)]
        outputs = session.run_graph(1, inputs)
        got = np.asarray(outputs[0].get_data(), dtype=np.float32).reshape(SHAPE)
        if not np.array_equal(got, np.abs(a - b)):
            raise RuntimeError(f"mismatch: {int((got != np.abs(a - b)).sum())} elements differ")
        session.remove_graph(1)
        print("PY_COMPILE_ONLINE_NPU=PASS", flush=True)
        return 0
    except Exception as error:  # report, as the CANN samples do, then fail
        print(f"PY_COMPILE_ONLINE_NPU=FAIL: {error}", flush=True)
        traceback.print_exc()
        return 1
    finally:
        api.ge_finalize()


if __name__ == "__main__":
    sys.exit(main())
