"""The holder package's kernel cache: hits across "processes" (fresh cache objects), a key that
covers source, headers, compiler identity, flags, SoC and NpuArch but not where the files live
(bisheng's --twin-cache-key), direct-mode hits that run no compiler, the local-key fallback for a
bisheng without the twin extension, and corrupt entries that are detected, discarded and rebuilt —
never used. (Bazel-built kernels serving this cache: test_kernel_cache_seed.py.)"""

import os
from pathlib import Path

import harness
import pytest

PATHS = harness.sample_paths()
os.environ["ASCEND_HOME_PATH"] = str(PATHS.cann_home)

from ascendc_jit import KernelCache, build_kernel  # noqa: E402


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
    assert not build_kernel(PATHS.kernel, soc="Ascend910B2", npu_arch="2201", cache=KernelCache(cache_root)).from_cache
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


def test_hit_does_not_run_the_compiler(cache_root):
    """Direct mode: a manifest hit needs no bisheng at all (here: one that cannot run)."""
    from ascendc_jit import Toolchain, find_toolchain

    real = find_toolchain(KernelCache(cache_root).identity_dir)
    cold = build_kernel(PATHS.kernel, soc="Ascend910B1", npu_arch="2201", cache=KernelCache(cache_root), toolchain=real)
    import json

    from ascendc_jit.kernel_cache import file_sha256

    (manifest,) = cache_root.rglob("manifests/*.json")
    recorded = json.loads(manifest.read_text())["headers"]
    assert recorded and [p for p, sha in recorded if file_sha256(p) != sha] == []
    broken = Toolchain(
        "/nonexistent/bin/bisheng", "/nonexistent/bin/llvm-objcopy", real.include_dirs, real.identity, real.shared_key
    )
    warm = build_kernel(
        PATHS.kernel, soc="Ascend910B1", npu_arch="2201", cache=KernelCache(cache_root), toolchain=broken
    )
    assert warm.from_cache and warm.binary == cold.binary


def test_same_kernel_in_another_directory_is_a_hit(cache_root):
    """The shared key names no paths: a copy of the kernel elsewhere is served by bisheng's key."""
    first_dir, second_dir = harness.scratch_dir("kernel-a"), harness.scratch_dir("kernel-b")
    for work in (first_dir, second_dir):
        (work / "tiling.h").write_text("constexpr int SCALE_UNUSED = 3;\n")
        (work / "add_custom.asc").write_text('#include "tiling.h"\n' + PATHS.kernel.read_text())
    cold = build_kernel(first_dir / "add_custom.asc", soc="Ascend910B1", npu_arch="2201", cache=KernelCache(cache_root))
    assert not cold.from_cache
    moved = build_kernel(
        second_dir / "add_custom.asc", soc="Ascend910B1", npu_arch="2201", cache=KernelCache(cache_root)
    )
    assert moved.from_cache and moved.binary == cold.binary
    assert len(_entries(cache_root)) == 1
    (second_dir / "tiling.h").write_text("constexpr int SCALE_UNUSED = 4;\n")
    assert not build_kernel(
        second_dir / "add_custom.asc", soc="Ascend910B1", npu_arch="2201", cache=KernelCache(cache_root)
    ).from_cache


def _home_without_twin_extensions() -> Path:
    """A CANN-like tree whose bisheng behaves like CANN's: no --twin-* options, none advertised."""
    home = harness.scratch_dir("cann-no-ext")
    for name in ("asc", "include", "lib64", "x86_64-linux"):
        (home / name).symlink_to(PATHS.cann_home / name)
    (home / "bin").mkdir()
    real = PATHS.cann_home / "bin" / "bisheng"
    script = home / "bin" / "bisheng"
    script.write_text(
        "#!/bin/sh\n"
        'for a in "$@"; do case "$a" in --twin-*) echo "bisheng: error: unsupported option \'$a\'" >&2; '
        "exit 1;; esac; done\n"
        f"if [ \"$1\" = --version ]; then '{real}' --version | grep -v '^Twin extensions:'; exit 0; fi\n"
        f"exec '{real}' \"$@\"\n"
    )
    script.chmod(0o755)
    return home


def test_bisheng_without_the_twin_extension_still_caches_under_a_local_key(cache_root, monkeypatch):
    from ascendc_jit import find_toolchain

    monkeypatch.setenv("ASCEND_HOME_PATH", str(_home_without_twin_extensions()))
    toolchain = find_toolchain(KernelCache(cache_root).identity_dir)
    assert not toolchain.shared_key
    work = harness.scratch_dir("kernel-no-ext")
    (work / "tiling.h").write_text("constexpr int SCALE_UNUSED = 5;\n")
    source = work / "add_custom.asc"
    source.write_text('#include "tiling.h"\n' + PATHS.kernel.read_text())
    cold = build_kernel(source, soc="Ascend910B1", npu_arch="2201", cache=KernelCache(cache_root))
    assert not cold.from_cache and cold.binary.startswith(b"\x7fELF")
    assert build_kernel(source, soc="Ascend910B1", npu_arch="2201", cache=KernelCache(cache_root)).from_cache
    (work / "tiling.h").write_text("constexpr int SCALE_UNUSED = 6;\n")
    assert not build_kernel(source, soc="Ascend910B1", npu_arch="2201", cache=KernelCache(cache_root)).from_cache
    assert len(_entries(cache_root)) == 2


def test_group_writable_root_is_not_used(cache_root, capsys, monkeypatch):
    monkeypatch.delenv("ASCEND_TWIN_ALLOW_WRITABLE_PATHS", raising=False)
    cache_root.mkdir(parents=True, exist_ok=True)
    os.chmod(cache_root, 0o777)
    first = build_kernel(PATHS.kernel, soc="Ascend910B1", npu_arch="2201", cache=KernelCache(cache_root))
    assert not first.from_cache
    assert "is writable by group or others (mode 777); the cache is not used" in capsys.readouterr().err
    assert _entries(cache_root) == []  # nothing written, nothing read
    # A planted entry under the key is never served either.
    assert not build_kernel(PATHS.kernel, soc="Ascend910B1", npu_arch="2201", cache=KernelCache(cache_root)).from_cache
    monkeypatch.setenv("ASCEND_TWIN_ALLOW_WRITABLE_PATHS", "1")  # the opt-out
    build_kernel(PATHS.kernel, soc="Ascend910B1", npu_arch="2201", cache=KernelCache(cache_root))
    assert len(_entries(cache_root)) == 1
    os.chmod(cache_root, 0o700)


def test_orphan_temp_files_are_swept_and_new_dirs_are_private(cache_root):
    build_kernel(PATHS.kernel, soc="Ascend910B1", npu_arch="2201", cache=KernelCache(cache_root))
    entry_dir = _entries(cache_root)[0].parent
    assert (os.stat(entry_dir).st_mode & 0o077) == 0
    old = entry_dir / ".x.aicore.abc.tmp"
    fresh = entry_dir / ".y.aicore.def.tmp"
    old.write_bytes(b"partial")
    fresh.write_bytes(b"being written")
    os.utime(old, (1, 1))
    from ascendc_jit import kernel_cache

    kernel_cache._swept_roots.clear()
    KernelCache(cache_root)
    assert not old.exists() and fresh.exists()


def test_op_type_names_the_op_in_a_build_failure(cache_root):
    """A holder passes op_type: the failure's first line names the op, kernel, SoC and arch; without
    it the cause is reported alone. Either way it is a KernelBuildError (a RuntimeError)."""
    from ascendc_jit import KernelBuildError, Toolchain, find_toolchain

    real = find_toolchain(KernelCache(cache_root).identity_dir)
    missing = Toolchain(
        "/nonexistent/bin/bisheng", "/nonexistent/bin/llvm-objcopy", real.include_dirs, real.identity, real.shared_key
    )
    source = harness.scratch_dir("never-built") / "add_custom.asc"
    source.write_text(PATHS.kernel.read_text() + "\n// never built before\n")
    with pytest.raises(KernelBuildError) as named:
        build_kernel(
            source,
            soc="Ascend910B1",
            npu_arch="dav-2201",
            cache=KernelCache(cache_root),
            toolchain=missing,
            op_type="AddCustom",
            kernel_name="add_custom",
        )
    first = str(named.value).splitlines()[0]
    assert first.startswith("AddCustom: kernel add_custom failed to compile for Ascend910B1 (dav-2201): "), first
    assert "/nonexistent/bin/bisheng" in first
    assert isinstance(named.value, RuntimeError)
    with pytest.raises(KernelBuildError) as plain:
        build_kernel(source, soc="Ascend910B1", npu_arch="2201", cache=KernelCache(cache_root), toolchain=missing)
    assert not str(plain.value).startswith("AddCustom"), str(plain.value)
