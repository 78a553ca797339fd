"""bazel test //ops/add_custom:kernel_cache_seed_test — Bazel's :add_custom_kernel (built for the
--define soc SoC) serves the online path: its <name>.cache_key is the key the holder's JIT computes
for the same kernel in the CANN-like tree, so a cache seeded with it makes the first compile of a
new process a hit; a changed source, header or SoC is a miss that compiles."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import ge_op_testing
import harness
import pytest

PATHS = harness.sample_paths()
os.environ["ASCEND_HOME_PATH"] = str(PATHS.cann_home)

from ascendc_jit import KernelCache, build_kernel  # noqa: E402


def _runfile(var: str) -> Path:
    value = os.environ.get(var)
    if not value:
        pytest.fail(f"{var} is not set: run this through bazel test //ops/add_custom:kernel_cache_seed_test")
    return Path(value).absolute()


def _bazel_kernel():
    report = json.loads(_runfile("BAZEL_KERNEL_CACHE_KEY").read_text())
    return report, _runfile("BAZEL_KERNEL").read_bytes()


def _arch(soc: str) -> str:
    return ge_op_testing.npu_arch(PATHS.cann_home, soc)


def _all_socs() -> list:
    configs = PATHS.cann_home / "x86_64-linux" / "data" / "platform_config"
    return sorted(p.stem for p in configs.glob("*.ini"))


def _seed(cache: Path) -> subprocess.CompletedProcess:
    """The documented CLI: python3 -m ascendc_jit.seed KEY AICORE --cache DIR."""
    env = {
        "PATH": "/usr/bin:/bin",
        "PYTHONPATH": str(PATHS.cann_home / "python" / "site-packages"),
        "PYTHONDONTWRITEBYTECODE": "1",
    }
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "ascendc_jit.seed",
            str(_runfile("BAZEL_KERNEL_CACHE_KEY")),
            str(_runfile("BAZEL_KERNEL")),
            "--cache",
            str(cache),
        ],
        env=env,
        capture_output=True,
        text=True,
    )


def _seeded_cache() -> Path:
    cache = harness.scratch_dir("seeded-kcache")
    proc = _seed(cache)
    assert proc.returncode == 0, proc.stderr
    return cache


def test_bazel_report_is_for_the_configured_soc():
    report, binary = _bazel_kernel()
    assert report["soc"] == PATHS.soc
    assert str(report["npu_arch"]) == _arch(PATHS.soc)
    assert binary.startswith(b"\x7fELF")
    assert len(report["key"]) == 64
    names = {h["name"] for h in report["headers"]}
    assert {"kernel_operator.h", "asc_twin/kernel_entry.h", "asc_twin/aicore_abi.h"} <= names
    # nothing in the key names Bazel's sandbox or output base
    assert not [h["name"] for h in report["headers"] if "bazel-out" in h["name"] or "execroot" in h["name"]]


def test_jit_compile_computes_the_bazel_key_and_the_same_bytes():
    """Different trees (Bazel runfiles vs the CANN-like install), different include flags: one key."""
    report, bazel_binary = _bazel_kernel()
    cache = harness.scratch_dir("jit-kcache")
    built = build_kernel(PATHS.kernel, soc=PATHS.soc, npu_arch=_arch(PATHS.soc), cache=KernelCache(cache))
    assert not built.from_cache
    (entry,) = sorted(cache.rglob("*.aicore"))
    assert entry.stem == report["key"]
    assert built.binary == bazel_binary


def test_seeded_cache_serves_the_first_compile_of_a_new_process():
    cache = _seeded_cache()
    (entry,) = sorted(cache.rglob("*.aicore"))
    stamp = entry.stat().st_mtime_ns
    seed = harness.new_seed()
    proc = harness.run_python(
        [str(PATHS.run_py), "--soc", PATHS.soc, "--sizes", "1024,4096", "--seed", str(seed)],
        harness.clean_env(PATHS, kernel_cache=cache),
    )
    assert proc.returncode == 0, proc.stderr
    assert f"ADD_CUSTOM_KERNEL source=cache soc={PATHS.soc} shape=[1024]" in proc.stderr
    assert "ADD_CUSTOM_KERNEL source=bisheng" not in proc.stderr
    assert proc.stdout.splitlines()[-1] == "PY_COMPILE_ONLINE_NPU=PASS"
    assert entry.stat().st_mtime_ns == stamp  # served as seeded, not rebuilt
    # the hit recorded a direct-mode manifest: the next process needs no compiler run at all
    assert len(list(cache.rglob("manifests/*.json"))) == 1


def test_changed_source_is_a_miss_that_compiles():
    cache = _seeded_cache()
    work = harness.scratch_dir("edited-source")
    edited = work / "add_custom.asc"
    edited.write_text(PATHS.kernel.read_text() + "\n// an edit the compiler must see\n")
    built = build_kernel(edited, soc=PATHS.soc, npu_arch=_arch(PATHS.soc), cache=KernelCache(cache))
    assert not built.from_cache and built.binary.startswith(b"\x7fELF")
    assert len(list(cache.rglob("*.aicore"))) == 2
    # the unedited source, even from another directory, is still served by the seeded entry
    moved = work / "moved" / "add_custom.asc"
    moved.parent.mkdir()
    shutil.copy(PATHS.kernel, moved)
    assert build_kernel(moved, soc=PATHS.soc, npu_arch=_arch(PATHS.soc), cache=KernelCache(cache)).from_cache


def _home_with_edited_header(header: str) -> Path:
    """A CANN-like tree identical to the test's except for one Ascend C header's content."""
    home = harness.scratch_dir("edited-cann")
    for name in ("bin", "include", "lib64", "x86_64-linux"):
        (home / name).symlink_to(PATHS.cann_home / name)
    shutil.copytree(PATHS.cann_home / "asc", home / "asc")
    for root, dirs, _ in os.walk(home / "asc"):  # the install tree is read-only; the copy need not be
        for name in dirs:
            os.chmod(os.path.join(root, name), 0o755)
    (home / "asc").chmod(0o755)
    target = home / "asc" / "include" / header
    target.chmod(0o644)
    target.write_text(target.read_text() + "\n// edited header\n")
    return home


def test_changed_header_is_a_miss_that_compiles(monkeypatch):
    cache = _seeded_cache()
    monkeypatch.setenv("ASCEND_HOME_PATH", str(_home_with_edited_header("kernel_operator.h")))
    built = build_kernel(PATHS.kernel, soc=PATHS.soc, npu_arch=_arch(PATHS.soc), cache=KernelCache(cache))
    assert not built.from_cache and built.binary.startswith(b"\x7fELF")
    assert len(list(cache.rglob("*.aicore"))) == 2


def test_other_soc_is_a_miss_that_compiles():
    cache = _seeded_cache()
    arch = _arch(PATHS.soc)
    others = [s for s in _all_socs() if s != PATHS.soc]
    same_arch = [s for s in others if _arch(s) == arch]
    other_arch = [s for s in others if _arch(s) != arch]
    picks = same_arch[:1] + other_arch[:1]
    assert picks, "need another SoC config to compare with"
    for soc in picks:
        built = build_kernel(PATHS.kernel, soc=soc, npu_arch=_arch(soc), cache=KernelCache(cache))
        assert not built.from_cache, soc
    assert len(list(cache.rglob("*.aicore"))) == 1 + len(picks)
    # and the configured SoC is still a hit
    assert build_kernel(PATHS.kernel, soc=PATHS.soc, npu_arch=arch, cache=KernelCache(cache)).from_cache


def test_seed_refuses_a_bad_report_or_binary():
    cache = harness.scratch_dir("bad-seed")
    work = harness.scratch_dir("bad-seed-input")
    report, _ = _bazel_kernel()
    wrong_scheme = work / "wrong.cache_key"
    wrong_scheme.write_text(json.dumps(dict(report, scheme="other/9")))
    not_elf = work / "not_elf.aicore.o"
    not_elf.write_bytes(b"not a device binary")
    env = {
        "PATH": "/usr/bin:/bin",
        "PYTHONPATH": str(PATHS.cann_home / "python" / "site-packages"),
        "PYTHONDONTWRITEBYTECODE": "1",
    }
    cases = [
        ([str(wrong_scheme), str(_runfile("BAZEL_KERNEL"))], "has scheme 'other/9'"),
        ([str(_runfile("BAZEL_KERNEL_CACHE_KEY")), str(not_elf)], "not a device binary"),
        ([str(work / "missing.cache_key"), str(_runfile("BAZEL_KERNEL"))], "cannot read kernel cache key report"),
    ]
    for args, message in cases:
        proc = subprocess.run(
            [sys.executable, "-m", "ascendc_jit.seed", *args, "--cache", str(cache)],
            env=env,
            capture_output=True,
            text=True,
        )
        lines = proc.stderr.strip().splitlines()
        assert proc.returncode == 1 and len(lines) == 1 and message in lines[0], proc.stderr
    assert not [p for p in cache.rglob("*") if p.is_file()]  # nothing half-written
