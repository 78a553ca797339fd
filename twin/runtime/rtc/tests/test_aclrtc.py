"""aclrtc as a CANN user drives it (through ctypes, from the installed tree //twin:cann_home):
program text + a header compiled at run time with bisheng options, the device binary loaded with
aclrtBinaryLoadFromData and launched with aclrtLaunchKernelWithArgsArray on random data (seed
printed) checked against numpy; a program that does not compile gives 176003 with bisheng's
own diagnostics in the log, naming the program; every misuse its CANN code; no temporary file
is left behind."""

import ctypes
import os
import random
from pathlib import Path

import numpy as np
import pytest

RUNFILES = Path(os.environ.get("RUNFILES_DIR", os.getcwd())) / "ascend_twin"
HOME = Path(os.environ.get("ACLRTC_CANN_HOME", RUNFILES / "twin" / "cann_home")).resolve()
SEED = int(os.environ.get("ACLRTC_SEED", random.randrange(1 << 30)))

INVALID_PROG, INVALID_INPUT, INVALID_OPTION, COMPILATION = 176000, 176001, 176002, 176003
ACL_ERROR_INVALID_PARAM = 100000
P = ctypes.c_void_p

HEADER = "#pragma once\nconstexpr int kTile = TILE;\n"
PROGRAM = """#include "kernel_operator.h"
#include "tiles/tile.h"
extern "C" __global__ __aicore__ void axpy(GM_ADDR x, GM_ADDR y, float a) {
  AscendC::GlobalTensor<float> gx, gy;
  const int base = AscendC::GetBlockIdx() * kTile;
  gx.SetGlobalBuffer((__gm__ float*)x + base, kTile);
  gy.SetGlobalBuffer((__gm__ float*)y + base, kTile);
  for (int i = 0; i < kTile; ++i) gy.SetValue(i, gy.GetValue(i) + a * gx.GetValue(i));
}
"""


@pytest.fixture(scope="module")
def libs():
    os.environ["ASCEND_HOME_PATH"] = str(HOME)
    acl = ctypes.CDLL(str(HOME / "lib64" / "libascendcl.so"))
    rtc = ctypes.CDLL(str(HOME / "lib64" / "libacl_rtc.so"))
    rtc.aclrtcCreateProg.argtypes = [
        ctypes.POINTER(P),
        ctypes.c_char_p,
        ctypes.c_char_p,
        ctypes.c_int,
        ctypes.POINTER(ctypes.c_char_p),
        ctypes.POINTER(ctypes.c_char_p),
    ]
    rtc.aclrtcCompileProg.argtypes = [P, ctypes.c_int, ctypes.POINTER(ctypes.c_char_p)]
    rtc.aclrtcDestroyProg.argtypes = [ctypes.POINTER(P)]
    for name in ("aclrtcGetBinDataSize", "aclrtcGetCompileLogSize"):
        getattr(rtc, name).argtypes = [P, ctypes.POINTER(ctypes.c_size_t)]
    for name in ("aclrtcGetBinData", "aclrtcGetCompileLog"):
        getattr(rtc, name).argtypes = [P, ctypes.c_char_p]
    acl.aclGetRecentErrMsg.restype = ctypes.c_char_p
    acl.aclrtMalloc.argtypes = [ctypes.POINTER(P), ctypes.c_size_t, ctypes.c_int]
    acl.aclrtMemcpy.argtypes = [P, ctypes.c_size_t, P, ctypes.c_size_t, ctypes.c_int]
    acl.aclrtBinaryLoadFromData.argtypes = [P, ctypes.c_size_t, P, ctypes.POINTER(P)]
    acl.aclrtBinaryGetFunction.argtypes = [P, ctypes.c_char_p, ctypes.POINTER(P)]
    acl.aclrtLaunchKernelWithArgsArray.argtypes = [P, ctypes.c_uint32, P, P, ctypes.POINTER(P)]
    acl.aclrtSynchronizeStream.argtypes = [P]
    acl.aclrtFree.argtypes = [P]
    acl.aclrtBinaryUnLoad.argtypes = [P]
    assert acl.aclrtSetDevice(0) == 0
    print(f"seed={SEED} (ACLRTC_SEED={SEED} repeats this run)")
    return acl, rtc


def options(*opts):
    return (ctypes.c_char_p * len(opts))(*[o.encode() for o in opts])


def create(rtc, text, name="axpy.asc", headers=()):
    prog = P()
    texts = (ctypes.c_char_p * len(headers))(*[h[1].encode() for h in headers])
    names = (ctypes.c_char_p * len(headers))(*[h[0].encode() for h in headers])
    assert rtc.aclrtcCreateProg(ctypes.byref(prog), text.encode(), name.encode(), len(headers), texts, names) == 0
    return prog


def compile_log(rtc, prog) -> str:
    size = ctypes.c_size_t()
    assert rtc.aclrtcGetCompileLogSize(prog, ctypes.byref(size)) == 0
    buf = ctypes.create_string_buffer(size.value)
    assert rtc.aclrtcGetCompileLog(prog, buf) == 0
    assert len(buf.value) == size.value - 1  # the size counts the NUL
    return buf.value.decode()


def test_compiled_program_runs_on_random_data(libs, tmp_path, monkeypatch):
    acl, rtc = libs
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    rng = np.random.default_rng(SEED)
    tile, blocks = int(rng.integers(4, 64)), int(rng.integers(1, 9))
    a = np.float32(rng.uniform(-4, 4))
    x = rng.standard_normal(tile * blocks).astype(np.float32)
    y = rng.standard_normal(tile * blocks).astype(np.float32)

    prog = create(rtc, PROGRAM, headers=[("tiles/tile.h", HEADER)])
    assert rtc.aclrtcCompileProg(prog, 2, options("--npu-arch=dav-2201", f"-DTILE={tile}")) == 0, compile_log(rtc, prog)
    size = ctypes.c_size_t()
    assert rtc.aclrtcGetBinDataSize(prog, ctypes.byref(size)) == 0
    data = ctypes.create_string_buffer(size.value)
    assert rtc.aclrtcGetBinData(prog, data) == 0
    assert data.raw[:4] == b"\x7fELF"
    assert list(tmp_path.iterdir()) == []  # the compile's directory is gone

    binary, func = P(), P()
    assert acl.aclrtBinaryLoadFromData(data, size.value, None, ctypes.byref(binary)) == 0, acl.aclGetRecentErrMsg()
    assert acl.aclrtBinaryGetFunction(binary, b"axpy", ctypes.byref(func)) == 0
    dx, dy = P(), P()
    nbytes = x.nbytes
    for dev, host in ((dx, x), (dy, y)):
        assert acl.aclrtMalloc(ctypes.byref(dev), nbytes, 0) == 0
        assert acl.aclrtMemcpy(dev, nbytes, host.ctypes.data, nbytes, 1) == 0
    scale = ctypes.c_float(a)
    args = (P * 3)(ctypes.addressof(dx), ctypes.addressof(dy), ctypes.addressof(scale))
    assert acl.aclrtLaunchKernelWithArgsArray(func, blocks, None, None, args) == 0, acl.aclGetRecentErrMsg()
    assert acl.aclrtSynchronizeStream(None) == 0, acl.aclGetRecentErrMsg()
    out = np.empty_like(y)
    assert acl.aclrtMemcpy(out.ctypes.data, nbytes, dy, nbytes, 2) == 0
    np.testing.assert_allclose(out, y + a * x, rtol=1e-6, atol=1e-6)

    # a kernel with parameters needs its array
    assert acl.aclrtLaunchKernelWithArgsArray(func, blocks, None, None, None) == ACL_ERROR_INVALID_PARAM
    assert b"args is null but kernel axpy takes 3 parameters" in acl.aclGetRecentErrMsg()
    for dev in (dx, dy):
        acl.aclrtFree(dev)
    assert acl.aclrtBinaryUnLoad(binary) == 0
    assert rtc.aclrtcDestroyProg(ctypes.byref(prog)) == 0 and prog.value is None


def test_compile_error_gives_bishengs_diagnostics_naming_the_program(libs, tmp_path, monkeypatch):
    _, rtc = libs
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    prog = create(
        rtc,
        '#include "kernel_operator.h"\nextern "C" __global__ __aicore__ void k() {\n  undeclared_thing();\n}\n',
        name="broken.asc",
    )
    assert rtc.aclrtcCompileProg(prog, 1, options("--npu-arch=dav-2201")) == COMPILATION
    log = compile_log(rtc, prog)
    assert "broken.asc:3:" in log and "undeclared_thing" in log and "error" in log, log
    assert str(tmp_path) not in log  # diagnostics name the program, not the temporary path
    assert list(tmp_path.iterdir()) == []
    size = ctypes.c_size_t()
    assert rtc.aclrtcGetBinDataSize(prog, ctypes.byref(size)) == INVALID_PROG
    assert rtc.aclrtcDestroyProg(ctypes.byref(prog)) == 0


def test_misuse_gets_canns_codes(libs):
    _, rtc = libs
    prog, size = P(), ctypes.c_size_t()
    assert rtc.aclrtcCreateProg(None, b"x", b"n", 0, None, None) == INVALID_INPUT
    assert rtc.aclrtcCreateProg(ctypes.byref(prog), None, b"n", 0, None, None) == INVALID_INPUT
    assert rtc.aclrtcCreateProg(ctypes.byref(prog), b"x", b"n", 1, None, None) == INVALID_INPUT
    assert rtc.aclrtcCompileProg(None, 0, None) == INVALID_PROG
    prog = create(rtc, "int x;", name="")
    assert rtc.aclrtcCompileProg(prog, -1, None) == INVALID_INPUT
    assert rtc.aclrtcCompileProg(prog, 1, options("")) == INVALID_OPTION
    assert rtc.aclrtcCompileProg(prog, 2, options("-o", "/tmp/elsewhere")) == INVALID_OPTION
    assert rtc.aclrtcGetCompileLogSize(prog, None) == INVALID_INPUT
    assert rtc.aclrtcGetBinData(prog, None) == INVALID_INPUT
    stale = P(prog.value)
    assert rtc.aclrtcDestroyProg(ctypes.byref(prog)) == 0
    assert rtc.aclrtcGetBinDataSize(stale, ctypes.byref(size)) == INVALID_PROG
    assert rtc.aclrtcDestroyProg(ctypes.byref(stale)) == INVALID_PROG
    escaping = create(rtc, "int x;", headers=[("../outside.h", "int y;")])
    assert rtc.aclrtcCompileProg(escaping, 1, options("--npu-arch=dav-2201")) == INVALID_INPUT
    assert "'../outside.h' is not a relative path inside the program" in compile_log(rtc, escaping)
    assert rtc.aclrtcDestroyProg(ctypes.byref(escaping)) == 0
