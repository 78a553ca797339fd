"""bazel test //ops/rms_norm_custom:online_npu — run.py through a GE Session in a clean
environment: float16 and float32, H not a multiple of a 32-byte block, row counts that do not
divide by the launched blocks, one block and many tiles per block; and the bad inputs."""

import ge_op_testing as t

# H: 100, 77, 1000 and 19 are no multiple of 16 (float16) or 8 (float32) elements; B * S: 6, 231,
# 100, 1 and 4093 rows (4093 is prime: no block count divides it, and its blocks hold several tiles).
SHAPES = "2x3x100,1x231x77,4x25x1000,1x1x19,1x4093x200"


def _run(*args: str):
    paths = t.op_paths("ops/rms_norm_custom", "rms_norm_custom")
    seed = t.new_seed("RMS_NORM_SEED")
    return t.run_python(
        [str(paths.package / "run.py"), "--soc", paths.soc, "--seed", str(seed), *args], t.clean_env(paths)
    )


def test_shapes_with_tails_match_numpy_in_fp16_and_fp32():
    proc = _run("--shapes", SHAPES)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines.count("RMS_NORM_MODULE_LOADED=1") == 1
    for dtype in ("float16", "float32"):
        for shape in SHAPES.split(","):
            assert any(line.startswith(f"{dtype} {shape}: y == rms_norm(x, gamma)") for line in lines), (dtype, shape)
    assert lines[-1] == "RMS_NORM_ONLINE=PASS"
    # the host tiling split the rows over several blocks (block dim from the SoC's vector cores)
    kernels = [line for line in proc.stderr.splitlines() if line.startswith("RMS_NORM_KERNEL ")]
    assert any("blocks=1 " in line for line in kernels) and any("blocks=1 " not in line for line in kernels)


def test_epsilon_reaches_the_kernel():
    """A large epsilon changes every row's scale; a kernel that ignored it would miss the reference."""
    proc = _run("--shapes", "2x5x33", "--epsilon", "0.5")
    assert proc.returncode == 0, proc.stderr
    assert "epsilon=0.5" in proc.stdout
    assert proc.stdout.splitlines()[-1] == "RMS_NORM_ONLINE=PASS"


def _one_error_line(proc) -> str:
    assert proc.returncode == 1
    assert proc.stdout.splitlines()[-1] == "RMS_NORM_ONLINE=FAIL"
    errors = [line for line in proc.stderr.splitlines() if line.startswith("run.py: ")]
    assert len(errors) == 1, proc.stderr
    return errors[0]


def test_wrong_gamma_shape_is_one_line():
    error = _one_error_line(_run("--shapes", "2x3x100", "--dtypes", "float32", "--gamma_len", "99"))
    assert "gamma must be [H] = [100] for x [2, 3, 100], got [99]" in error, error


def test_dtype_outside_the_list_is_one_line():
    error = _one_error_line(_run("--shapes", "2x3x16", "--dtypes", "int32"))
    assert "DT_INT32" in error and "not allowed" in error, error


def test_non_finite_epsilon_is_one_line():
    error = _one_error_line(_run("--shapes", "2x3x16", "--dtypes", "float32", "--epsilon", "nan"))
    assert "epsilon must be finite and >= 0, got nan" in error, error


def test_gamma_of_another_dtype_than_x_is_one_line():
    error = _one_error_line(_run("--shapes", "2x3x16", "--dtypes", "float16", "--gamma_dtype", "float32"))
    assert "inputs 'x' and 'gamma' share type T but have dtypes DT_FLOAT16 and DT_FLOAT" in error, error


def test_x_that_is_not_3d_is_one_line():
    error = _one_error_line(_run("--shapes", "6x100", "--dtypes", "float32"))
    assert "x must be 3-D [B, S, H], got [6, 100]" in error, error


def test_row_too_long_for_the_ub_is_one_line_from_the_host_tiling():
    error = _one_error_line(_run("--shapes", "1x2x60000", "--dtypes", "float32"))
    assert "RmsNormCustom: no tiling for x [1, 2, 60000] on " in error, error
    assert "a row of H = 60000 4-byte elements needs" in error, error


def test_format_outside_the_list_is_one_line():
    error = _one_error_line(_run("--shapes", "2x3x16", "--dtypes", "float32", "--format", "NCHW"))
    assert "RmsNormCustom: x must be FORMAT_ND, got FORMAT_NCHW" in error, error
