#!/usr/bin/env python3
"""The three-backend graph online: a compile-path op, an execute-path op and a host-backend op
chained in one graph whose inputs have a dynamic shape, run for several sizes through one
Session graph, compared with numpy.

    a = PythonCompilableAddCustom(x1, x2)          compile + declare_launch_args (ops/add_custom)
    b = AddNScaledCustom([a, x3, x1], scale=s)     execute on the device stream (dynamic inputs)
    d = MulHostCustom(b, x2)                       execute on the host CPU (OpBackend.HOST)
    e = PythonCompilableAddCustom(d, x3)
    outputs: e, b, d

plus AddNScaledCustom alone with 1..5 inputs (a dynamic input count per graph).

    ASCEND_CUSTOM_OPP_PATH=<add_custom root>:<its plugins>:<this root>:<these plugins> \
    PYTHONPATH=<CANN site-packages>:<add_custom es>:<this es> python3 run.py --sizes 1024,5120,1024 --scale 0.5

Every size is compiled once (the graph's -1 dims take each run's shape; a shape seen before runs
without compiling). float32 results must equal numpy's exactly (the kernels add in numpy's
order). Prints ADD_N_SCALED_ONLINE=PASS when every case matches.
"""

import argparse
import random
import sys

import numpy as np
from es_addn_ops import AddNScaledCustom, MulHostCustom
from es_custom import PythonCompilableAddCustom

from ge.error import GeError
from ge.es.graph_builder import GraphBuilder
from ge.ge_global import GeApi
from ge.graph import DataType, Format, Tensor
from ge.session import Session


def as_tensor(x: np.ndarray) -> Tensor:
    return Tensor(x.tolist(), None, DataType.DT_FLOAT, Format.FORMAT_ND, [x.size])


def as_array(t: Tensor) -> np.ndarray:
    return np.asarray(t.get_data(), dtype=np.float32).reshape(-1)


def three_backend_graph(scale: float):
    builder = GraphBuilder("three_backends")
    x1, x2, x3 = (builder.create_input(k, name=f"x{k + 1}", shape=[-1]) for k in range(3))
    a = PythonCompilableAddCustom(x1, x2)
    b = AddNScaledCustom([a, x3, x1], scale=scale)
    d = MulHostCustom(b, x2)
    e = PythonCompilableAddCustom(d, x3)
    return builder.build_and_reset([e, b, d])


def three_backend_reference(x1, x2, x3, scale: float):
    b = ((x1 + x2) + x3 + x1) * np.float32(scale)
    d = b * x2
    return [d + x3, b, d]


def addn_graph(count: int, size: int, scale: float):
    builder = GraphBuilder(f"addn_{count}")
    xs = [builder.create_input(k, shape=[size]) for k in range(count)]
    return builder.build_and_reset([AddNScaledCustom(xs, scale=scale)])


def same(name: str, got: np.ndarray, want: np.ndarray) -> bool:
    if got.shape == want.shape and np.array_equal(got, want):
        return True
    bad = np.flatnonzero(got != want) if got.shape == want.shape else [0]
    print(f"{name}: MISMATCH at {bad[0]} of {len(bad)}", flush=True)
    return False


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--soc", default="Ascend910B1")
    parser.add_argument(
        "--sizes",
        default="1024,5120,1024,65536,5120",
        help="sizes of the three-backend graph's runs (add_custom needs multiples of 1024)",
    )
    parser.add_argument("--addn_size", type=int, default=4099, help="size of the AddNScaledCustom-only graphs")
    parser.add_argument("--scale", type=float, default=0.5)
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args(argv)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    print(f"seed={seed} soc={args.soc} scale={args.scale}", flush=True)
    rng = np.random.default_rng(seed)
    sizes = [int(s) for s in args.sizes.split(",") if s]
    ok = True
    GeApi.ge_initialize({"ge.exec.deviceId": "0", "ge.socVersion": args.soc})
    try:
        session = Session()
        session.add_graph(1, three_backend_graph(args.scale))
        for n in sizes:
            x1, x2, x3 = (rng.uniform(-100, 100, n).astype(np.float32) for _ in range(3))
            got = [as_array(t) for t in session.run_graph(1, [as_tensor(x1), as_tensor(x2), as_tensor(x3)])]
            want = three_backend_reference(x1, x2, x3, args.scale)
            if all(same(f"three_backends size {n} {name}", g, w) for name, g, w in zip("ebd", got, want)):
                print(f"three_backends size {n}: e, b, d == numpy", flush=True)
            else:
                ok = False
        for count in range(1, 6):
            n = args.addn_size
            xs = [rng.uniform(-100, 100, n).astype(np.float32) for _ in range(count)]
            session.add_graph(10 + count, addn_graph(count, n, args.scale))
            (y,) = session.run_graph(10 + count, [as_tensor(x) for x in xs])
            want = xs[0].copy()
            for x in xs[1:]:
                want = want + x
            if same(f"addn {count} inputs", as_array(y), want * np.float32(args.scale)):
                print(f"addn {count} inputs size {n}: y == scale * sum(x)", flush=True)
            else:
                ok = False
    except GeError as exc:
        print(f"run.py: {exc}", file=sys.stderr, flush=True)
        ok = False
    finally:
        GeApi.ge_finalize()
    print(f"ADD_N_SCALED_ONLINE={'PASS' if ok else 'FAIL'}", flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
