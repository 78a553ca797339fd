"""Finds libascendcl.so and binds its C functions once, with argtypes/restype set.

Search order: $ASCEND_TWIN_ACL_LIB (a file path), $ASCEND_HOME_PATH/lib64/libascendcl.so, then
the dynamic loader's normal search for "libascendcl.so". Failure raises ImportError naming every
place tried.
"""

from __future__ import annotations

import ctypes
import os
from typing import Any, Callable

_c_int = ctypes.c_int
_c_size = ctypes.c_size_t
_c_u32 = ctypes.c_uint32
_c_i32 = ctypes.c_int32
_c_ptr = ctypes.c_void_p
_c_str = ctypes.c_char_p
_c_ptr_p = ctypes.POINTER(ctypes.c_void_p)


def _candidates() -> list[str]:
    paths = []
    explicit = os.environ.get("ASCEND_TWIN_ACL_LIB")
    if explicit:
        paths.append(explicit)
    home = os.environ.get("ASCEND_HOME_PATH")
    if home:
        paths.append(os.path.join(home, "lib64", "libascendcl.so"))
    paths.append("libascendcl.so")
    return paths


def _load() -> tuple[ctypes.CDLL, str]:
    tried = []
    for path in _candidates():
        if os.sep in path and not os.path.exists(path):
            tried.append(f"{path} (no such file)")
            continue
        try:
            return ctypes.CDLL(path, mode=ctypes.RTLD_GLOBAL), path
        except OSError as error:
            tried.append(f"{path} ({error})")
    raise ImportError(
        "acl: cannot load libascendcl.so; tried "
        + "; ".join(tried)
        + ". Set ASCEND_TWIN_ACL_LIB to the library file or ASCEND_HOME_PATH to its install root."
    )


LIB, LIB_PATH = _load()


class _IODims(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char * 128), ("dimCount", ctypes.c_size_t), ("dims", ctypes.c_int64 * 128)]


class _IODimsRange(ctypes.Structure):
    _fields_ = [("rangeCount", ctypes.c_size_t), ("range", (ctypes.c_int64 * 2) * 128)]


IODims = _IODims
IODimsRange = _IODimsRange


class _OptionValue(ctypes.Union):  # aclrtBinaryLoadOptionValue / aclrtLaunchKernelAttrValue: 16 bytes
    _fields_ = [("rsv", ctypes.c_uint32 * 4)]


class BinaryLoadOption(ctypes.Structure):  # aclrtBinaryLoadOption
    _fields_ = [("type", ctypes.c_int), ("value", _OptionValue)]


class BinaryLoadOptions(ctypes.Structure):  # aclrtBinaryLoadOptions
    _fields_ = [("options", ctypes.POINTER(BinaryLoadOption)), ("numOpt", ctypes.c_size_t)]


class LaunchKernelAttr(ctypes.Structure):  # aclrtLaunchKernelAttr
    _fields_ = [("id", ctypes.c_int), ("value", _OptionValue)]


class LaunchKernelCfg(ctypes.Structure):  # aclrtLaunchKernelCfg
    _fields_ = [("attrs", ctypes.POINTER(LaunchKernelAttr)), ("numAttrs", ctypes.c_size_t)]


# name: (restype, argtypes)
_SIGNATURES = {
    "aclInit": (_c_int, [_c_str]),
    "aclFinalize": (_c_int, []),
    "aclGetRecentErrMsg": (_c_str, []),
    "aclrtGetSocName": (_c_str, []),
    "aclrtSetDevice": (_c_int, [_c_i32]),
    "aclrtResetDevice": (_c_int, [_c_i32]),
    "aclrtGetDevice": (_c_int, [ctypes.POINTER(_c_i32)]),
    "aclrtGetDeviceCount": (_c_int, [ctypes.POINTER(_c_u32)]),
    "aclrtSynchronizeDevice": (_c_int, []),
    "aclrtCreateContext": (_c_int, [_c_ptr_p, _c_i32]),
    "aclrtDestroyContext": (_c_int, [_c_ptr]),
    "aclrtSetCurrentContext": (_c_int, [_c_ptr]),
    "aclrtGetCurrentContext": (_c_int, [_c_ptr_p]),
    "aclrtCreateStream": (_c_int, [_c_ptr_p]),
    "aclrtDestroyStream": (_c_int, [_c_ptr]),
    "aclrtSynchronizeStream": (_c_int, [_c_ptr]),
    "aclrtSynchronizeStreamWithTimeout": (_c_int, [_c_ptr, _c_i32]),
    "aclrtSetOpExecuteTimeOut": (_c_int, [_c_u32]),
    "aclrtSetOpWaitTimeout": (_c_int, [_c_u32]),
    "aclrtMalloc": (_c_int, [_c_ptr_p, _c_size, _c_int]),
    "aclrtFree": (_c_int, [_c_ptr]),
    "aclrtMallocHost": (_c_int, [_c_ptr_p, _c_size]),
    "aclrtFreeHost": (_c_int, [_c_ptr]),
    "aclrtHostRegister": (_c_int, [_c_ptr, ctypes.c_uint64, _c_int, _c_ptr_p]),
    "aclrtHostUnregister": (_c_int, [_c_ptr]),
    "aclrtMemcpy": (_c_int, [_c_ptr, _c_size, _c_ptr, _c_size, _c_int]),
    "aclrtMemcpyAsync": (_c_int, [_c_ptr, _c_size, _c_ptr, _c_size, _c_int, _c_ptr]),
    "aclrtMemset": (_c_int, [_c_ptr, _c_size, _c_i32, _c_size]),
    "aclCreateDataBuffer": (_c_ptr, [_c_ptr, _c_size]),
    "aclDestroyDataBuffer": (_c_int, [_c_ptr]),
    "aclUpdateDataBuffer": (_c_int, [_c_ptr, _c_ptr, _c_size]),
    "aclGetDataBufferAddr": (_c_ptr, [_c_ptr]),
    "aclGetDataBufferSizeV2": (_c_size, [_c_ptr]),
    "aclCreateTensorDesc": (_c_ptr, [_c_int, _c_int, ctypes.POINTER(ctypes.c_int64), _c_int]),
    "aclDestroyTensorDesc": (None, [_c_ptr]),
    "aclGetTensorDescNumDims": (_c_size, [_c_ptr]),
    "aclGetTensorDescDimV2": (_c_int, [_c_ptr, _c_size, ctypes.POINTER(ctypes.c_int64)]),
    "aclGetTensorDescDim": (ctypes.c_int64, [_c_ptr, _c_size]),
    "aclGetTensorDescSize": (_c_size, [_c_ptr]),
    "aclmdlLoadFromFile": (_c_int, [_c_str, ctypes.POINTER(_c_u32)]),
    "aclmdlLoadFromMem": (_c_int, [_c_ptr, _c_size, ctypes.POINTER(_c_u32)]),
    "aclmdlUnload": (_c_int, [_c_u32]),
    "aclmdlCreateDesc": (_c_ptr, []),
    "aclmdlDestroyDesc": (_c_int, [_c_ptr]),
    "aclmdlGetDesc": (_c_int, [_c_ptr, _c_u32]),
    "aclmdlGetNumInputs": (_c_size, [_c_ptr]),
    "aclmdlGetNumOutputs": (_c_size, [_c_ptr]),
    "aclmdlGetInputSizeByIndex": (_c_size, [_c_ptr, _c_size]),
    "aclmdlGetOutputSizeByIndex": (_c_size, [_c_ptr, _c_size]),
    "aclmdlGetInputNameByIndex": (_c_str, [_c_ptr, _c_size]),
    "aclmdlGetOutputNameByIndex": (_c_str, [_c_ptr, _c_size]),
    "aclmdlGetInputDims": (_c_int, [_c_ptr, _c_size, ctypes.POINTER(_IODims)]),
    "aclmdlGetOutputDims": (_c_int, [_c_ptr, _c_size, ctypes.POINTER(_IODims)]),
    "aclmdlGetInputDimsRange": (_c_int, [_c_ptr, _c_size, ctypes.POINTER(_IODimsRange)]),
    "aclmdlSetDatasetTensorDesc": (_c_int, [_c_ptr, _c_ptr, _c_size]),
    "aclmdlGetDatasetTensorDesc": (_c_ptr, [_c_ptr, _c_size]),
    "aclmdlGetInputDataType": (_c_int, [_c_ptr, _c_size]),
    "aclmdlGetOutputDataType": (_c_int, [_c_ptr, _c_size]),
    "aclmdlGetInputFormat": (_c_int, [_c_ptr, _c_size]),
    "aclmdlGetOutputFormat": (_c_int, [_c_ptr, _c_size]),
    "aclmdlGetInputIndexByName": (_c_int, [_c_ptr, _c_str, ctypes.POINTER(_c_size)]),
    "aclmdlGetOutputIndexByName": (_c_int, [_c_ptr, _c_str, ctypes.POINTER(_c_size)]),
    "aclmdlCreateDataset": (_c_ptr, []),
    "aclmdlDestroyDataset": (_c_int, [_c_ptr]),
    "aclmdlAddDatasetBuffer": (_c_int, [_c_ptr, _c_ptr]),
    "aclmdlGetDatasetNumBuffers": (_c_size, [_c_ptr]),
    "aclmdlGetDatasetBuffer": (_c_ptr, [_c_ptr, _c_size]),
    "aclrtBinaryLoadFromFile": (_c_int, [_c_str, ctypes.POINTER(BinaryLoadOptions), _c_ptr_p]),
    "aclrtBinaryGetFunction": (_c_int, [_c_ptr, _c_str, _c_ptr_p]),
    "aclrtBinaryUnLoad": (_c_int, [_c_ptr]),
    "aclrtLaunchKernel": (_c_int, [_c_ptr, _c_u32, _c_ptr, _c_size, _c_ptr]),
    "aclrtKernelArgsGetHandleMemSize": (_c_int, [_c_ptr, ctypes.POINTER(_c_size)]),
    "aclrtKernelArgsGetMemSize": (_c_int, [_c_ptr, _c_size, ctypes.POINTER(_c_size)]),
    "aclrtKernelArgsInit": (_c_int, [_c_ptr, _c_ptr_p]),
    "aclrtKernelArgsInitByUserMem": (_c_int, [_c_ptr, _c_ptr, _c_ptr, _c_size]),
    "aclrtKernelArgsAppend": (_c_int, [_c_ptr, _c_ptr, _c_size, _c_ptr_p]),
    "aclrtKernelArgsAppendPlaceHolder": (_c_int, [_c_ptr, _c_ptr_p]),
    "aclrtKernelArgsGetPlaceHolderBuffer": (_c_int, [_c_ptr, _c_ptr, _c_size, _c_ptr_p]),
    "aclrtKernelArgsParaUpdate": (_c_int, [_c_ptr, _c_ptr, _c_ptr, _c_size]),
    "aclrtKernelArgsFinalize": (_c_int, [_c_ptr]),
    "aclrtLaunchKernelWithConfig": (_c_int, [_c_ptr, _c_u32, _c_ptr, ctypes.POINTER(LaunchKernelCfg), _c_ptr, _c_ptr]),
    "aclmdlExecute": (_c_int, [_c_u32, _c_ptr, _c_ptr]),
    "aclmdlExecuteAsync": (_c_int, [_c_u32, _c_ptr, _c_ptr, _c_ptr]),
}


ACL_ERROR_INVALID_PARAM = 100000

# ctypes converts an out-of-range Python int silently (2**32 becomes 0 for a uint32_t, -1 a huge
# size_t): every integer argument of an aclError function is range-checked first, and a value
# its C type cannot hold is ACL_ERROR_INVALID_PARAM with one ERROR line, never a wrapped value.
_INT_RANGES = {
    _c_i32: (-(2**31), 2**31 - 1),
    _c_int: (-(2**31), 2**31 - 1),
    _c_u32: (0, 2**32 - 1),
    _c_size: (0, 2**64 - 1),
    ctypes.c_uint64: (0, 2**64 - 1),
    ctypes.c_int64: (-(2**63), 2**63 - 1),
}
# (ctypes.c_size_t is ctypes.c_uint64 on LP64: the later name wins; size_t is what ACL says.)
_C_NAMES = {
    _c_i32: "int32_t",
    _c_int: "int",
    _c_u32: "uint32_t",
    ctypes.c_uint64: "uint64_t",
    ctypes.c_int64: "int64_t",
    _c_size: "size_t",
}


def _range_checked(name, function, argtypes):
    checks = [(i, *_INT_RANGES[t], _C_NAMES[t]) for i, t in enumerate(argtypes) if t in _INT_RANGES]
    if not checks:
        return function

    def call(*args):
        for i, low, high, c_name in checks:
            value = args[i] if i < len(args) else None
            if type(value) is int and not low <= value <= high:
                import ascend_log

                ascend_log.error(
                    "ACL", f"{name}: argument {i + 1} = {value} does not fit its C type {c_name} [{low}, {high}]"
                )
                return ACL_ERROR_INVALID_PARAM
        return function(*args)

    call.__name__ = name
    return call


def _bind() -> dict[str, Callable[..., Any]]:
    functions: dict[str, Callable[..., Any]] = {}
    missing = []
    for name, (restype, argtypes) in _SIGNATURES.items():
        try:
            function = getattr(LIB, name)
        except AttributeError:
            missing.append(name)
            continue
        function.restype = restype
        function.argtypes = argtypes
        functions[name] = _range_checked(name, function, argtypes) if restype is _c_int else function
    if missing:
        raise ImportError(f"acl: {LIB_PATH} lacks {', '.join(missing)}; it is not a complete libascendcl.so")
    return functions


F = _bind()
