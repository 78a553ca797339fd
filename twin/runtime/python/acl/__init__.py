"""CPU twin of CANN's pyACL `acl` module over libascendcl.so (ctypes).

Same surface as CANN's: functions return the ACL error code, or a tuple `(value, ret)` where
CANN's does; pointers and handles (device memory, streams, descriptions, datasets, data
buffers) are Python ints. Submodules: acl.rt (runtime), acl.mdl (models), acl.util (numpy and
bytes pointers). The library is found as described in acl/_lib.py.
"""

from __future__ import annotations

import ctypes
import sys

from acl import _lib, mdl, rt, util  # noqa: F401  (public submodules)

_F = _lib.F
_init = _F["aclInit"]
_finalize = _F["aclFinalize"]
_recent = _F["aclGetRecentErrMsg"]
_soc_name = _F["aclrtGetSocName"]
_create_buffer = _F["aclCreateDataBuffer"]
_destroy_buffer = _F["aclDestroyDataBuffer"]
_update_buffer = _F["aclUpdateDataBuffer"]
_buffer_addr = _F["aclGetDataBufferAddr"]
_buffer_size = _F["aclGetDataBufferSizeV2"]
_create_tensor_desc = _F["aclCreateTensorDesc"]
_destroy_tensor_desc = _F["aclDestroyTensorDesc"]
_tensor_desc_num_dims = _F["aclGetTensorDescNumDims"]
_tensor_desc_dim = _F["aclGetTensorDescDimV2"]
_tensor_desc_dim_v1 = _F["aclGetTensorDescDim"]
_tensor_desc_size = _F["aclGetTensorDescSize"]

# Values of CANN's C enums, for code that prefers names to the numbers pyACL samples hard-code.
ACL_SUCCESS = 0
ACL_MEM_MALLOC_HUGE_FIRST = 0
ACL_MEM_MALLOC_HUGE_ONLY = 1
ACL_MEM_MALLOC_NORMAL_ONLY = 2
ACL_MEMCPY_HOST_TO_HOST = 0
ACL_HOST_REGISTER_MAPPED = 0  # aclrtHostRegisterType
ACL_HOST_REGISTER_IOMEMORY = 4
ACL_HOST_REGISTER_READONLY = 8
ACL_MEMCPY_HOST_TO_DEVICE = 1
ACL_MEMCPY_DEVICE_TO_HOST = 2
ACL_MEMCPY_DEVICE_TO_DEVICE = 3
ACL_RT_BINARY_LOAD_OPT_LAZY_LOAD = 1  # aclrtBinaryLoadOptionType
ACL_RT_BINARY_LOAD_OPT_MAGIC = 2
ACL_RT_BINARY_LOAD_OPT_CPU_KERNEL_MODE = 3
ACL_RT_LAUNCH_KERNEL_ATTR_SCHEM_MODE = 1  # aclrtLaunchKernelAttrId
ACL_RT_LAUNCH_KERNEL_ATTR_DYN_UBUF_SIZE = 2
ACL_RT_LAUNCH_KERNEL_ATTR_ENGINE_TYPE = 3
ACL_RT_LAUNCH_KERNEL_ATTR_BLOCKDIM_OFFSET = 4
ACL_RT_LAUNCH_KERNEL_ATTR_BLOCK_TASK_PREFETCH = 5
ACL_RT_LAUNCH_KERNEL_ATTR_DATA_DUMP = 6
ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT = 7
ACL_RT_LAUNCH_KERNEL_ATTR_TIMEOUT_US = 8
ACL_RT_LAUNCH_KERNEL_ATTR_ENABLE_PROFILING = 9


def init(config_path: str | None = None) -> int:
    return _init(config_path.encode() if config_path else None)


def finalize() -> int:
    ret = _finalize()
    _forget_host_arrays()
    return ret


def _forget_host_arrays() -> None:
    """aclFinalize / aclrtResetDevice dropped the runtime's host registrations: so does acl.twin."""
    twin = sys.modules.get("acl.twin")
    if twin is not None:
        twin.host_arrays.forget_all()


def get_recent_err_msg() -> str:
    text = _recent()
    return text.decode("utf-8", "replace") if text else ""


def get_soc_name() -> str:
    name = _soc_name()
    return name.decode() if name else ""


def create_data_buffer(data: int, size: int) -> int:
    return _create_buffer(data, size) or 0


def destroy_data_buffer(data_buffer: int) -> int:
    return _destroy_buffer(data_buffer)


def update_data_buffer(data_buffer: int, data: int, size: int) -> int:
    return _update_buffer(data_buffer, data, size)


def get_data_buffer_addr(data_buffer: int) -> int:
    return _buffer_addr(data_buffer) or 0


def get_data_buffer_size_v2(data_buffer: int) -> int:
    return _buffer_size(data_buffer)


get_data_buffer_size = get_data_buffer_size_v2


# -- tensor descs (the shapes of a dynamic model's inputs and outputs, acl.mdl.*_dataset_tensor_desc)
def create_tensor_desc(data_type: int, dims: list, format: int) -> int:  # noqa: A002  (CANN's parameter name)
    values = (ctypes.c_int64 * max(len(dims), 1))(*dims)
    return _create_tensor_desc(data_type, len(dims), values, format) or 0


def destroy_tensor_desc(tensor_desc: int) -> None:
    _destroy_tensor_desc(tensor_desc)


def get_tensor_desc_num_dims(tensor_desc: int) -> int:
    return _tensor_desc_num_dims(tensor_desc)


def get_tensor_desc_dim_v2(tensor_desc: int, index: int) -> tuple[int, int]:
    dim = ctypes.c_int64(0)
    ret = _tensor_desc_dim(tensor_desc, index, ctypes.byref(dim))
    return dim.value, ret


def get_tensor_desc_dim(tensor_desc: int, index: int) -> int:
    """pyACL's deprecated form: the dim alone (-1 when the index or desc is invalid)."""
    return _tensor_desc_dim_v1(tensor_desc, index)


def get_tensor_desc_size(tensor_desc: int) -> int:
    return _tensor_desc_size(tensor_desc)
