#!/usr/bin/env python3
"""The sample's online flow: build y = x1 + x2 with the generated ES wrapper, run it through a GE
Session and compare with numpy.

    ASCEND_HOME_PATH=<CANN> ASCEND_CUSTOM_OPP_PATH=<OPP root>:<plugin dir> \
        python3 run.py [--soc Ascend910B1] [--sizes 1024,65536] [--seed N]

Prints PY_COMPILE_MODULE_LOADED=1 (from the plugin import), one PY_COMPILE_CALLBACK_ENTER=1 line
per compiled node, and PY_COMPILE_ONLINE_NPU=PASS when every size matches numpy exactly
(float32 addition is exact, so the comparison is bitwise).
"""

import argparse
import random
import sys

import numpy as np
from es_custom import PythonCompilableAddCustom

from ge.es.graph_builder import GraphBuilder
from ge.ge_global import GeApi
from ge.graph import DataType, Format, Tensor
from ge.session import Session


def build_add_graph(size: int):
    builder = GraphBuilder(f"add_custom_{size}")
    x1 = builder.create_input(0, name="x1", data_type=DataType.DT_FLOAT, format=Format.FORMAT_ND, shape=[size])
    x2 = builder.create_input(1, name="x2", data_type=DataType.DT_FLOAT, format=Format.FORMAT_ND, shape=[size])
    y = PythonCompilableAddCustom(x1, x2)
    return builder.build_and_reset([y])


def run_size(session: Session, graph_id: int, size: int, rng: np.random.Generator) -> bool:
    x1 = rng.uniform(-100.0, 100.0, size).astype(np.float32)
    x2 = rng.uniform(-100.0, 100.0, size).astype(np.float32)
    session.add_graph(graph_id, build_add_graph(size))
    inputs = [Tensor(x.tolist(), None, DataType.DT_FLOAT, Format.FORMAT_ND, [size]) for x in (x1, x2)]
    (y,) = session.run_graph(graph_id, inputs)
    got = np.asarray(y.get_data(), dtype=np.float32).reshape(-1)
    expected = x1 + x2
    if got.shape != expected.shape or not np.array_equal(got, expected):
        bad = np.flatnonzero(got != expected) if got.shape == expected.shape else []
        where = (
            f"first mismatch at {bad[0]}: {got[bad[0]]} != {expected[bad[0]]}"
            if len(bad)
            else f"shape {got.shape} != {expected.shape}"
        )
        print(f"size {size}: MISMATCH ({where})", flush=True)
        return False
    print(f"size {size}: y == x1 + x2 ({size} floats)", flush=True)
    return True


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--soc", default="Ascend910B1", help="SoC version (ge.socVersion)")
    parser.add_argument("--sizes", default="1024,8192,65536", help="comma-separated element counts")
    parser.add_argument("--seed", type=int, default=None, help="random seed (printed; random if omitted)")
    args = parser.parse_args(argv)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    print(f"seed={seed} soc={args.soc}", flush=True)
    rng = np.random.default_rng(seed)
    sizes = [int(s) for s in args.sizes.split(",") if s]

    GeApi.ge_initialize({"ge.exec.deviceId": "0", "ge.graphRunMode": "1", "ge.socVersion": args.soc})
    try:
        session = Session({"ge.socVersion": args.soc})
        ok = all([run_size(session, graph_id, size, rng) for graph_id, size in enumerate(sizes, start=1)])
    finally:
        GeApi.ge_finalize()
    if not ok:
        print("PY_COMPILE_ONLINE_NPU=FAIL", flush=True)
        return 1
    print("PY_COMPILE_ONLINE_NPU=PASS", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
