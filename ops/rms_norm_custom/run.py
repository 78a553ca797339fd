"""RmsNormCustom's online flow: y = RmsNormCustom(x, gamma, epsilon) through a GE Session for
several [B, S, H] shapes in float16 and float32, compared with numpy.

    ASCEND_HOME_PATH=<CANN> ASCEND_CUSTOM_OPP_PATH=<OPP root>:<plugin dir> PYTHONPATH=...:<es dir> \
        python3 run.py [--soc Ascend910B1] [--shapes 2x3x100,1x231x77] [--dtypes float16,float32]
                       [--epsilon 1e-6] [--seed N] [--gamma_len N] [--gamma_dtype float32]
                       [--format ND]

The check (numpy reference and the tolerances, with why) is rms_norm_check.py.
`--gamma_len` / `--gamma_dtype` give gamma another length than H or another dtype than x's,
`--format` x another format than ND (the bad-input tests). Prints
RMS_NORM_ONLINE=PASS when every case matches.
"""

import argparse
import random
import sys

import numpy as np
from es_rms_norm_ops import RmsNormCustom
from rms_norm_check import compare, random_inputs

from ge.error import GeError
from ge.es.graph_builder import GraphBuilder
from ge.ge_global import GeApi
from ge.graph import DataType, Format, Tensor
from ge.session import Session

DTYPES = {
    "float16": (np.float16, DataType.DT_FLOAT16),
    "float32": (np.float32, DataType.DT_FLOAT),
    "int32": (np.int32, DataType.DT_INT32),
}  # int32 is outside the operator's list: the bad-input test


def build_graph(shape, gamma_len: int, dtype, gamma_dtype, epsilon: float, fmt: Format):
    builder = GraphBuilder(f"rms_norm_{'x'.join(map(str, shape))}_{dtype.name}")
    x = builder.create_input(0, name="x", data_type=dtype, format=fmt, shape=list(shape))
    gamma = builder.create_input(1, name="gamma", data_type=gamma_dtype, format=Format.FORMAT_ND, shape=[gamma_len])
    y = RmsNormCustom(x, gamma, epsilon=epsilon)
    return builder.build_and_reset([y])


def run_case(session, graph_id, shape, dtype_name, gamma_dtype_name, epsilon, gamma_len, fmt, rng) -> bool:
    np_type, ge_type = DTYPES[dtype_name]
    gamma_np_type, gamma_ge_type = DTYPES[gamma_dtype_name or dtype_name]
    h = shape[-1]
    x, gamma = random_inputs(rng, shape, gamma_len, np_type)
    gamma = gamma.astype(gamma_np_type)
    session.add_graph(graph_id, build_graph(shape, gamma_len, ge_type, gamma_ge_type, epsilon, fmt))
    inputs = [
        Tensor(x.reshape(-1).tolist(), None, ge_type, fmt, list(shape)),
        Tensor(gamma.tolist(), None, gamma_ge_type, Format.FORMAT_ND, [gamma_len]),
    ]
    (y,) = session.run_graph(graph_id, inputs)
    got = np.asarray(y.get_data(), dtype=np.float64)
    return compare(f"{dtype_name} {'x'.join(map(str, shape))}", got, x, gamma[:h], epsilon)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--soc", default="Ascend910B1")
    parser.add_argument("--shapes", default="2x3x100,1x231x77,4x25x1000,3x7x4096")
    parser.add_argument("--dtypes", default="float16,float32")
    parser.add_argument("--epsilon", type=float, default=1e-6)
    parser.add_argument("--gamma_len", type=int, default=None, help="gamma's length (default H)")
    parser.add_argument("--gamma_dtype", default=None, help="gamma's dtype (default x's)")
    parser.add_argument("--format", default="ND", help="x's format (the operator's list is ND)")
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args(argv)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    print(f"seed={seed} soc={args.soc} epsilon={args.epsilon}", flush=True)
    rng = np.random.default_rng(seed)
    shapes = [tuple(int(v) for v in s.split("x")) for s in args.shapes.split(",") if s]
    cases = [(shape, dtype) for dtype in args.dtypes.split(",") for shape in shapes]
    GeApi.ge_initialize({"ge.exec.deviceId": "0", "ge.graphRunMode": "1", "ge.socVersion": args.soc})
    try:
        session = Session({"ge.socVersion": args.soc})
        ok = all(
            [
                run_case(
                    session,
                    gid,
                    shape,
                    dtype,
                    args.gamma_dtype,
                    args.epsilon,
                    args.gamma_len if args.gamma_len is not None else shape[-1],
                    Format[f"FORMAT_{args.format}"],
                    rng,
                )
                for gid, (shape, dtype) in enumerate(cases, 1)
            ]
        )
    except GeError as exc:
        print(f"run.py: {exc}", file=sys.stderr, flush=True)
        ok = False
    finally:
        GeApi.ge_finalize()
    print(f"RMS_NORM_ONLINE={'PASS' if ok else 'FAIL'}", flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
