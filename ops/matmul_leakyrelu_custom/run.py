"""MatmulLeakyReluCustom's online flow: c = MatmulLeakyReluCustom(a, b, bias) through a GE Session
for several shapes (tails past the base blocks, one core and many), compared with numpy.

    ASCEND_HOME_PATH=<CANN> ASCEND_CUSTOM_OPP_PATH=<OPP root>:<plugin dir> PYTHONPATH=...:<es dir> \
        python3 run.py [--soc Ascend910B1] [--shapes 64x64x64,300x190x333] [--negative_slope 0.1] [--seed N]

The reference is numpy: float64 a @ b + bias, then LeakyRelu; the kernel's fp16 products are
exact in fp32 and it accumulates in fp32, so c must be within sqrt(K) * 1e-5 * max|c| of it.
Prints MATMUL_LEAKYRELU_ONLINE=PASS when every case matches.
"""

import argparse
import random
import sys

import numpy as np
from es_matmul_leakyrelu_ops import MatmulLeakyReluCustom

from ge.error import GeError
from ge.es.graph_builder import GraphBuilder
from ge.ge_global import GeApi
from ge.graph import DataType, Format, Tensor
from ge.session import Session


def build_graph(m: int, n: int, k: int, slope: float):
    builder = GraphBuilder(f"matmul_leakyrelu_{m}x{n}x{k}")
    a = builder.create_input(0, name="a", data_type=DataType.DT_FLOAT16, format=Format.FORMAT_ND, shape=[m, k])
    b = builder.create_input(1, name="b", data_type=DataType.DT_FLOAT16, format=Format.FORMAT_ND, shape=[k, n])
    bias = builder.create_input(2, name="bias", data_type=DataType.DT_FLOAT, format=Format.FORMAT_ND, shape=[n])
    c = MatmulLeakyReluCustom(a, b, bias, negative_slope=slope)
    return builder.build_and_reset([c])


def reference(a, b, bias, slope):
    y = a.astype(np.float64) @ b.astype(np.float64) + bias.astype(np.float64)
    return np.where(y >= 0, y, y * slope)


def run_case(session, graph_id, shape, slope, rng) -> bool:
    m, n, k = shape
    a = rng.uniform(-1, 1, (m, k)).astype(np.float16)
    b = rng.uniform(-1, 1, (k, n)).astype(np.float16)
    bias = rng.uniform(-1, 1, n).astype(np.float32)
    session.add_graph(graph_id, build_graph(m, n, k, slope))
    inputs = [
        Tensor(a.reshape(-1).tolist(), None, DataType.DT_FLOAT16, Format.FORMAT_ND, [m, k]),
        Tensor(b.reshape(-1).tolist(), None, DataType.DT_FLOAT16, Format.FORMAT_ND, [k, n]),
        Tensor(bias.tolist(), None, DataType.DT_FLOAT, Format.FORMAT_ND, [n]),
    ]
    (c,) = session.run_graph(graph_id, inputs)
    got = np.asarray(c.get_data(), dtype=np.float32).reshape(m, n)
    want = reference(a, b, bias, slope)
    tol = np.sqrt(k) * 1e-5 * max(1.0, float(np.abs(want).max()))
    err = float(np.abs(got - want).max())
    ok = err <= tol
    print(
        f"{m}x{n}x{k}: {'c == leaky_relu(a @ b + bias)' if ok else 'MISMATCH'} (max error {err:.2e}, "
        f"tolerance {tol:.2e})",
        flush=True,
    )
    return ok


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--soc", default="Ascend910B1")
    parser.add_argument("--shapes", default="64x64x64,77x131x45,300x190x333,128x2048x1024")
    parser.add_argument("--negative_slope", type=float, default=0.01)
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args(argv)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    print(f"seed={seed} soc={args.soc} negative_slope={args.negative_slope}", flush=True)
    rng = np.random.default_rng(seed)
    shapes = [tuple(int(v) for v in s.split("x")) for s in args.shapes.split(",") if s]
    GeApi.ge_initialize({"ge.exec.deviceId": "0", "ge.graphRunMode": "1", "ge.socVersion": args.soc})
    try:
        session = Session({"ge.socVersion": args.soc})
        ok = all([run_case(session, gid, shape, args.negative_slope, rng) for gid, shape in enumerate(shapes, 1)])
    except GeError as exc:
        print(f"run.py: {exc}", file=sys.stderr, flush=True)
        ok = False
    finally:
        GeApi.ge_finalize()
    print(f"MATMUL_LEAKYRELU_ONLINE={'PASS' if ok else 'FAIL'}", flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
