"""pyACL's kernel launch calls against libascendcl.so with a bisheng-built kernel
(twin/runtime/tests/kernels/kernel_args.asc) loaded from its file: argument lists with tensors,
scalars and placeholders, launched with acl.rt.launch_kernel_with_config and compared with
numpy on random data; the launch configuration; the error codes of misuse."""

import ctypes
import os

import numpy as np
import pytest

import acl

SEED = int.from_bytes(os.urandom(4), "little")
print(f"seed={SEED}")

NORMAL_ONLY, H2D, D2H = 2, 1, 2
ACL_ERROR_RT_PARAM_INVALID, ACL_ERROR_RT_INVALID_HANDLE = 107000, 107017
ACL_ERROR_RT_FEATURE_NOT_SUPPORT, ACL_ERROR_RT_AICORE_EXCEPTION = 207000, 507015
TILING = np.dtype([("tile_length", "<u4"), ("beta", "<f4")])  # AxpbTiling in kernel_args.asc


def kernel_path() -> str:
    return os.path.abspath(os.environ["KERNEL_ARGS_KERNEL"])


def ok(ret, what=""):
    assert ret == 0, f"{what}: ret={ret}: {acl.get_recent_err_msg()}"


@pytest.fixture()
def session():
    ok(acl.init(), "init")
    ok(acl.rt.set_device(0), "set_device")
    stream, ret = acl.rt.create_stream()
    ok(ret, "create_stream")
    bin_handle, ret = acl.rt.binary_load_from_file(kernel_path(), [])
    ok(ret, "binary_load_from_file")
    yield stream, bin_handle
    ok(acl.rt.binary_unload(bin_handle), "binary_unload")
    ok(acl.rt.destroy_stream(stream), "destroy_stream")
    ok(acl.rt.reset_device(0), "reset_device")
    ok(acl.finalize(), "finalize")


def function(bin_handle, name):
    func, ret = acl.rt.binary_get_function(bin_handle, name)
    ok(ret, f"binary_get_function({name})")
    return func


def to_device(array: np.ndarray) -> int:
    ptr, ret = acl.rt.malloc(array.nbytes, NORMAL_ONLY)
    ok(ret, "malloc")
    ok(acl.rt.memcpy(ptr, array.nbytes, acl.util.numpy_to_ptr(array), array.nbytes, H2D), "memcpy H2D")
    return ptr


def from_device(ptr: int, like: np.ndarray) -> np.ndarray:
    out = np.empty_like(like)
    ok(acl.rt.memcpy(acl.util.numpy_to_ptr(out), out.nbytes, ptr, out.nbytes, D2H), "memcpy D2H")
    return out


def append(args_handle, value: ctypes._SimpleCData):
    """As GE's custom-op samples do: the value in a ctypes object, its address and size."""
    param, ret = acl.rt.kernel_args_append(args_handle, ctypes.addressof(value), ctypes.sizeof(value))
    ok(ret, "kernel_args_append")
    return param


def append_data(args_handle, data: bytes):
    param, ret = acl.rt.kernel_args_append_place_holder(args_handle)
    ok(ret, "kernel_args_append_place_holder")
    buffer, ret = acl.rt.kernel_args_get_place_holder_buffer(args_handle, param, len(data))
    ok(ret, "kernel_args_get_place_holder_buffer")
    ctypes.memmove(buffer, data, len(data))
    return param


def build_axpb(func, dx, dy, dz, alpha, total, tile_length, beta):
    args, ret = acl.rt.kernel_args_init(func)
    ok(ret, "kernel_args_init")
    for ptr in (dx, dy, dz):
        append(args, ctypes.c_uint64(ptr))
    alpha_param = append(args, ctypes.c_float(alpha))
    append(args, ctypes.c_uint32(total))
    append_data(args, np.array([(tile_length, beta)], dtype=TILING).tobytes())
    ok(acl.rt.kernel_args_finalize(args), "kernel_args_finalize")
    return args, alpha_param


@pytest.mark.parametrize("blocks", [1, 3, 8])
def test_axpb_matches_numpy(session, blocks):
    stream, bin_handle = session
    rng = np.random.default_rng(SEED + blocks)
    func = function(bin_handle, "axpb")
    tile_length = 64 * int(rng.integers(1, 5))
    total = blocks * tile_length * int(rng.integers(1, 4))
    x = rng.uniform(-100, 100, total).astype(np.float32)
    y = rng.uniform(-100, 100, total).astype(np.float32)
    alpha, beta = np.float32(rng.uniform(-4, 4)), np.float32(rng.uniform(-4, 4))
    dx, dy, dz = to_device(x), to_device(y), to_device(np.zeros_like(x))
    args, _ = build_axpb(func, dx, dy, dz, float(alpha), total, tile_length, float(beta))
    ok(acl.rt.launch_kernel_with_config(func, blocks, stream, [], args, 0), "launch_kernel_with_config")
    ok(acl.rt.synchronize_stream(stream), "synchronize_stream")
    np.testing.assert_allclose(from_device(dz, x), alpha * x + y + beta, rtol=1e-5, atol=1e-4, err_msg=f"seed={SEED}")
    for ptr in (dx, dy, dz):
        ok(acl.rt.free(ptr), "free")


def test_scalar_widths_and_table_placeholder(session):
    stream, bin_handle = session
    rng = np.random.default_rng(SEED)
    func = function(bin_handle, "scalars")
    n = int(rng.integers(50, 300))
    a, b = int(rng.integers(-(1 << 60), 1 << 60)), int(rng.integers(-30000, 30000))
    table = rng.integers(-500000, 500000, 8).astype(np.int64)
    out = to_device(np.zeros(n, np.int64))
    args, ret = acl.rt.kernel_args_init(func)
    ok(ret, "kernel_args_init")
    append(args, ctypes.c_uint64(out))
    append(args, ctypes.c_int64(a))
    append(args, ctypes.c_int16(b))
    table_param, ret = acl.rt.kernel_args_append_place_holder(args)
    ok(ret, "kernel_args_append_place_holder")
    append(args, ctypes.c_uint32(n))
    buffer, ret = acl.rt.kernel_args_get_place_holder_buffer(args, table_param, table.nbytes)
    ok(ret, "kernel_args_get_place_holder_buffer")
    acl.util.ptr_to_numpy(buffer, (8,), np.int64)[:] = table
    ok(acl.rt.kernel_args_finalize(args), "kernel_args_finalize")
    ok(acl.rt.launch_kernel_with_config(func, 1, stream, [], args, 0), "launch_kernel_with_config")
    ok(acl.rt.synchronize_stream(stream), "synchronize_stream")
    want = np.int64(a) + np.int64(b) * np.arange(n, dtype=np.int64) + table[np.arange(n) % 8]
    np.testing.assert_array_equal(from_device(out, np.zeros(n, np.int64)), want, err_msg=f"seed={SEED}")
    ok(acl.rt.free(out), "free")


def test_para_update_and_relaunch(session):
    stream, bin_handle = session
    rng = np.random.default_rng(SEED + 100)
    func = function(bin_handle, "axpb")
    blocks, tile_length = 4, 128
    total = blocks * tile_length
    x = rng.uniform(-10, 10, total).astype(np.float32)
    y = rng.uniform(-10, 10, total).astype(np.float32)
    dx, dy, dz = to_device(x), to_device(y), to_device(np.zeros_like(x))
    args, alpha_param = build_axpb(func, dx, dy, dz, 1.0, total, tile_length, 0.5)
    new_alpha = ctypes.c_float(-2.5)
    ok(acl.rt.kernel_args_para_update(args, alpha_param, ctypes.addressof(new_alpha), ctypes.sizeof(new_alpha)))
    assert acl.rt.launch_kernel_with_config(func, blocks, stream, [], args, 0) == ACL_ERROR_RT_PARAM_INVALID
    assert "finalize it again" in acl.get_recent_err_msg()
    ok(acl.rt.kernel_args_finalize(args))
    ok(acl.rt.launch_kernel_with_config(func, blocks, stream, [], args, 0))
    ok(acl.rt.synchronize_stream(stream))
    np.testing.assert_allclose(
        from_device(dz, x), np.float32(-2.5) * x + y + np.float32(0.5), rtol=1e-5, atol=1e-4, err_msg=f"seed={SEED}"
    )


def test_user_memory_args(session):
    stream, bin_handle = session
    rng = np.random.default_rng(SEED + 200)
    func = function(bin_handle, "axpb")
    handle_size, ret = acl.rt.kernel_args_get_handle_mem_size(func)
    ok(ret)
    args_size, ret = acl.rt.kernel_args_get_mem_size(func, 6 * 8 + TILING.itemsize)
    ok(ret)
    handle_mem = (ctypes.c_uint64 * ((handle_size + 7) // 8))()
    args_mem = (ctypes.c_uint64 * ((args_size + 7) // 8))()
    args = ctypes.addressof(handle_mem)
    ok(acl.rt.kernel_args_init_by_user_mem(func, args, ctypes.addressof(args_mem), args_size))
    total = 2 * 64
    x = rng.uniform(-1, 1, total).astype(np.float32)
    y = rng.uniform(-1, 1, total).astype(np.float32)
    dx, dy, dz = to_device(x), to_device(y), to_device(np.zeros_like(x))
    for ptr in (dx, dy, dz):
        append(args, ctypes.c_uint64(ptr))
    append(args, ctypes.c_float(3.0))
    append(args, ctypes.c_uint32(total))
    append_data(args, np.array([(64, -1.0)], dtype=TILING).tobytes())
    ok(acl.rt.kernel_args_finalize(args))
    assert args_mem[0] == dx  # the parameters live in the caller's memory
    ok(acl.rt.launch_kernel_with_config(func, 2, stream, [], args, 0))
    ok(acl.rt.synchronize_stream(stream))
    np.testing.assert_allclose(
        from_device(dz, x), np.float32(3.0) * x + y - np.float32(1.0), rtol=1e-5, atol=1e-5, err_msg=f"seed={SEED}"
    )


def test_dynamic_ub_config(session):
    stream, bin_handle = session
    func = function(bin_handle, "ub_take")
    args, ret = acl.rt.kernel_args_init(func)
    ok(ret)
    append(args, ctypes.c_uint64(0))
    append(args, ctypes.c_uint32(196608 - 16384))  # Ascend910B1's UB less 16 KiB
    ok(acl.rt.kernel_args_finalize(args))
    ok(
        acl.rt.launch_kernel_with_config(
            func, 2, stream, [{"id": acl.ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE, "value": 0}], args, 0
        )
    )
    ok(acl.rt.synchronize_stream(stream))
    dyn = [{"id": acl.ACL_RT_LAUNCH_KERNEL_ATTR_DYN_UBUF_SIZE, "value": 32768}]
    ok(acl.rt.launch_kernel_with_config(func, 2, stream, dyn, args, 0))
    assert acl.rt.synchronize_stream(stream) == ACL_ERROR_RT_AICORE_EXCEPTION
    assert acl.get_recent_err_msg().startswith("kernel ub_take block 0: ")
    offset = [{"id": acl.ACL_RT_LAUNCH_KERNEL_ATTR_BLOCKDIM_OFFSET, "value": 2}]
    assert acl.rt.launch_kernel_with_config(func, 2, stream, offset, args, 0) == ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    assert "BLOCKDIM_OFFSET" in acl.get_recent_err_msg()
    with pytest.raises(TypeError, match="cfg\\[0\\] must be a dict with keys 'id' and 'value'"):
        acl.rt.launch_kernel_with_config(func, 2, stream, [(2, 1)], args, 0)
    with pytest.raises(TypeError, match="cfg must be a list of dicts"):
        acl.rt.launch_kernel_with_config(func, 2, stream, {"id": 2, "value": 1}, args, 0)


def test_misuse_error_codes(session):
    stream, bin_handle = session
    func = function(bin_handle, "ub_take")
    args, ret = acl.rt.kernel_args_init(func)
    ok(ret)
    append(args, ctypes.c_uint64(0))
    append(args, ctypes.c_uint32(4096))
    ok(acl.rt.kernel_args_finalize(args))
    value = ctypes.c_uint64(1)
    _, ret = acl.rt.kernel_args_append(args, ctypes.addressof(value), 8)
    assert ret == ACL_ERROR_RT_FEATURE_NOT_SUPPORT
    assert "after aclrtKernelArgsFinalize" in acl.get_recent_err_msg()
    assert acl.rt.launch_kernel_with_config(func, 1, stream, [], args, 1) == ACL_ERROR_RT_PARAM_INVALID
    assert "reserve" in acl.get_recent_err_msg()
    _, ret = acl.rt.kernel_args_append(12345678, ctypes.addressof(value), 8)
    assert ret == ACL_ERROR_RT_INVALID_HANDLE
    assert "is not an argument list" in acl.get_recent_err_msg()
    _, ret = acl.rt.binary_get_function(bin_handle, "no_such_kernel")
    assert ret != 0 and "ub_take" in acl.get_recent_err_msg()  # names the kernels it has
    handle, ret = acl.rt.binary_load_from_file(kernel_path() + ".missing", [])
    assert (handle, ret) == (0, 100003)  # ACL_ERROR_INVALID_FILE
    assert ".missing" in acl.get_recent_err_msg()
    ok(acl.rt.launch_kernel_with_config(func, 1, stream, [], args, 0))
    ok(acl.rt.synchronize_stream(stream))
