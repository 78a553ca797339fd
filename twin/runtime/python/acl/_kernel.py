"""acl.rt kernel loading and launch: binaries, function handles, argument lists (kernel_args_*),
launch_kernel / launch_kernel_with_config. CANN pyACL names, argument order and return shapes;
handles and host addresses are Python ints."""

from __future__ import annotations

import ctypes

from acl import _lib

_F = _lib.F
_load_from_file = _F["aclrtBinaryLoadFromFile"]
_get_function = _F["aclrtBinaryGetFunction"]
_unload = _F["aclrtBinaryUnLoad"]
_launch = _F["aclrtLaunchKernel"]
_handle_mem_size = _F["aclrtKernelArgsGetHandleMemSize"]
_mem_size = _F["aclrtKernelArgsGetMemSize"]
_args_init = _F["aclrtKernelArgsInit"]
_args_init_by_user_mem = _F["aclrtKernelArgsInitByUserMem"]
_args_append = _F["aclrtKernelArgsAppend"]
_args_append_place_holder = _F["aclrtKernelArgsAppendPlaceHolder"]
_args_place_holder_buffer = _F["aclrtKernelArgsGetPlaceHolderBuffer"]
_args_para_update = _F["aclrtKernelArgsParaUpdate"]
_args_finalize = _F["aclrtKernelArgsFinalize"]
_launch_with_config = _F["aclrtLaunchKernelWithConfig"]


def _pairs(api: str, what: str, items, key: str, struct_type):
    """A ctypes array of struct_type from pyACL's [{key: int, "value": int}, ...] (None when empty).
    The value fills the 16-byte union little-endian, as every member of it starts at byte 0."""
    if items is None:
        return None
    if not isinstance(items, (list, tuple)):
        raise TypeError(f"{api}: {what} must be a list of dicts, got {type(items).__name__}")
    if not items:
        return None
    array = (struct_type * len(items))()
    for i, item in enumerate(items):
        if not isinstance(item, dict) or key not in item or "value" not in item:
            raise TypeError(f"{api}: {what}[{i}] must be a dict with keys '{key}' and 'value', got {item!r}")
        ident, value = item[key], item["value"]
        if not isinstance(ident, int) or not isinstance(value, int):
            raise TypeError(f"{api}: {what}[{i}]: '{key}' and 'value' must be ints, got {ident!r} and {value!r}")
        if not 0 <= value < 1 << 64:
            raise ValueError(f"{api}: {what}[{i}]: value {value} does not fit in 64 bits")
        setattr(array[i], key, ident)
        array[i].value.rsv[0] = value & 0xFFFFFFFF
        array[i].value.rsv[1] = value >> 32
    return array


def binary_load_from_file(bin_path: str, options: list) -> tuple[int, int]:
    """aclrtBinaryLoadFromFile; options: [{"type": aclrtBinaryLoadOptionType, "value": int}, ...] or []."""
    array = _pairs("acl.rt.binary_load_from_file", "options", options, "type", _lib.BinaryLoadOption)
    holder = None
    if array is not None:
        holder = _lib.BinaryLoadOptions(ctypes.cast(array, ctypes.POINTER(_lib.BinaryLoadOption)), len(array))
    handle = ctypes.c_void_p()
    ret = _load_from_file(
        str(bin_path).encode(), ctypes.byref(holder) if holder is not None else None, ctypes.byref(handle)
    )
    return handle.value or 0, ret


def binary_get_function(bin_handle: int, kernel_name: str) -> tuple[int, int]:
    func = ctypes.c_void_p()
    ret = _get_function(bin_handle, kernel_name.encode(), ctypes.byref(func))
    return func.value or 0, ret


def binary_unload(bin_handle: int) -> int:
    return _unload(bin_handle)


def launch_kernel(func_handle: int, block_dim: int, args_data: int, args_size: int, stream: int) -> int:
    """aclrtLaunchKernel: args_data is the address of the packed arguments (8-byte slots)."""
    return _launch(func_handle, block_dim, args_data, args_size, stream)


def kernel_args_get_handle_mem_size(func_handle: int) -> tuple[int, int]:
    size = ctypes.c_size_t(0)
    ret = _handle_mem_size(func_handle, ctypes.byref(size))
    return size.value, ret


def kernel_args_get_mem_size(func_handle: int, user_args_size: int) -> tuple[int, int]:
    size = ctypes.c_size_t(0)
    ret = _mem_size(func_handle, user_args_size, ctypes.byref(size))
    return size.value, ret


def kernel_args_init(func_handle: int) -> tuple[int, int]:
    handle = ctypes.c_void_p()
    ret = _args_init(func_handle, ctypes.byref(handle))
    return handle.value or 0, ret


def kernel_args_init_by_user_mem(func_handle: int, args_handle: int, user_host_mem: int, actual_args_size: int) -> int:
    return _args_init_by_user_mem(func_handle, args_handle, user_host_mem, actual_args_size)


def kernel_args_append(args_handle: int, param: int, param_size: int) -> tuple[int, int]:
    """param: host address of the value (e.g. ctypes.addressof(ctypes.c_uint64(x)))."""
    handle = ctypes.c_void_p()
    ret = _args_append(args_handle, param, param_size, ctypes.byref(handle))
    return handle.value or 0, ret


def kernel_args_append_place_holder(args_handle: int) -> tuple[int, int]:
    handle = ctypes.c_void_p()
    ret = _args_append_place_holder(args_handle, ctypes.byref(handle))
    return handle.value or 0, ret


def kernel_args_get_place_holder_buffer(args_handle: int, param_handle: int, data_size: int) -> tuple[int, int]:
    """The host buffer to write the placeholder's data into; the runtime owns it."""
    buffer = ctypes.c_void_p()
    ret = _args_place_holder_buffer(args_handle, param_handle, data_size, ctypes.byref(buffer))
    return buffer.value or 0, ret


def kernel_args_para_update(args_handle: int, param_handle: int, param: int, param_size: int) -> int:
    return _args_para_update(args_handle, param_handle, param, param_size)


def kernel_args_finalize(args_handle: int) -> int:
    return _args_finalize(args_handle)


def launch_kernel_with_config(
    func_handle: int, num_blocks: int, stream: int, cfg: list, args_handle: int, reserve: int
) -> int:
    """aclrtLaunchKernelWithConfig; cfg: [{"id": aclrtLaunchKernelAttrId, "value": int}, ...] or [];
    reserve: 0."""
    array = _pairs("acl.rt.launch_kernel_with_config", "cfg", cfg, "id", _lib.LaunchKernelAttr)
    holder = None
    if array is not None:
        holder = _lib.LaunchKernelCfg(ctypes.cast(array, ctypes.POINTER(_lib.LaunchKernelAttr)), len(array))
    return _launch_with_config(
        func_handle,
        num_blocks,
        stream,
        ctypes.byref(holder) if holder is not None else None,
        args_handle,
        reserve or None,
    )
