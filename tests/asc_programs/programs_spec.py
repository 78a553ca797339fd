"""What each program in programs/ reads and writes, and its numpy golden.

SPECS[name] = (inputs, check): inputs maps file name -> generator(rng); check(inputs, read)
asserts the outputs (read(name, dtype) loads one the program wrote)."""

import numpy as np

F32 = np.float32


def _f32(n, lo=-4.0, hi=4.0):
    return lambda rng: rng.uniform(lo, hi, n).astype(F32)


def _close(got, want, rtol=1e-6, atol=1e-6):
    np.testing.assert_allclose(got, want.astype(got.dtype), rtol=rtol, atol=atol)


def _vadd(i, read):
    _close(read("z.bin", F32), i["x.bin"] + i["y.bin"])


def _template_mul(i, read):
    _close(read("zf.bin", F32), i["xf.bin"] * i["yf.bin"])
    np.testing.assert_array_equal(read("zi.bin", np.int32), i["xi.bin"] * i["yi.bin"])


def _axpy(i, read):
    _close(read("out.bin", F32), i["a.bin"][0] * i["x.bin"] + i["y.bin"], rtol=1e-5, atol=1e-5)


def _tiling_default(i, read):
    _close(read("z.bin", F32), (i["x.bin"] + i["y.bin"]) * i["scale.bin"][0], rtol=1e-5, atol=1e-5)


def _tiling_key(i, read):
    x = i["x.bin"]
    want = np.maximum(x, 0) if i["op.bin"][0] == 0 else np.abs(x)
    np.testing.assert_array_equal(read("out.bin", F32), want)


def _sub(i, read):
    _close(read("z.bin", F32), i["x.bin"] - i["y.bin"])


def _max(i, read):
    np.testing.assert_array_equal(read("z.bin", F32), np.maximum(i["x.bin"], i["y.bin"]))


def _legacy(i, read):
    _close(read("out.bin", F32), i["x.bin"] * F32(2))


def _affine(i, read):
    x, (mul, add) = i["x.bin"].reshape(7, 256), i["params.bin"]
    want = x.copy()
    want[:, :128] = x[:, :128] * mul + add
    _close(read("out.bin", F32).reshape(7, 256), want, rtol=1e-5, atol=1e-5)


def _exp(i, read):
    _close(read("out.bin", F32), np.exp(i["x.bin"]), rtol=2e-6, atol=0)


def _chain(i, read):
    want = np.maximum(i["x.bin"] + i["y.bin"], 0) * F32(0.25) + F32(1)
    _close(read("out.bin", F32), want, rtol=1e-6, atol=1e-6)


def _half(i, read):
    x = i["x.bin"].view(np.float16).astype(F32)
    y = i["y.bin"].view(np.float16).astype(F32)
    _close(read("out.bin", F32), x + y, rtol=1e-6, atol=1e-6)


_TPL_CHOICES = np.array([[128, 0], [512, 0], [128, 1], [256, 1], [512, 1]], dtype=np.uint32)


def _tpl_choice(rng):
    return _TPL_CHOICES[rng.integers(0, len(_TPL_CHOICES))].copy()


def _tpl(i, read):
    tile, negate = (int(v) for v in i["choice.bin"])
    want_key = [128, 256, 512].index(tile) | (negate << 2)
    np.testing.assert_array_equal(read("key.bin", np.uint64), np.array([want_key, 2**64 - 1], dtype=np.uint64))
    np.testing.assert_array_equal(read("out.bin", F32), -i["x.bin"] if negate else i["x.bin"])


def _keys(rng):
    return rng.permutation(np.array([1, 2, 3], dtype=np.uint32))


def _keyed(i, read):
    x, out = i["x.bin"], read("out.bin", F32).reshape(3, -1)
    for key, got in zip(i["keys.bin"], out):
        want = x + F32(1) if key == 1 else (x * F32(3) if key == 2 else x)
        _close(got, want)


def _launch_params(rng):
    # {tiling key, dynamic UB bytes (32-byte multiple)}
    return np.array([rng.integers(2, 9), 32 * rng.integers(1, 2048)], dtype=np.uint32)


def _launch_config(i, read):
    _close(read("out.bin", F32), i["x.bin"] * F32(i["params.bin"][0]))
    # fits, over-reserved (trap), too big and negative (ACL_ERROR_INVALID_PARAM), l2ctrl nullptr
    np.testing.assert_array_equal(read("codes.bin", np.int32), [0, 507015, 100000, 100000, 0])


def _declared(i, read):
    _close(read("out.bin", F32), (i["x.bin"] * F32(2) + F32(1)) - i["y.bin"], rtol=1e-6, atol=1e-5)


def _halves(n):
    return lambda rng: rng.uniform(-8, 8, n).astype(np.float16).view(np.uint16)


def _int4_inputs(rng):
    return rng.uniform(-6, 6, 4 * 4096).astype(np.float16)


def _int4_quant(i, read):
    x = i["x.bin"].view(np.float16).astype(F32)
    scale = i["scale.bin"].view(np.float16)
    inv = (F32(1) / scale.astype(F32)).astype(np.float16)  # the kernel's 1/scale, as a half scalar
    scaled = (x * np.repeat(inv, 64).astype(F32)).astype(np.float16)  # Muls: one rounding to half
    q = np.clip(np.rint(scaled.astype(np.float64)), -8, 7).astype(np.int64)  # CAST_RINT, saturated
    nib = q & 0xF
    np.testing.assert_array_equal(read("q.bin", np.uint8), (nib[0::2] | nib[1::2] << 4).astype(np.uint8))
    y = (q.astype(F32) * np.repeat(scale, 64).astype(F32)).astype(np.float16)
    np.testing.assert_array_equal(read("y.bin", np.uint16).view(np.float16), y)


def _topk(i, read):
    x = i["x.bin"].reshape(6, 256)
    order = np.argsort(-x, axis=1, kind="stable")[:, :32]  # equal scores: the lower column first
    np.testing.assert_array_equal(read("val.bin", F32).reshape(6, 32), np.take_along_axis(x, order, 1))
    np.testing.assert_array_equal(read("idx.bin", np.uint32).reshape(6, 32), order.astype(np.uint32))


def _topk_scores(rng):
    x = rng.uniform(-100, 100, 6 * 256).astype(F32)
    x[rng.random(x.size) < 0.1] = F32(7.5)  # ties: the merge keeps column order
    return x


# platform_split runs GetCoreNumAiv() blocks of 4096: 48 on Ascend910B1 (the default SoC).
SPECS = {
    "vadd_chevron": ({"x.bin": _f32(8 * 2048), "y.bin": _f32(8 * 2048)}, _vadd),
    "template_mul": (
        {
            "xf.bin": _f32(3072),
            "yf.bin": _f32(3072),
            "xi.bin": lambda r: r.integers(-1000, 1000, 3072, dtype=np.int32),
            "yi.bin": lambda r: r.integers(-1000, 1000, 3072, dtype=np.int32),
        },
        _template_mul,
    ),
    "namespace_axpy": ({"x.bin": _f32(5 * 1024 + 512), "y.bin": _f32(5 * 1024 + 512), "a.bin": _f32(1)}, _axpy),
    "tiling_default": ({"x.bin": _f32(4 * 4096), "y.bin": _f32(4 * 4096), "scale.bin": _f32(1)}, _tiling_default),
    "tiling_key_struct": (
        {"x.bin": _f32(3 * 1024), "op.bin": lambda r: r.integers(0, 2, 1, dtype=np.uint32)},
        _tiling_key,
    ),
    "aclrt_launch_sub": ({"x.bin": _f32(4 * 2048), "y.bin": _f32(4 * 2048)}, _sub),
    "cpu_debug_max": ({"x.bin": _f32(5 * 1536), "y.bin": _f32(5 * 1536)}, _max),
    "legacy_workspace": ({"x.bin": _f32(2 * 1024)}, _legacy),
    "tiling_by_value": ({"x.bin": _f32(7 * 256), "params.bin": _f32(2)}, _affine),
    "platform_split": ({"x.bin": _f32(48 * 4096, -3.0, 3.0)}, _exp),
    "chain_async": ({"x.bin": _f32(9 * 768), "y.bin": _f32(9 * 768)}, _chain),
    "half_cast": ({"x.bin": _halves(4 * 1024), "y.bin": _halves(4 * 1024)}, _half),
    "tpl_dispatch": ({"x.bin": _f32(4 * 2048), "choice.bin": _tpl_choice}, _tpl),
    "int4_quant": (
        {
            "x.bin": lambda r: _int4_inputs(r).view(np.uint16),
            "scale.bin": lambda r: r.uniform(0.4, 1.2, 4 * 4096 // 64).astype(np.float16).view(np.uint16),
        },
        _int4_quant,
    ),
    "topk_sort": ({"x.bin": _topk_scores}, _topk),
    "tiling_key_cpu_debug": ({"x.bin": _f32(3 * 1024), "keys.bin": _keys}, _keyed),
    "launch_config": ({"x.bin": _f32(4 * 2048), "params.bin": _launch_params}, _launch_config),
    "tik2_param_offset": ({"x.bin": _f32(6 * 2048), "y.bin": _f32(6 * 2048)}, _vadd),
    "declared_kernels": ({"x.bin": _f32(5 * 1024), "y.bin": _f32(5 * 1024)}, _declared),
}
# Programs also built CPU-debug style by the host C++ compiler (find_package(tikicpulib)).
TIKICPULIB_PROGRAMS = ("cpu_debug_max", "tiling_key_cpu_debug")
