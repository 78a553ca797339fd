"""What makes a repeated compile fast must never change what it writes: the device binary cache
(a repeat reuses the device binary) and the concurrent device pass (after an edit, the device
pass starts beside the host pass with the kernels the last compile found)."""

import os
import random
import struct
import subprocess
import sys

import numpy as np
import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bisheng_harness import DeviceBinary, clean_env, copy_testdata, llvm_tool, run_bisheng
from device_meta import meta_lines

TOO_NEW_S = 2.0  # file_digests.TOO_NEW_S: a header changed more recently is not remembered

ARCH = "--npu-arch=dav-2201"
PROGRAM = """#include "kernel_operator.h"
extern "C" __global__ __aicore__ void twice(GM_ADDR x, uint32_t n) {
    for (uint32_t i = 0; i < n; ++i) ((__gm__ float*)x)[i] *= 2.0f;
}
int main() {
    twice<<<1, nullptr, nullptr>>>(nullptr, 0);
    return HOST_VALUE;
}
"""
SECOND_KERNEL = """extern "C" __global__ __aicore__ void thrice(GM_ADDR x) { ((__gm__ float*)x)[0] *= 3.0f; }
int other() { thrice<<<1, nullptr, nullptr>>>(nullptr); return 0; }
"""


def cached_env(cache, objects: bool = True) -> dict:
    """objects=False: no object cache, so a repeated compile reaches the device binary cache."""
    env = clean_env()
    env["BISHENG_PCH_CACHE"] = str(cache)
    if not objects:
        env["BISHENG_OBJECT_CACHE"] = "off"
    return env


def uncached_env() -> dict:
    env = clean_env()
    env["BISHENG_PCH_CACHE"] = "off"
    return env


def compile_ok(args, cwd, env):
    proc = run_bisheng(["-c", *args, ARCH, "--time"], str(cwd), env)
    assert proc.returncode == 0, proc.stderr
    return proc.stderr


def extract(host_object, tmp_path) -> bytes:
    out = tmp_path / "k.aicore.o"
    subprocess.run(
        [llvm_tool("llvm-objcopy"), "-O", "binary", "--only-section=.aicore_binary", str(host_object), str(out)],
        check=True,
    )
    return out.read_bytes()


@pytest.fixture
def cache(tmp_path):
    path = tmp_path / "cache"
    path.mkdir(mode=0o700)
    return path


def test_a_repeated_compile_reuses_the_device_binary_with_the_same_bytes(tmp_path, cache):
    copy_testdata(str(tmp_path), "add_custom.asc", "add_tiling.h")
    first = compile_ok(["add_custom.asc", "-o", "first.o"], tmp_path, cached_env(cache, objects=False))
    again = compile_ok(["add_custom.asc", "-o", "again.o"], tmp_path, cached_env(cache, objects=False))
    compile_ok(["add_custom.asc", "-o", "plain.o"], tmp_path, uncached_env())
    assert "device compile" in first and "device compile" not in again and "device link" not in again
    assert "registration compile" in first and "registration compile" not in again
    plain = (tmp_path / "plain.o").read_bytes()
    assert (tmp_path / "first.o").read_bytes() == plain == (tmp_path / "again.o").read_bytes()
    assert len(list((cache / "device").glob("*.so"))) == 1

    # the reused binary runs: add_custom on random data against numpy
    seed = random.randrange(1 << 30)
    print(f"seed={seed}")
    rng = np.random.default_rng(seed)
    device = DeviceBinary(extract(tmp_path / "again.o", tmp_path), str(tmp_path), 2201)
    n, blocks = int(rng.integers(500, 3000)), 4
    x, y = (rng.standard_normal(n).astype(np.float32) for _ in range(2))
    z = np.full(n, np.nan, dtype=np.float32)
    device.ranges = [(a.ctypes.data, a.nbytes) for a in (x, y, z)]
    device.run(
        "add_custom", struct.pack("<QQQII", x.ctypes.data, y.ctypes.data, z.ctypes.data, n, -(-n // blocks)), blocks
    )
    np.testing.assert_array_equal(z, x + y)


def test_an_edited_header_is_not_served_from_the_cache(tmp_path, cache):
    # The user changes the tiling struct in a header: the device binary must follow (new
    # parameter size), exactly as a compile without any cache writes it.
    copy_testdata(str(tmp_path), "add_custom.asc", "add_tiling.h")
    compile_ok(["add_custom.asc", "-o", "before.o"], tmp_path, cached_env(cache))
    header = tmp_path / "add_tiling.h"
    header.write_text(header.read_text().replace("uint32_t blockLength;", "uint32_t blockLength;\n  uint32_t pad;"))
    after = compile_ok(["add_custom.asc", "-o", "after.o"], tmp_path, cached_env(cache))
    compile_ok(["add_custom.asc", "-o", "plain.o"], tmp_path, uncached_env())
    assert "device compile" in after
    assert (tmp_path / "after.o").read_bytes() == (tmp_path / "plain.o").read_bytes()
    assert (tmp_path / "after.o").read_bytes() != (tmp_path / "before.o").read_bytes()
    info = DeviceBinary(extract(tmp_path / "after.o", tmp_path), str(tmp_path), 2201).info("add_custom")
    assert info.params == 4


def test_a_damaged_cache_entry_is_compiled_again(tmp_path, cache):
    copy_testdata(str(tmp_path), "add_custom.asc", "add_tiling.h")
    compile_ok(["add_custom.asc", "-o", "first.o"], tmp_path, cached_env(cache, objects=False))
    (entry,) = (cache / "device").glob("*.so")
    entry.write_bytes(b"\x7fELF not a device binary")
    again = compile_ok(["add_custom.asc", "-o", "again.o"], tmp_path, cached_env(cache, objects=False))
    assert "device compile" in again
    assert (tmp_path / "again.o").read_bytes() == (tmp_path / "first.o").read_bytes()
    assert entry.read_bytes() == extract(tmp_path / "again.o", tmp_path)  # rewritten whole


def test_a_damaged_registration_entry_is_compiled_again(tmp_path, cache):
    copy_testdata(str(tmp_path), "add_custom.asc", "add_tiling.h")
    compile_ok(["add_custom.asc", "-o", "first.o"], tmp_path, cached_env(cache, objects=False))
    (entry,) = (cache / "device").glob("*.reg.o")
    entry.write_bytes(entry.read_bytes()[:-16] + bytes(16))
    again = compile_ok(["add_custom.asc", "-o", "again.o"], tmp_path, cached_env(cache, objects=False))
    assert "registration compile" in again and "device compile" not in again
    assert (tmp_path / "again.o").read_bytes() == (tmp_path / "first.o").read_bytes()


def test_static_and_anonymous_kernels_from_the_cache_keep_their_bytes(tmp_path, cache):
    # local stubs get a name from the device binary's digest: a reused binary must give the same
    (tmp_path / "local.asc").write_text(
        '#include "kernel_operator.h"\n'
        "static __global__ __aicore__ void sk(GM_ADDR x) { ((__gm__ uint8_t*)x)[0] = 9; }\n"
        "namespace { __global__ __aicore__ void ak(GM_ADDR x) { ((__gm__ uint8_t*)x)[0] = 10; } }\n"
        "int main() { sk<<<1, nullptr, nullptr>>>(nullptr); ak<<<1, nullptr, nullptr>>>(nullptr); }\n"
    )
    for name in ("first.o", "again.o"):
        compile_ok(["local.asc", "-o", name], tmp_path, cached_env(cache))
    compile_ok(["local.asc", "-o", "plain.o"], tmp_path, uncached_env())
    assert (
        (tmp_path / "first.o").read_bytes()
        == (tmp_path / "again.o").read_bytes()
        == (tmp_path / "plain.o").read_bytes()
    )


def test_device_cache_off_compiles_every_time(tmp_path, cache):
    copy_testdata(str(tmp_path), "add_custom.asc", "add_tiling.h")
    env = dict(cached_env(cache), BISHENG_DEVICE_CACHE="off")
    for name in ("a.o", "b.o"):
        assert "device compile" in compile_ok(["add_custom.asc", "-o", name], tmp_path, env)
    assert not (cache / "device").exists() or list((cache / "device").iterdir()) == []


needs_two_cpus = pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="the concurrent pass needs 2 CPUs")


def write_program(path, host_value: int, extra: str = "") -> None:
    path.write_text(PROGRAM.replace("HOST_VALUE", str(host_value)) + extra)


@needs_two_cpus
def test_after_a_kernel_edit_the_device_pass_runs_beside_the_host_pass(tmp_path, cache):
    src = tmp_path / "main.asc"
    write_program(src, 0)
    compile_ok(["main.asc", "-o", "m.o"], tmp_path, cached_env(cache))
    src.write_text(src.read_text().replace("*= 2.0f", "*= 4.0f"))  # same kernels, new device code
    edited = compile_ok(["main.asc", "-o", "m.o"], tmp_path, cached_env(cache))
    assert "device pass (waiting for the concurrent one)" in edited, edited
    compile_ok(["main.asc", "-o", "plain.o"], tmp_path, uncached_env())
    assert (tmp_path / "m.o").read_bytes() == (tmp_path / "plain.o").read_bytes()
    assert meta_lines(extract(tmp_path / "m.o", tmp_path))[3:] == ["kernel=twice"]


@needs_two_cpus
def test_a_new_kernel_discards_the_concurrent_guess(tmp_path, cache):
    src = tmp_path / "main.asc"
    write_program(src, 0)
    compile_ok(["main.asc", "-o", "m.o"], tmp_path, cached_env(cache))
    write_program(src, 0, SECOND_KERNEL)  # the last compile's kernel list is now wrong
    edited = compile_ok(["main.asc", "-o", "m.o"], tmp_path, cached_env(cache))
    assert "device pass (waiting for the concurrent one)" not in edited and "device compile" in edited
    compile_ok(["main.asc", "-o", "plain.o"], tmp_path, uncached_env())
    assert (tmp_path / "m.o").read_bytes() == (tmp_path / "plain.o").read_bytes()
    assert meta_lines(extract(tmp_path / "m.o", tmp_path))[3:] == ["kernel=twice", "kernel=thrice"]


@needs_two_cpus
def test_a_host_error_cancels_the_concurrent_device_pass(tmp_path, cache):
    src = tmp_path / "main.asc"
    write_program(src, 0)
    compile_ok(["main.asc", "-o", "m.o"], tmp_path, cached_env(cache))
    good = (tmp_path / "m.o").read_bytes()
    src.write_text(src.read_text().replace("return 0;", "return undeclared_name;"))
    proc = run_bisheng(["-c", "main.asc", "-o", "m.o", ARCH], str(tmp_path), cached_env(cache))
    assert proc.returncode != 0
    assert "main.asc:7:" in proc.stderr and "undeclared_name" in proc.stderr
    assert [line for line in proc.stderr.splitlines() if line.startswith("bisheng: error:")] == [
        "bisheng: error: compilation of 'main.asc' failed"
    ]
    assert (tmp_path / "m.o").read_bytes() == good  # OUT untouched
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no work dir left


def run_twice(obj, tmp_path, factor: float) -> None:
    """Runs the program's kernel `twice(x, n)` on random data (seed printed) against numpy."""
    seed = random.randrange(1 << 30)
    print(f"seed={seed}")
    rng = np.random.default_rng(seed)
    n = int(rng.integers(100, 5000))
    x = rng.standard_normal(n).astype(np.float32)
    want = x * np.float32(factor)
    where = tmp_path / f"run_{obj.stem}"  # a file of its own: one path is dlopened once
    where.mkdir()
    device = DeviceBinary(extract(obj, tmp_path), str(where), 2201)
    device.ranges = [(x.ctypes.data, x.nbytes)]
    device.run("twice", struct.pack("<QI4x", x.ctypes.data, n), 1)  # 16 bytes: padded like the C++ struct
    np.testing.assert_array_equal(x, want)


def test_a_host_only_edit_reuses_the_device_binary(tmp_path, cache):
    # Edit-compile-run: the user changes main and adds a host function. The device pass
    # compiles the file without its host-only functions, so its binary is the cached one,
    # byte for byte what a compile without any cache writes for the edited file.
    src = tmp_path / "main.asc"
    write_program(src, 0)
    compile_ok(["main.asc", "-o", "m.o"], tmp_path, cached_env(cache))
    write_program(src, 7, "int print_report(int code) { return code * 3; }\n")
    edited = compile_ok(["main.asc", "-o", "m.o"], tmp_path, cached_env(cache))
    assert "device compile" not in edited and "device link" not in edited, edited
    compile_ok(["main.asc", "-o", "plain.o"], tmp_path, uncached_env())
    assert (tmp_path / "m.o").read_bytes() == (tmp_path / "plain.o").read_bytes()
    run_twice(tmp_path / "m.o", tmp_path, 2.0)


HELPER_PROGRAM = """#include "kernel_operator.h"
float scale_of(float v) { return v * FACTOR; }
extern "C" __global__ __aicore__ void twice(GM_ADDR x, uint32_t n) {
    for (uint32_t i = 0; i < n; ++i) ((__gm__ float*)x)[i] = scale_of(((__gm__ float*)x)[i]);
}
int main() { twice<<<1, nullptr, nullptr>>>(nullptr, 0); return 0; }
"""


def test_an_edited_helper_the_kernel_calls_is_never_served_stale(tmp_path, cache):
    # A plain function before the first kernel serves the kernel: its body is device code, so
    # editing it must give a new binary (the one an uncached compile gives), never the old one.
    src = tmp_path / "main.asc"
    src.write_text(HELPER_PROGRAM.replace("FACTOR", "2.0f"))
    compile_ok(["main.asc", "-o", "m2.o"], tmp_path, cached_env(cache))
    run_twice(tmp_path / "m2.o", tmp_path, 2.0)
    src.write_text(HELPER_PROGRAM.replace("FACTOR", "3.0f"))
    edited = compile_ok(["main.asc", "-o", "m3.o"], tmp_path, cached_env(cache))
    assert "device compile" in edited, edited
    compile_ok(["main.asc", "-o", "plain.o"], tmp_path, uncached_env())
    assert (tmp_path / "m3.o").read_bytes() == (tmp_path / "plain.o").read_bytes()
    run_twice(tmp_path / "m3.o", tmp_path, 3.0)


def test_a_body_reached_only_through_a_header_macro_is_compiled_with_the_whole_file(tmp_path, cache):
    # The kernel calls `scale_of` through a macro of the user's header: the file alone does not
    # show the use, so its body is dropped at first and the device link misses it; the driver
    # then compiles the whole file. Editing that body later is a new binary too.
    (tmp_path / "apply.h").write_text("#define APPLY(v) scale_of(v)\n")
    program = HELPER_PROGRAM.replace("scale_of(((__gm__", "APPLY(((__gm__").replace(
        '#include "kernel_operator.h"\n', '#include "kernel_operator.h"\n#include "apply.h"\n'
    )
    src = tmp_path / "main.asc"
    src.write_text(program.replace("FACTOR", "5.0f"))
    compile_ok(["main.asc", "-o", "m5.o"], tmp_path, cached_env(cache))
    compile_ok(["main.asc", "-o", "plain5.o"], tmp_path, uncached_env())
    assert (tmp_path / "m5.o").read_bytes() == (tmp_path / "plain5.o").read_bytes()
    run_twice(tmp_path / "m5.o", tmp_path, 5.0)
    src.write_text(program.replace("FACTOR", "0.5f"))
    compile_ok(["main.asc", "-o", "m05.o"], tmp_path, cached_env(cache))
    run_twice(tmp_path / "m05.o", tmp_path, 0.5)


def test_a_killed_compile_leaves_no_cache_temporaries_behind(tmp_path, cache):
    # The user interrupts the first compile (SIGKILL to the build) while it writes the PCH:
    # its temporaries stay in the cache. The next compile that stores an entry sweeps those of
    # dead writers once they are a minute old; a live writer's and unrelated files are kept.
    import signal
    import time

    copy_testdata(str(tmp_path), "add_custom.asc", "add_tiling.h")
    from bisheng_harness import DRIVER

    proc = subprocess.Popen(
        [DRIVER, "-c", "add_custom.asc", "-o", "k.o", ARCH],
        cwd=tmp_path,
        env=cached_env(cache),
        start_new_session=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.time() + 120
    while not list(cache.glob(".*.tmp*")) and time.time() < deadline and proc.poll() is None:
        time.sleep(0.01)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    left = list(cache.glob(".*.tmp*"))
    assert left, "the compile was not killed while writing the cache"
    old = time.time() - 120
    live = cache / f".other.pch.{os.getpid()}-abc123.tmp"  # a compile still running
    unrelated = cache / "notes.txt"
    for path in (live, unrelated):
        path.write_bytes(b"x")
    for path in left + [live, unrelated]:
        os.utime(path, (old, old))
    compile_ok(["add_custom.asc", "-o", "k.o"], tmp_path, cached_env(cache))
    assert not [p for p in left if p.exists()]
    assert live.exists() and unrelated.exists()
    assert list(cache.glob("*.pch")) and not list((cache / "device").glob(".*.tmp*"))


def test_a_header_rewritten_with_its_old_size_and_mtime_is_hashed_again(tmp_path, cache):
    # Header digests are remembered by stat (inode, size, mtime, ctime). A user's tool that
    # rewrites a header in place and restores its mtime (same size, same inode) still moves its
    # ctime: the header is hashed again and the device binary follows it.
    import time

    (tmp_path / "factor.h").write_text("#define FACTOR 2.0f\n")
    src = tmp_path / "main.asc"
    src.write_text(
        HELPER_PROGRAM.replace('#include "kernel_operator.h"\n', '#include "kernel_operator.h"\n#include "factor.h"\n')
    )
    time.sleep(TOO_NEW_S + 0.2)  # old enough to be remembered
    compile_ok(["main.asc", "-o", "two.o"], tmp_path, cached_env(cache))
    assert "factor.h" in (cache / "file-digests.json").read_text()
    header = tmp_path / "factor.h"
    stat = header.stat()
    with open(header, "r+") as f:  # same inode, same size
        f.write("#define FACTOR 7.0f\n")
    os.utime(header, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    again = compile_ok(["main.asc", "-o", "seven.o"], tmp_path, cached_env(cache))
    assert "device compile" in again, again
    compile_ok(["main.asc", "-o", "plain.o"], tmp_path, uncached_env())
    assert (tmp_path / "seven.o").read_bytes() == (tmp_path / "plain.o").read_bytes()
    run_twice(tmp_path / "seven.o", tmp_path, 7.0)


HOST_CPP = """#include <cstdio>
#include <cmath>
int main(int argc, char**) { std::printf("%.3f\\n", std::sqrt(2.0 * argc)); return 0; }
"""


def test_a_link_through_the_remembered_linker_line_writes_what_clang_writes(tmp_path, cache):
    # The second link starts ld.lld with the command clang printed for the first; other link
    # flags are another command. Every program is the one a clang-driven link writes.
    (tmp_path / "main.cpp").write_text(HOST_CPP)

    def link(out, env, *flags):
        proc = run_bisheng(["main.cpp", "-o", out, *flags], str(tmp_path), env)
        assert proc.returncode == 0, proc.stderr
        return (tmp_path / out).read_bytes()

    first = link("first", cached_env(cache))
    second = link("second", cached_env(cache))
    assert first == second == link("by_clang", uncached_env())
    assert len(list(cache.glob("linker-line-*.json"))) == 1
    other = link("other", cached_env(cache), "-Wl,--build-id=none")
    assert other == link("other_by_clang", uncached_env(), "-Wl,--build-id=none") != first
    assert len(list(cache.glob("linker-line-*.json"))) == 2
    out = subprocess.run([str(tmp_path / "second"), "x"], capture_output=True, text=True, check=True).stdout
    assert out == "2.000\n"
    # clang prints `$` escaped (`"\$ORIGIN"`): the rpath must reach the linker as written
    rpath = link("rpath", cached_env(cache), "-Wl,-rpath,$ORIGIN/lib")
    assert rpath == link("rpath_by_clang", uncached_env(), "-Wl,-rpath,$ORIGIN/lib")
    assert b"$ORIGIN/lib" in rpath and b"\\$ORIGIN" not in rpath


SHADOW_PROGRAM = """#include "kernel_operator.h"
#include "factor.h"
extern "C" __global__ __aicore__ void twice(GM_ADDR x, uint32_t n) {
    for (uint32_t i = 0; i < n; ++i) ((__gm__ float*)x)[i] *= FACTOR;
}
int main() { twice<<<1, nullptr, nullptr>>>(nullptr, 0); return 0; }
"""


def test_an_unchanged_compile_is_served_whole_from_the_object_cache(tmp_path, cache):
    # The same command again (a script that compiles before it runs): no host pass, no
    # device pass; the object is the one the first compile wrote, and an uncached one writes.
    copy_testdata(str(tmp_path), "add_custom.asc", "add_tiling.h")
    compile_ok(["add_custom.asc", "-o", "first.o"], tmp_path, cached_env(cache))
    again = compile_ok(["add_custom.asc", "-o", "again.o"], tmp_path, cached_env(cache))
    assert "object cache (dependency scan, look-up)" in again and "host pass" not in again, again
    compile_ok(["add_custom.asc", "-o", "plain.o"], tmp_path, uncached_env())
    assert (
        (tmp_path / "first.o").read_bytes()
        == (tmp_path / "again.o").read_bytes()
        == (tmp_path / "plain.o").read_bytes()
    )


def test_the_object_cache_never_serves_a_changed_input(tmp_path, cache):
    # What changes the object must reach it: a flag, an edited header, a new header that now
    # shadows the old one (the quoted include finds the source's directory first), a source
    # that spells __TIME__. Each result is what an uncached compile writes, and runs.
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "factor.h").write_text("#define FACTOR 2.0f\n")
    (tmp_path / "main.asc").write_text(SHADOW_PROGRAM)
    args = ["main.asc", "-I", "inc"]

    def compile_twice(out, *extra):
        logs = [compile_ok([*args, *extra, "-o", f"{out}{i}.o"], tmp_path, cached_env(cache)) for i in (1, 2)]
        compile_ok([*args, *extra, "-o", f"{out}.plain.o"], tmp_path, uncached_env())
        assert (tmp_path / f"{out}2.o").read_bytes() == (tmp_path / f"{out}.plain.o").read_bytes()
        return logs

    first, second = compile_twice("a")
    assert "host pass" in first and "host pass" not in second
    run_twice(tmp_path / "a2.o", tmp_path, 2.0)

    flagged, _ = compile_twice("b", "-DUNUSED_FLAG=1")
    assert "host pass" in flagged

    (tmp_path / "inc" / "factor.h").write_text("#define FACTOR 3.0f\n")
    edited, _ = compile_twice("c")
    assert "host pass" in edited
    run_twice(tmp_path / "c2.o", tmp_path, 3.0)

    (tmp_path / "factor.h").write_text("#define FACTOR 5.0f\n")  # shadows inc/factor.h
    shadowed, _ = compile_twice("d")
    assert "host pass" in shadowed
    run_twice(tmp_path / "d2.o", tmp_path, 5.0)

    (tmp_path / "main.asc").write_text(SHADOW_PROGRAM + "const char* built_at() { return __TIME__; }\n")
    clocked = [compile_ok([*args, "-o", f"e{i}.o"], tmp_path, cached_env(cache)) for i in (1, 2)]
    assert all("host pass" in log for log in clocked)
