"""The holder package's kernel cache: hits across "processes" (fresh cache objects), a key that
covers source, headers, compiler identity, flags, SoC and NpuArch, and corrupt entries that are
detected, discarded and rebuilt — never used."""

import os
import sys

import pytest

import harness

PATHS = harness.sample_paths()
sys.path.insert(0, str(PATHS.plugin_dir))
os.environ["ASCEND_HOME_PATH"] = str(PATHS.cann_home)

from _ascendc_jit import KernelCache, build_kernel  # noqa: E402


def _entries(root):
    return sorted(root.rglob("*.aicore"))


@pytest.fixture()
def cache_root():
    return harness.scratch_dir("kcache-unit")


def test_hit_after_cold_build_in_a_fresh_cache_object(cache_root):
    cold = build_kernel(PATHS.kernel, soc="Ascend910B1", npu_arch="2201", cache=KernelCache(cache_root))
    assert not cold.from_cache and cold.binary.startswith(b"\x7fELF")
    warm = build_kernel(PATHS.kernel, soc="Ascend910B1", npu_arch="dav-2201", cache=KernelCache(cache_root))
    assert warm.from_cache and warm.binary == cold.binary
    assert len(_entries(cache_root)) == 1
    assert not [p for p in cache_root.rglob("*") if p.name.endswith(".tmp")]  # atomic writes only


@pytest.mark.parametrize("damage", ["flip_payload_byte", "truncate", "garbage_header", "empty"])
def test_corrupt_entry_is_detected_discarded_and_rebuilt(cache_root, damage, capsys):
    first = build_kernel(PATHS.kernel, soc="Ascend910B1", npu_arch="2201", cache=KernelCache(cache_root))
    (entry,) = _entries(cache_root)
    blob = bytearray(entry.read_bytes())
    if damage == "flip_payload_byte":
        blob[-100] ^= 0xFF
    elif damage == "truncate":
        blob = blob[: len(blob) // 2]
    elif damage == "garbage_header":
        blob[:8] = b"NOTCACHE"
    else:
        blob = bytearray()
    entry.write_bytes(bytes(blob))
    cache = KernelCache(cache_root)
    rebuilt = build_kernel(PATHS.kernel, soc="Ascend910B1", npu_arch="2201", cache=cache)
    assert not rebuilt.from_cache  # the bad entry was not used
    assert cache.discarded == [str(entry)]
    assert "failed verification; discarded, rebuilding" in capsys.readouterr().err
    assert rebuilt.binary == first.binary  # bisheng output is deterministic
    again = build_kernel(PATHS.kernel, soc="Ascend910B1", npu_arch="2201", cache=KernelCache(cache_root))
    assert again.from_cache and again.binary == first.binary


def test_key_covers_included_header_content(cache_root):
    work = harness.scratch_dir("kernel-with-header")
    (work / "tiling.h").write_text("constexpr int SCALE_UNUSED = 1;\n")
    source = work / "add_custom.asc"
    source.write_text('#include "tiling.h"\n' + PATHS.kernel.read_text())
    assert not build_kernel(source, soc="Ascend910B1", npu_arch="2201", cache=KernelCache(cache_root)).from_cache
    assert build_kernel(source, soc="Ascend910B1", npu_arch="2201", cache=KernelCache(cache_root)).from_cache
    (work / "tiling.h").write_text("constexpr int SCALE_UNUSED = 2;\n")
    assert not build_kernel(source, soc="Ascend910B1", npu_arch="2201", cache=KernelCache(cache_root)).from_cache


def test_key_covers_source_soc_and_arch(cache_root):
    build_kernel(PATHS.kernel, soc="Ascend910B1", npu_arch="2201", cache=KernelCache(cache_root))
    assert not build_kernel(PATHS.kernel, soc="Ascend910B2", npu_arch="2201",
                            cache=KernelCache(cache_root)).from_cache
    other_arch = build_kernel(PATHS.kernel, soc="Ascend310P3", npu_arch="2002", cache=KernelCache(cache_root))
    assert not other_arch.from_cache
    work = harness.scratch_dir("edited-kernel")
    edited = work / "add_custom.asc"
    edited.write_text(PATHS.kernel.read_text() + "\n// an edit\n")
    assert not build_kernel(edited, soc="Ascend910B1", npu_arch="2201", cache=KernelCache(cache_root)).from_cache
    assert len(_entries(cache_root)) == 4


def test_run_py_rebuilds_over_a_corrupt_entry():
    cache = harness.scratch_dir("e2e-corrupt")
    env = harness.clean_env(PATHS, kernel_cache=cache)
    assert harness.run_python([str(PATHS.run_py), "--soc", PATHS.soc, "--sizes", "1024"], env).returncode == 0
    (entry,) = _entries(cache)
    blob = bytearray(entry.read_bytes())
    blob[len(blob) // 2] ^= 0x55
    entry.write_bytes(bytes(blob))
    proc = harness.run_python([str(PATHS.run_py), "--soc", PATHS.soc, "--sizes", "1024"], env)
    assert proc.returncode == 0
    assert "failed verification; discarded, rebuilding" in proc.stderr
    assert "ADD_CUSTOM_KERNEL source=bisheng" in proc.stderr
    assert proc.stdout.splitlines()[-1] == "PY_COMPILE_ONLINE_NPU=PASS"
