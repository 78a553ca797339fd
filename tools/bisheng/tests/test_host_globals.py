"""Host-side initialisers never reach the device binary: a .asc with <iostream>, host globals
with constructors and std::cout (CANN's samples) gives an image without constructors, whose
kernel runs and computes the right values."""

import os
import random
import struct
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bisheng_harness import DeviceBinary, copy_testdata, llvm_tool, run_bisheng

BLOCKS, PER_BLOCK = 8, 256
INIT_TAGS = ("INIT_ARRAY", "FINI_ARRAY", "PREINIT_ARRAY", "(INIT)", "(FINI)")


def device_binary(tmp_path) -> bytes:
    copy_testdata(str(tmp_path), "host_globals.asc")
    proc = run_bisheng(["-c", "host_globals.asc", "-o", "hg.o", "--npu-arch=dav-2201", "-O2"], str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    out = tmp_path / "hg.aicore.o"
    subprocess.run(
        [llvm_tool("llvm-objcopy"), "-O", "binary", "--only-section=.aicore_binary", str(tmp_path / "hg.o"), str(out)],
        check=True,
    )
    return out.read_bytes()


def test_device_binary_of_a_file_with_host_globals_has_no_constructors(tmp_path):
    data = device_binary(tmp_path)
    (tmp_path / "image.so").write_bytes(data)
    dynamic = subprocess.run(
        [llvm_tool("llvm-readelf"), "--dynamic", "--section-headers", "--symbols", str(tmp_path / "image.so")],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    for tag in INIT_TAGS:
        assert tag not in dynamic, f"{tag} in the device binary:\n{dynamic}"
    for host_only in (".init_array", ".fini_array", "g_host_scratch", "g_label", "__ioinit"):
        assert host_only not in dynamic, host_only


def test_kernel_of_a_file_with_host_globals_computes_x_plus_2y(tmp_path):
    seed = random.randrange(1 << 30)
    print(f"seed {seed}")
    rng = np.random.default_rng(seed)
    binary = DeviceBinary(device_binary(tmp_path), str(tmp_path), 2201)
    n = BLOCKS * PER_BLOCK
    x = rng.standard_normal(n).astype(np.float32)
    y = rng.standard_normal(n).astype(np.float32)
    z = np.full(n, np.nan, dtype=np.float32)
    binary.ranges = [(a.ctypes.data, a.nbytes) for a in (x, y, z)]
    info = binary.info("axpy_custom")
    args = struct.pack("<QQQI", x.ctypes.data, y.ctypes.data, z.ctypes.data, PER_BLOCK)
    args += bytes(info.args_size - len(args))
    binary.run("axpy_custom", args, BLOCKS)
    np.testing.assert_allclose(z, x + np.float32(2) * y, rtol=1e-6, atol=1e-6)


KERNEL_USING = """\
#include <vector>
#include "kernel_operator.h"
float Seed(int i);
{decl}
__global__ __aicore__ void uses_global(GM_ADDR out) {{
  *(__gm__ float*)out = {use};
}}
"""


def compile_source(tmp_path, decl: str, use: str):
    (tmp_path / "k.asc").write_text(KERNEL_USING.format(decl=decl, use=use))
    return run_bisheng(["-c", "k.asc", "-o", "k.o", "--npu-arch=dav-2201"], str(tmp_path))


def test_kernel_using_a_global_with_a_constructor_is_one_clear_error(tmp_path):
    proc = compile_source(tmp_path, "std::vector<float> g_weights(16, 1.0f);", "g_weights[0]")
    assert proc.returncode != 0
    errors = [line for line in proc.stderr.splitlines() if "error" in line]
    assert errors == [
        "bisheng: error: device code in 'k.asc' uses host variable 'g_weights', which has a "
        "dynamic initializer (a constructor run at program start): it is not initialised on the "
        "AI core; make it constexpr, or pass the data to the kernel in global memory"
    ], proc.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["k.asc"]  # nothing half-written


def test_kernel_using_a_static_dynamically_initialised_table_is_refused(tmp_path):
    proc = compile_source(tmp_path, "static float table[2] = {Seed(1), Seed(2)};", "table[1]")
    assert proc.returncode != 0 and "uses host variable 'table'" in proc.stderr, proc.stderr


def test_kernel_using_a_template_static_member_with_a_constructor_is_refused(tmp_path):
    decl = (
        "template <class T> struct Holder { static std::vector<T> v; };\n"
        "template <class T> std::vector<T> Holder<T>::v(4);"
    )
    proc = compile_source(tmp_path, decl, "Holder<float>::v[0]")
    assert proc.returncode != 0 and "uses host variable 'Holder<float>::v'" in proc.stderr, proc.stderr


def test_constant_globals_beside_host_initialisers_serve_kernels(tmp_path):
    seed = random.randrange(1 << 30)
    print(f"seed {seed}")
    value = float(np.float32(np.random.default_rng(seed).standard_normal()))
    decl = f"std::vector<float> g_host(8);\nstatic const float kTable[2] = {{1.0f, {value!r}f}};\nint g_count = 0;"
    proc = compile_source(tmp_path, decl, "kTable[1] + g_count")
    assert proc.returncode == 0, proc.stderr
    out = tmp_path / "k.aicore.o"
    subprocess.run(
        [llvm_tool("llvm-objcopy"), "-O", "binary", "--only-section=.aicore_binary", str(tmp_path / "k.o"), str(out)],
        check=True,
    )
    binary = DeviceBinary(out.read_bytes(), str(tmp_path), 2201)
    result = np.zeros(1, dtype=np.float32)
    binary.ranges = [(result.ctypes.data, result.nbytes)]
    binary.run("uses_global", struct.pack("<Q", result.ctypes.data), 1)
    assert result[0] == np.float32(value)
