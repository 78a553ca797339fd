#!/usr/bin/env python3
"""LeakyReluCustom's online flow: build y = LeakyReluCustom(x, negative_slope) with the generated ES
wrapper, run it through a GE Session for float16 and float32 inputs of several sizes, compare with
numpy.

    ASCEND_HOME_PATH=<CANN> ASCEND_CUSTOM_OPP_PATH=<OPP root>:<plugin dir> PYTHONPATH=...:<es dir> \
        python3 run.py [--soc Ascend910B1] [--sizes 1000,4099] [--dtypes float16,float32]
                       [--negative_slope 0.2] [--seed N]

The reference is numpy in float32 (x >= 0 ? x : x * slope), rounded once to float16 for float16
inputs, as the kernel does; float32 must match exactly, float16 within FP16_ATOL + FP16_RTOL * |ref|
(the kernel rounds once too, so in practice it matches bit for bit; the tolerance covers a
different but correct rounding of ties). Prints LEAKY_RELU_ONLINE=PASS when every case matches.
"""

import argparse
import random
import sys

import numpy as np
from es_leaky_ops import LeakyReluCustom

from ge.error import GeError
from ge.es.graph_builder import GraphBuilder
from ge.ge_global import GeApi
from ge.graph import DataType, Format, Tensor
from ge.session import Session

FP16_RTOL = 1e-3  # one float16 ulp is 2^-10 ~ 9.8e-4 of the value
FP16_ATOL = 1e-6  # for results in float16's subnormal range
DTYPES = {"float16": (np.float16, DataType.DT_FLOAT16), "float32": (np.float32, DataType.DT_FLOAT)}


def build_graph(size: int, dtype: DataType, slope: float):
    builder = GraphBuilder(f"leaky_relu_{dtype.name}_{size}")
    x = builder.create_input(0, name="x", data_type=dtype, format=Format.FORMAT_ND, shape=[size])
    y = LeakyReluCustom(x, negative_slope=slope)
    return builder.build_and_reset([y])


def reference(x: np.ndarray, slope: float) -> np.ndarray:
    wide = x.astype(np.float32)
    return np.where(wide >= 0, wide, wide * np.float32(slope)).astype(x.dtype)


def run_case(session: Session, graph_id: int, size: int, name: str, slope: float, rng: np.random.Generator) -> bool:
    np_type, ge_type = DTYPES[name]
    x = rng.uniform(-60.0, 60.0, size).astype(np_type)
    session.add_graph(graph_id, build_graph(size, ge_type, slope))
    (y,) = session.run_graph(graph_id, [Tensor(x.tolist(), None, ge_type, Format.FORMAT_ND, [size])])
    got = np.asarray(y.get_data()).astype(np_type).reshape(-1)
    expected = reference(x, slope)
    if got.shape != expected.shape:
        print(f"{name} size {size}: MISMATCH (shape {got.shape} != {expected.shape})", flush=True)
        return False
    if np_type is np.float32:
        bad = np.flatnonzero(got != expected)
    else:
        err = np.abs(got.astype(np.float32) - expected.astype(np.float32))
        bad = np.flatnonzero(err > FP16_ATOL + FP16_RTOL * np.abs(expected.astype(np.float32)))
    if len(bad):
        i = bad[0]
        print(
            f"{name} size {size}: MISMATCH at {i} of {len(bad)}: x={x[i]} y={got[i]} expected={expected[i]}", flush=True
        )
        return False
    exact = int(np.count_nonzero(got == expected))
    print(f"{name} size {size}: y == leaky_relu(x, {slope}) ({exact}/{size} bit-exact)", flush=True)
    return True


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--soc", default="Ascend910B1", help="SoC version (ge.socVersion)")
    parser.add_argument("--sizes", default="1000,4099,100003", help="comma-separated element counts")
    parser.add_argument("--dtypes", default="float16,float32", help="comma-separated: float16, float32")
    parser.add_argument("--negative_slope", type=float, default=0.01, help="the attribute (IR default 0.01)")
    parser.add_argument("--seed", type=int, default=None, help="random seed (printed; random if omitted)")
    args = parser.parse_args(argv)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    print(f"seed={seed} soc={args.soc} negative_slope={args.negative_slope}", flush=True)
    rng = np.random.default_rng(seed)
    sizes = [int(s) for s in args.sizes.split(",") if s]
    names = [d for d in args.dtypes.split(",") if d]
    unknown = [d for d in names if d not in DTYPES]
    if unknown:
        parser.error(f"unknown dtype {unknown[0]}; known: {', '.join(DTYPES)}")

    GeApi.ge_initialize({"ge.exec.deviceId": "0", "ge.graphRunMode": "1", "ge.socVersion": args.soc})
    try:
        session = Session({"ge.socVersion": args.soc})
        cases = [(name, size) for name in names for size in sizes]
        ok = all(
            [
                run_case(session, graph_id, size, name, args.negative_slope, rng)
                for graph_id, (name, size) in enumerate(cases, start=1)
            ]
        )
    except GeError as exc:  # a graph GE refuses (bad attr, holder error): its one line, not a traceback
        print(f"run.py: {exc}", file=sys.stderr, flush=True)
        ok = False
    finally:
        GeApi.ge_finalize()
    print(f"LEAKY_RELU_ONLINE={'PASS' if ok else 'FAIL'}", flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
