"""acl.rt: devices, contexts, streams, memory (CANN pyACL names and return shapes)."""

from __future__ import annotations

import ctypes

from acl import _lib

_F = _lib.F
_set_device = _F["aclrtSetDevice"]
_reset_device = _F["aclrtResetDevice"]
_get_device = _F["aclrtGetDevice"]
_get_device_count = _F["aclrtGetDeviceCount"]
_sync_device = _F["aclrtSynchronizeDevice"]
_create_context = _F["aclrtCreateContext"]
_destroy_context = _F["aclrtDestroyContext"]
_set_context = _F["aclrtSetCurrentContext"]
_get_context = _F["aclrtGetCurrentContext"]
_create_stream = _F["aclrtCreateStream"]
_destroy_stream = _F["aclrtDestroyStream"]
_sync_stream = _F["aclrtSynchronizeStream"]
_sync_stream_timeout = _F["aclrtSynchronizeStreamWithTimeout"]
_set_op_execute_timeout = _F["aclrtSetOpExecuteTimeOut"]
_set_op_wait_timeout = _F["aclrtSetOpWaitTimeout"]
_malloc = _F["aclrtMalloc"]
_free = _F["aclrtFree"]
_malloc_host = _F["aclrtMallocHost"]
_free_host = _F["aclrtFreeHost"]
_host_register = _F["aclrtHostRegister"]
_host_unregister = _F["aclrtHostUnregister"]
_memcpy = _F["aclrtMemcpy"]
_memcpy_async = _F["aclrtMemcpyAsync"]
_memset = _F["aclrtMemset"]


def set_device(device_id: int) -> int:
    return _set_device(device_id)


def reset_device(device_id: int) -> int:
    import acl  # the package (this module is imported while it initializes)

    ret = _reset_device(device_id)
    acl._forget_host_arrays()  # the device's host registrations may be gone: acl.twin re-registers
    return ret


def get_device() -> tuple[int, int]:
    device = ctypes.c_int32(-1)
    ret = _get_device(ctypes.byref(device))
    return device.value, ret


def get_device_count() -> tuple[int, int]:
    count = ctypes.c_uint32(0)
    ret = _get_device_count(ctypes.byref(count))
    return count.value, ret


def synchronize_device() -> int:
    return _sync_device()


def create_context(device_id: int) -> tuple[int, int]:
    context = ctypes.c_void_p()
    ret = _create_context(ctypes.byref(context), device_id)
    return context.value or 0, ret


def destroy_context(context: int) -> int:
    return _destroy_context(context)


def set_context(context: int) -> int:
    return _set_context(context)


def get_context() -> tuple[int, int]:
    context = ctypes.c_void_p()
    ret = _get_context(ctypes.byref(context))
    return context.value or 0, ret


def create_stream() -> tuple[int, int]:
    stream = ctypes.c_void_p()
    ret = _create_stream(ctypes.byref(stream))
    return stream.value or 0, ret


def destroy_stream(stream: int) -> int:
    return _destroy_stream(stream)


def synchronize_stream(stream: int) -> int:
    return _sync_stream(stream)


def synchronize_stream_with_timeout(stream: int, timeout: int) -> int:
    """aclrtSynchronizeStreamWithTimeout: timeout in ms, -1 waits forever."""
    return _sync_stream_timeout(stream, timeout)


def set_op_execute_time_out(timeout: int) -> int:
    """aclrtSetOpExecuteTimeOut: seconds a kernel may run (0: the default)."""
    return _set_op_execute_timeout(timeout)


def set_op_wait_timeout(timeout: int) -> int:
    """aclrtSetOpWaitTimeout: seconds an event wait may take (0: no timeout)."""
    return _set_op_wait_timeout(timeout)


def malloc(size: int, policy: int) -> tuple[int, int]:
    ptr = ctypes.c_void_p()
    ret = _malloc(ctypes.byref(ptr), size, policy)
    return ptr.value or 0, ret


def free(dev_ptr: int) -> int:
    return _free(dev_ptr)


def malloc_host(size: int) -> tuple[int, int]:
    ptr = ctypes.c_void_p()
    ret = _malloc_host(ctypes.byref(ptr), size)
    return ptr.value or 0, ret


def free_host(host_ptr: int) -> int:
    return _free_host(host_ptr)


def host_register(ptr: int, size: int, type: int) -> tuple[int, int]:
    """aclrtHostRegister: (device-visible address, ret); on the twin the address is ptr itself."""
    dev_ptr = ctypes.c_void_p()
    ret = _host_register(ptr, size, type, ctypes.byref(dev_ptr))
    return dev_ptr.value or 0, ret


def host_unregister(ptr: int) -> int:
    return _host_unregister(ptr)


def memcpy(dst: int, dest_max: int, src: int, count: int, kind: int) -> int:
    return _memcpy(dst, dest_max, src, count, kind)


def memcpy_async(dst: int, dest_max: int, src: int, count: int, kind: int, stream: int) -> int:
    return _memcpy_async(dst, dest_max, src, count, kind, stream)


def memset(dev_ptr: int, max_count: int, value: int, count: int) -> int:
    return _memset(dev_ptr, max_count, value, count)


# Kernel binaries and launches (acl/_kernel.py).
from acl._kernel import (  # noqa: E402,F401  (public acl.rt names)
    binary_get_function,
    binary_load_from_file,
    binary_unload,
    kernel_args_append,
    kernel_args_append_place_holder,
    kernel_args_finalize,
    kernel_args_get_handle_mem_size,
    kernel_args_get_mem_size,
    kernel_args_get_place_holder_buffer,
    kernel_args_init,
    kernel_args_init_by_user_mem,
    kernel_args_para_update,
    launch_kernel,
    launch_kernel_with_config,
)
