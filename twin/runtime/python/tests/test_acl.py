"""pyACL twin against the real libascendcl.so: build an OM with om.serialize, load it from
memory and from a file, execute, compare with numpy; error codes and messages; ImportError."""

import os
import struct
import subprocess
import sys

import numpy as np
import pytest

import acl
from twin.om import om, om_pb2

SEED = int.from_bytes(os.urandom(4), "little")
print(f"seed={SEED}")

NORMAL_ONLY, H2D, D2H = 2, 1, 2


def kernels(arch: str = "2201") -> bytes:
    with open(os.environ[f"MODEL_KERNELS_{arch}"], "rb") as f:
        return f.read()


def chain_model(n: int, alpha: float, blocks: int = 4, soc: str = "Ascend910B1", arch: int = 2201):
    """z = alpha * (x + y) + x via the feature map; y_copy = y."""
    m = om_pb2.ModelDef(format_version=1, name="chain", soc_version=soc, npu_arch=arch, feature_map_size=4 * n)
    for name in ("x", "y"):
        m.inputs.add(name=name, data_type=0, dims=[n], size=4 * n, format=2)
    for name in ("z", "y_copy"):
        m.outputs.add(name=name, data_type=0, dims=[n], size=4 * n, format=2)
    add = m.tasks.add().kernel
    add.node_name, add.op_type, add.kernel_name, add.block_dim = "add", "Add", "vadd_f32", blocks
    add.args.add(input=0)
    add.args.add(input=1)
    add.args.add().feature_map.CopyFrom(om_pb2.FeatureMapRef(offset=0, size=4 * n))
    add.args.add(scalar=n)
    axpy = m.tasks.add().kernel
    axpy.node_name, axpy.op_type, axpy.kernel_name, axpy.block_dim = "axpy", "Axpy", "axpy_f32", blocks
    axpy.args.add().feature_map.CopyFrom(om_pb2.FeatureMapRef(offset=0, size=4 * n))
    axpy.args.add(input=0)
    axpy.args.add(output=0)
    axpy.args.add(scalar=struct.unpack("<I", struct.pack("<f", alpha))[0])
    axpy.args.add(scalar=n)
    copy = m.tasks.add().memcpy
    copy.src.input, copy.dst.output, copy.size = 1, 1, 4 * n
    return m


@pytest.fixture()
def device():
    assert acl.init() == 0, acl.get_recent_err_msg()
    assert acl.rt.set_device(0) == 0, acl.get_recent_err_msg()
    yield
    assert acl.rt.reset_device(0) == 0
    assert acl.finalize() == 0


class Buffers:
    """Device buffers wrapped in a dataset, freed by close()."""

    def __init__(self, sizes):
        self.dataset = acl.mdl.create_dataset()
        self.ptrs = []
        for size in sizes:
            ptr, ret = acl.rt.malloc(size, NORMAL_ONLY)
            assert ret == 0, acl.get_recent_err_msg()
            self.ptrs.append(ptr)
            _, ret = acl.mdl.add_dataset_buffer(self.dataset, acl.create_data_buffer(ptr, size))
            assert ret == 0

    def put(self, i, array):
        assert acl.rt.memcpy(self.ptrs[i], array.nbytes, acl.util.numpy_to_ptr(array), array.nbytes, H2D) == 0

    def get(self, i, n):
        host = np.empty(n, np.float32)
        assert acl.rt.memcpy(acl.util.numpy_to_ptr(host), host.nbytes, self.ptrs[i], host.nbytes, D2H) == 0
        return host

    def close(self):
        for i in range(acl.mdl.get_dataset_num_buffers(self.dataset)):
            assert acl.destroy_data_buffer(acl.mdl.get_dataset_buffer(self.dataset, i)) == 0
        assert acl.mdl.destroy_dataset(self.dataset) == 0
        for ptr in self.ptrs:
            assert acl.rt.free(ptr) == 0


def run_and_check(model_id, n, alpha, rng):
    x = rng.standard_normal(n).astype(np.float32) * 50
    y = rng.standard_normal(n).astype(np.float32) * 50
    inputs, outputs = Buffers([4 * n, 4 * n]), Buffers([4 * n, 4 * n])
    try:
        inputs.put(0, x)
        inputs.put(1, y)
        assert acl.mdl.execute(model_id, inputs.dataset, outputs.dataset) == 0, acl.get_recent_err_msg()
        expected = np.float32(alpha) * (x + y) + x
        np.testing.assert_allclose(outputs.get(0, n), expected, rtol=1e-6, atol=1e-5)
        np.testing.assert_array_equal(outputs.get(1, n), y)
    finally:
        inputs.close()
        outputs.close()


def test_load_from_mem_describe_execute(device):
    rng = np.random.default_rng(SEED)
    n = int(rng.integers(1, 100_000))
    alpha = float(rng.uniform(-3, 3))
    print(f"seed={SEED} n={n} alpha={alpha}")
    data = om.serialize(chain_model(n, alpha), [kernels()])
    model_id, ret = acl.mdl.load_from_mem(acl.util.bytes_to_ptr(data), len(data))
    assert ret == 0, acl.get_recent_err_msg()
    desc = acl.mdl.create_desc()
    assert acl.mdl.get_desc(desc, model_id) == 0
    assert (acl.mdl.get_num_inputs(desc), acl.mdl.get_num_outputs(desc)) == (2, 2)
    assert acl.mdl.get_input_size_by_index(desc, 1) == 4 * n
    assert acl.mdl.get_output_name_by_index(desc, 1) == "y_copy"
    dims, ret = acl.mdl.get_output_dims(desc, 0)
    assert ret == 0 and dims == {"name": "z", "dimCount": 1, "dims": [n]}
    assert acl.mdl.get_input_data_type(desc, 0) == 0
    assert acl.mdl.get_input_index_by_name(desc, "y") == (1, 0)
    assert acl.mdl.destroy_desc(desc) == 0
    run_and_check(model_id, n, alpha, rng)
    run_and_check(model_id, n, alpha, rng)
    assert acl.mdl.unload(model_id) == 0


def test_load_from_file_written_by_om_write(device, tmp_path):
    rng = np.random.default_rng(SEED + 1)
    path = tmp_path / "chain.om"
    om.write(path, chain_model(5000, 1.25), [kernels()])
    model_id, ret = acl.mdl.load_from_file(str(path))
    assert ret == 0, acl.get_recent_err_msg()
    run_and_check(model_id, 5000, 1.25, rng)
    assert acl.mdl.unload(model_id) == 0


def test_errors_and_messages(device, tmp_path):
    _, ret = acl.mdl.load_from_file(str(tmp_path / "missing.om"))
    assert ret == 100003  # ACL_ERROR_INVALID_FILE
    assert "missing.om' cannot be opened" in acl.get_recent_err_msg()

    data = bytearray(om.serialize(chain_model(64, 1.0), [kernels()]))
    data[-10] ^= 0xFF
    _, ret = acl.mdl.load_from_mem(acl.util.bytes_to_ptr(data), len(data))
    assert ret == 100013  # ACL_ERROR_PARSE_MODEL
    assert "checksum mismatch" in acl.get_recent_err_msg()

    other = om.serialize(chain_model(64, 1.0, soc="Ascend950PR_9599", arch=3510), [kernels("3510")])
    _, ret = acl.mdl.load_from_mem(acl.util.bytes_to_ptr(other), len(other))
    assert ret == 507008  # ACL_ERROR_RT_SOC_VERSION
    message = acl.get_recent_err_msg()
    assert "NpuArch 3510" in message and "NpuArch 2201" in message

    good = om.serialize(chain_model(64, 1.0), [kernels()])
    model_id, ret = acl.mdl.load_from_mem(acl.util.bytes_to_ptr(good), len(good))
    assert ret == 0
    inputs, outputs = Buffers([256, 252]), Buffers([256, 256])
    assert acl.mdl.execute(model_id, inputs.dataset, outputs.dataset) == 100017
    assert "input 1 (y) buffer holds 252 bytes but the model needs 256" in acl.get_recent_err_msg()
    inputs.close()
    outputs.close()
    assert acl.mdl.unload(model_id) == 0
    assert acl.mdl.unload(model_id) == 100011


def test_execute_async_then_synchronize(device):
    rng = np.random.default_rng(SEED + 2)
    n = 30000
    data = om.serialize(chain_model(n, -0.5), [kernels()])
    model_id, ret = acl.mdl.load_from_mem(acl.util.bytes_to_ptr(data), len(data))
    assert ret == 0
    stream, ret = acl.rt.create_stream()
    assert ret == 0
    x = rng.standard_normal(n).astype(np.float32)
    y = rng.standard_normal(n).astype(np.float32)
    inputs, outputs = Buffers([4 * n, 4 * n]), Buffers([4 * n, 4 * n])
    inputs.put(0, x)
    inputs.put(1, y)
    assert acl.mdl.execute_async(model_id, inputs.dataset, outputs.dataset, stream) == 0
    assert acl.rt.synchronize_stream(stream) == 0, acl.get_recent_err_msg()
    np.testing.assert_allclose(outputs.get(0, n), np.float32(-0.5) * (x + y) + x, rtol=1e-6, atol=1e-6)
    inputs.close()
    outputs.close()
    assert acl.rt.destroy_stream(stream) == 0
    assert acl.mdl.unload(model_id) == 0


def test_util_round_trip():
    rng = np.random.default_rng(SEED + 3)
    array = rng.standard_normal((3, 5)).astype(np.float32)
    view = acl.util.ptr_to_numpy(acl.util.numpy_to_ptr(array), (3, 5), 11)
    np.testing.assert_array_equal(view, array)
    raw = rng.bytes(33)
    assert acl.util.ptr_to_bytes(acl.util.bytes_to_ptr(raw), 33) == raw
    with pytest.raises(ValueError, match="C-contiguous"):
        acl.util.numpy_to_ptr(array.T)


def test_missing_library_is_a_clear_import_error(tmp_path):
    env = dict(
        os.environ, ASCEND_TWIN_ACL_LIB=str(tmp_path / "nope.so"), ASCEND_HOME_PATH=str(tmp_path), LD_LIBRARY_PATH=""
    )
    result = subprocess.run([sys.executable, "-c", "import acl"], env=env, capture_output=True, text=True)
    assert result.returncode != 0
    assert "ImportError: acl: cannot load libascendcl.so; tried" in result.stderr
    assert "nope.so (no such file)" in result.stderr


def page_aligned(n: int, rng) -> np.ndarray:
    """n random float32s starting on a 4 KiB boundary (aclrtHostRegister requires it)."""
    raw = np.empty(4 * n + 4096, np.uint8)
    offset = -raw.ctypes.data % 4096
    array = raw[offset : offset + 4 * n].view(np.float32)
    array[...] = rng.standard_normal(n).astype(np.float32) * 50
    return array


def test_host_register_execute_on_caller_memory(device):
    rng = np.random.default_rng(SEED + 7)
    n = int(rng.integers(1, 100_000))
    alpha = float(rng.uniform(-3, 3))
    print(f"seed={SEED + 7} n={n} alpha={alpha}")
    data = om.serialize(chain_model(n, alpha), [kernels()])
    model_id, ret = acl.mdl.load_from_mem(acl.util.bytes_to_ptr(data), len(data))
    assert ret == 0, acl.get_recent_err_msg()
    x, y, z, y_copy = (page_aligned(n, rng) for _ in range(4))
    registered = []
    for array in (x, y, z, y_copy):
        dev_ptr, ret = acl.rt.host_register(array.ctypes.data, array.nbytes, acl.ACL_HOST_REGISTER_MAPPED)
        assert ret == 0, acl.get_recent_err_msg()
        assert dev_ptr == array.ctypes.data  # the twin maps host memory at its own address
        registered.append(dev_ptr)
    datasets = []
    for side in ((x, y), (z, y_copy)):
        dataset = acl.mdl.create_dataset()
        for array in side:
            _, ret = acl.mdl.add_dataset_buffer(dataset, acl.create_data_buffer(array.ctypes.data, array.nbytes))
            assert ret == 0
        datasets.append(dataset)
    assert acl.mdl.execute(model_id, datasets[0], datasets[1]) == 0, acl.get_recent_err_msg()
    np.testing.assert_allclose(z, np.float32(alpha) * (x + y) + x, rtol=1e-6, atol=1e-5)
    np.testing.assert_array_equal(y_copy, y)
    for ptr in registered:
        assert acl.rt.host_unregister(ptr) == 0, acl.get_recent_err_msg()
    # unregistered memory is no longer device memory: the executor refuses it
    assert acl.mdl.execute(model_id, datasets[0], datasets[1]) != 0
    assert "device" in acl.get_recent_err_msg()
    for dataset in datasets:
        for i in range(acl.mdl.get_dataset_num_buffers(dataset)):
            assert acl.destroy_data_buffer(acl.mdl.get_dataset_buffer(dataset, i)) == 0
        assert acl.mdl.destroy_dataset(dataset) == 0
    assert acl.mdl.unload(model_id) == 0


def test_host_register_errors(device):
    rng = np.random.default_rng(SEED + 8)
    array = page_aligned(4096, rng)
    ptr = array.ctypes.data
    _, ret = acl.rt.host_register(ptr + 4, 64, acl.ACL_HOST_REGISTER_MAPPED)
    assert ret == 100000 and "not 4 KiB (page) aligned" in acl.get_recent_err_msg()
    _, ret = acl.rt.host_register(ptr, 0, acl.ACL_HOST_REGISTER_MAPPED)
    assert ret == 100000 and "size must be > 0" in acl.get_recent_err_msg()
    _, ret = acl.rt.host_register(ptr, array.nbytes, acl.ACL_HOST_REGISTER_READONLY)
    assert ret == 200006 and "not supported" in acl.get_recent_err_msg()
    _, ret = acl.rt.host_register(ptr, array.nbytes, acl.ACL_HOST_REGISTER_MAPPED)
    assert ret == 0
    _, ret = acl.rt.host_register(ptr + 4096, 4096, acl.ACL_HOST_REGISTER_MAPPED)
    assert ret == 100000 and "overlaps the registered host range" in acl.get_recent_err_msg()
    assert acl.rt.free(ptr) == 107000 and "aclrtHostUnregister" in acl.get_recent_err_msg()
    assert acl.rt.host_unregister(ptr) == 0
    assert acl.rt.host_unregister(ptr) == 100000
    assert "not registered" in acl.get_recent_err_msg()


def test_timeout_functions(device):
    stream, ret = acl.rt.create_stream()
    assert ret == 0
    assert acl.rt.synchronize_stream_with_timeout(stream, 100) == 0
    assert acl.rt.synchronize_stream_with_timeout(stream, 0) == 100000  # ACL_ERROR_INVALID_PARAM
    assert "must be -1 (wait forever) or > 0 ms" in acl.get_recent_err_msg()
    assert acl.rt.set_op_execute_time_out(30) == 0
    assert acl.rt.set_op_execute_time_out(0) == 0  # back to the default
    assert acl.rt.set_op_wait_timeout(5) == 0
    assert acl.rt.destroy_stream(stream) == 0


@pytest.mark.parametrize(
    "call,argument",
    [
        (lambda: acl.rt.set_op_execute_time_out(2**32), "aclrtSetOpExecuteTimeOut: argument 1 = 4294967296"),
        (lambda: acl.rt.set_op_execute_time_out(-1), "argument 1 = -1 does not fit its C type uint32_t"),
        (lambda: acl.rt.set_op_wait_timeout(2**40), "aclrtSetOpWaitTimeout: argument 1"),
        (lambda: acl.rt.malloc(-16, NORMAL_ONLY)[1], "aclrtMalloc: argument 2 = -16 does not fit its C type size_t"),
        (lambda: acl.rt.malloc(64, 2**31)[1], "aclrtMalloc: argument 3 = 2147483648 does not fit its C type int"),
        (lambda: acl.rt.set_device(2**32), "aclrtSetDevice: argument 1"),
        (lambda: acl.mdl.unload(2**32 + 1), "aclmdlUnload: argument 1 = 4294967297"),
    ],
)
def test_an_int_its_c_type_cannot_hold_is_refused_not_wrapped(device, call, argument, monkeypatch):
    """ctypes would pass 2**32 to a uint32_t as 0 (the default timeout, model id 1, ...)."""
    import ascend_log

    lines = []
    monkeypatch.setattr(ascend_log, "error", lambda module, text: lines.append((module, text)))
    assert call() == 100000
    assert len(lines) == 1 and lines[0][0] == "ACL" and argument in lines[0][1], lines


def test_malloc_policy_outside_the_enum_is_refused(device):
    ptr, ret = acl.rt.malloc(64, 12345)
    assert (ptr, ret) == (0, 100000)
    assert "aclrtMalloc: policy 12345 is not an aclrtMemMallocPolicy" in acl.get_recent_err_msg()
    ptr, ret = acl.rt.malloc(64, NORMAL_ONLY | 0x1000)  # ACL_MEM_TYPE_HIGH_BAND_WIDTH: valid
    assert ret == 0 and ptr != 0
    assert acl.rt.free(ptr) == 0


def test_unload_after_finalize_is_an_error(tmp_path):
    """aclFinalize unloads every model (CANN); the id is not valid afterwards."""
    code = f"""
import acl, sys
sys.path.insert(0, {os.path.dirname(__file__)!r})
from test_acl import chain_model, kernels
from twin.om import om
assert acl.init() == 0 and acl.rt.set_device(0) == 0
blob = om.serialize(chain_model(64, 1.0), [kernels()])
ptr = acl.util.bytes_to_ptr(blob)
model_id, ret = acl.mdl.load_from_mem(ptr, len(blob))
assert ret == 0, acl.get_recent_err_msg()
assert acl.rt.reset_device(0) == 0 and acl.finalize() == 0
print("unload", acl.mdl.unload(model_id), acl.get_recent_err_msg())
print("again", acl.mdl.unload(model_id))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=os.environ, timeout=120)
    assert out.returncode == 0, out.stderr
    lines = dict(line.split(" ", 1) for line in out.stdout.splitlines() if line.startswith(("unload", "again")))
    assert lines["unload"].split()[0] == "100011", lines  # ACL_ERROR_INVALID_MODEL_ID
    assert "was loaded before aclFinalize, which unloaded it" in lines["unload"]
    assert lines["again"].split()[0] == lines["unload"].split()[0]


def copy_model(n: int):
    """out = x through one memcpy task: the model executor's host-side copy step."""
    m = om_pb2.ModelDef(format_version=1, name="copy", soc_version="Ascend910B1", npu_arch=2201)
    m.inputs.add(name="x", data_type=0, dims=[n], size=4 * n, format=2)
    m.outputs.add(name="out", data_type=0, dims=[n], size=4 * n, format=2)
    copy = m.tasks.add().memcpy
    copy.src.input, copy.dst.output, copy.size = 0, 0, 4 * n
    return m


def test_execute_async_then_free_before_synchronize_never_crashes(device):
    """aclrtFree does not synchronize (CANN): a queued aclmdlExecuteAsync whose dataset buffers are
    freed before the synchronize still completes its copies on the memory they held (64 MiB, many
    times; a worker's memmove into unmapped pages crashed the host before), and a kernel given a
    freed buffer fails with an error, never a crash."""
    rng = np.random.default_rng(SEED + 3)
    n = 16 << 20  # 64 MiB of float32
    stream, ret = acl.rt.create_stream()
    assert ret == 0
    blob = om.serialize(copy_model(n), [kernels()])
    model_id, ret = acl.mdl.load_from_mem(acl.util.bytes_to_ptr(blob), len(blob))
    assert ret == 0, acl.get_recent_err_msg()
    host = np.empty(n, np.float32)
    for _ in range(8):
        x = rng.standard_normal(n).astype(np.float32)
        inputs, outputs = Buffers([4 * n]), Buffers([4 * n])
        inputs.put(0, x)
        assert acl.mdl.execute_async(model_id, inputs.dataset, outputs.dataset, stream) == 0
        for ptr in inputs.ptrs:  # the source, freed while the copy may be running
            assert acl.rt.free(ptr) == 0
        inputs.ptrs = []
        assert acl.rt.synchronize_stream(stream) == 0, acl.get_recent_err_msg()
        np.testing.assert_array_equal(outputs.get(0, n), x)
        assert (
            acl.rt.memcpy_async(acl.util.numpy_to_ptr(host), host.nbytes, outputs.ptrs[0], host.nbytes, D2H, stream)
            == 0
        )
        outputs.close()  # frees the device source of the queued copy
        assert acl.rt.synchronize_stream(stream) == 0, acl.get_recent_err_msg()
        np.testing.assert_array_equal(host, x)
        inputs.close()
    assert acl.mdl.unload(model_id) == 0
    # kernels: the freed buffers are refused by the run, with an error on the stream
    m = 1 << 20
    blob = om.serialize(chain_model(m, 0.5), [kernels()])
    model_id, ret = acl.mdl.load_from_mem(acl.util.bytes_to_ptr(blob), len(blob))
    assert ret == 0
    inputs, outputs = Buffers([4 * m, 4 * m]), Buffers([4 * m, 4 * m])
    assert acl.mdl.execute_async(model_id, inputs.dataset, outputs.dataset, stream) == 0
    for buffers in (inputs, outputs):
        for ptr in buffers.ptrs:
            assert acl.rt.free(ptr) == 0
        buffers.ptrs = []
    ret = acl.rt.synchronize_stream(stream)
    message = acl.get_recent_err_msg() or ""
    assert ret == 0 or message, ret  # an error names its cause; the host lives on
    inputs.close()
    outputs.close()
    run_and_check(model_id, m, 0.5, rng)  # the runtime still works
    assert acl.mdl.unload(model_id) == 0
    assert acl.rt.destroy_stream(stream) == 0
