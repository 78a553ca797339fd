"""bazel test //ops/add_n_scaled_custom:online_test — run.py in a clean environment with both
operator packages (add_custom's compile-path op, this package's execute-path and host ops):
the three-backend graph with changing input sizes, and AddNScaledCustom with 1..5 inputs."""

import ge_op_testing as t
from three_ops_env import three_ops_env

SIZES = [1024, 5120, 1024, 65536, 5120]  # repeats: a shape seen before must not compile again
ADDN_SIZE = 4099  # the AddNScaledCustom-only graphs: a tail past whole tiles


def test_three_backends_with_changing_shapes_match_numpy():
    paths, env = three_ops_env()
    seed = t.new_seed("ADD_N_SCALED_SEED")
    proc = t.run_python(
        [
            str(paths.package / "run.py"),
            "--soc",
            paths.soc,
            "--sizes",
            ",".join(map(str, SIZES)),
            "--scale",
            "0.75",
            "--addn_size",
            str(ADDN_SIZE),
            "--seed",
            str(seed),
        ],
        env,
    )
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[-1] == "ADD_N_SCALED_ONLINE=PASS"
    for n in set(SIZES):
        assert sum(line == f"three_backends size {n}: e, b, d == numpy" for line in lines) == SIZES.count(n)
    distinct = len(set(SIZES))
    # compile per node per new shape: AddNScaledCustom once per distinct size (+ the five
    # static addn graphs), add_custom's two nodes once each per distinct size
    addn_compiles = [line for line in lines if line.startswith("ADD_N_SCALED_COMPILE ")]
    assert len(addn_compiles) == distinct + 5, addn_compiles
    assert sum(line.startswith("PY_COMPILE_CALLBACK_ENTER=1 ") for line in lines) == 2 * distinct
    # execute at every run; the host op saw host tensors (TensorPlacement.ON_HOST == 1)
    assert sum(line.startswith("ADD_N_SCALED_EXECUTE ") for line in lines) == len(SIZES) + 5
    host = [line for line in lines if line.startswith("MUL_HOST_EXECUTE ")]
    assert len(host) == len(SIZES) and all(line.endswith("placement=1") for line in host)
    for count in range(1, 6):
        assert f"addn {count} inputs size {ADDN_SIZE}: y == scale * sum(x)" in lines
