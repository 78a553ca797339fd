"""bazel test //ops/leaky_relu_custom:online_npu — run.py through a GE Session in a clean
environment: float16 and float32, sizes that are not multiples of the tile, two slopes."""

import ge_op_testing as t

SIZES = [1, 1000, 4099, 100003]  # tails of 1, 1000, 3 and 3 elements past whole 4096/2048 tiles


def _run(slope: float):
    paths = t.op_paths("ops/leaky_relu_custom", "leaky_relu_custom")
    seed = t.new_seed("LEAKY_RELU_SEED")
    proc = t.run_python(
        [
            str(paths.package / "run.py"),
            "--soc",
            paths.soc,
            "--sizes",
            ",".join(map(str, SIZES)),
            "--negative_slope",
            repr(slope),
            "--seed",
            str(seed),
        ],
        t.clean_env(paths),
    )
    return paths, proc


def test_default_slope_fp16_and_fp32():
    paths, proc = _run(0.01)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines.count("LEAKY_RELU_MODULE_LOADED=1") == 1
    compiled = [line for line in lines if line.startswith("LEAKY_RELU_COMPILE ")]
    assert len(compiled) == 2 * len(SIZES)
    assert all(f"mode=online soc={paths.soc} " in line for line in compiled)
    for dtype in ("float16", "float32"):
        for n in SIZES:
            assert any(line.startswith(f"{dtype} size {n}: y == leaky_relu(x, 0.01)") for line in lines), (dtype, n)
    assert lines[-1] == "LEAKY_RELU_ONLINE=PASS"
    # one binary serves both dtypes and every shape: bisheng ran at most once
    assert proc.stderr.count("LEAKY_RELU_KERNEL source=bisheng") <= 1


def test_other_slope_reaches_the_kernel():
    _, proc = _run(0.25)
    assert proc.returncode == 0, proc.stderr
    assert "negative_slope=0.25" in proc.stdout
    assert proc.stdout.splitlines()[-1] == "LEAKY_RELU_ONLINE=PASS"


def test_non_finite_slope_reaches_the_operators_own_check():
    """The graph C ABI carries float attributes as their bits: inf and nan cross it and the
    IMPL_OP's own refusal (negative_slope must be finite) is the one line the user sees."""
    for slope in ("inf", "nan"):
        paths = t.op_paths("ops/leaky_relu_custom", "leaky_relu_custom")
        proc = t.run_python(
            [
                str(paths.package / "run.py"),
                "--soc",
                paths.soc,
                "--sizes",
                "7",
                "--dtypes",
                "float32",
                "--negative_slope",
                slope,
                "--seed",
                "1",
            ],
            t.clean_env(paths),
        )
        assert proc.returncode == 1
        assert proc.stdout.splitlines()[-1] == "LEAKY_RELU_ONLINE=FAIL"
        errors = [line for line in proc.stderr.splitlines() if line.startswith("run.py: ")]
        assert len(errors) == 1 and f"negative_slope must be finite, got {slope}" in errors[0], proc.stderr
