"""Loading an OM from memory and executing it through pyACL (the `acl` module), with device
buffers and datasets created once per model and reused by every run.

This is the same runtime path (aclmdlLoadFromMem / aclmdlExecute, the runtime's model executor)
that the offline C++ runner uses through the ACL C API.
"""

import ctypes
import functools
import os
import sys
import threading
from typing import List, Sequence

import numpy as np

from .description import ModelDescription
from .errors import ModelRunError

ACL_COPIES_ENV = "ASCEND_TWIN_GE_ACL_COPIES"
ACL_SUCCESS = 0
ACL_ERROR_REPEAT_INITIALIZE = 100002
ACL_MEM_MALLOC_NORMAL_ONLY = 2
ACL_MEMCPY_HOST_TO_DEVICE = 1
ACL_MEMCPY_DEVICE_TO_HOST = 2
# Outputs from this size up are not copied on the twin: they are written into pooled arrays
# (registered once). Below it a copy through a device-buffer view is cheaper than the pool's
# bookkeeping. Inputs are always copied into the model's device buffers, as on an NPU: a kernel
# that writes its input slot must not reach the caller's array.
ZERO_COPY_MIN_BYTES = 64 * 1024

_runtime_lock = threading.Lock()
_runtime_device = None  # device id set by ensure_runtime


def _acl():
    try:
        import acl  # the pyACL twin (twin/runtime/python/acl) or CANN's pyACL
    except ImportError as exc:
        raise ModelRunError(f"pyACL module 'acl' is not importable: {exc}") from None
    return acl


def _check(acl, ret: int, what: str) -> None:
    if ret != ACL_SUCCESS:
        detail = ""
        try:
            detail = acl.get_recent_err_msg() or ""
        except Exception:  # older pyACL builds lack it; the code alone still identifies the error
            pass
        detail = " ".join(str(detail).split())
        raise ModelRunError(f"{what} failed with ACL error {ret}" + (f": {detail}" if detail else ""))


def ensure_runtime(device_id: int) -> None:
    """acl.init + acl.rt.set_device once per process (GE owns the runtime for Session)."""
    global _runtime_device
    acl = _acl()
    with _runtime_lock:
        if _runtime_device is None:
            ret = acl.init()
            if ret not in (ACL_SUCCESS, ACL_ERROR_REPEAT_INITIALIZE):
                _check(acl, ret, "aclInit")
            _check(acl, acl.rt.set_device(device_id), f"aclrtSetDevice({device_id})")
            _runtime_device = device_id
        elif _runtime_device != device_id:
            raise ModelRunError(f"device {device_id} requested but this process runs GE on device {_runtime_device}")


_copy_array = np.ndarray.copy


def _refcounts(arrays: List[np.ndarray]) -> List[int]:
    """sys.getrefcount of each array, always measured the same way (the pool compares them
    with the count of an array nobody else holds)."""
    return [sys.getrefcount(array) for array in arrays]


# what _refcounts reports for an array only the pool's list holds
_IDLE_REFS = _refcounts([np.empty(1)])[0]


def _function_address(function) -> int:
    """The address of a ctypes foreign function, for C code to call it directly."""
    address = ctypes.cast(function, ctypes.c_void_p).value
    assert address is not None  # a symbol the library resolved: never NULL
    return address


class _SlowPath(Exception):
    """An input the direct path does not take as is (wrong type/size, non-contiguous, read-only)."""


class _Buffers:
    """Device buffers of one side (inputs or outputs) wrapped in one reusable dataset."""

    def __init__(self, acl, sizes: Sequence[int], what: str) -> None:
        self.acl, self.ptrs, self.data_buffers = acl, [], []
        self.dataset = acl.mdl.create_dataset()
        try:
            for i, size in enumerate(sizes):
                ptr, ret = acl.rt.malloc(max(size, 1), ACL_MEM_MALLOC_NORMAL_ONLY)
                _check(acl, ret, f"aclrtMalloc({size}) for {what} {i}")
                self.ptrs.append(ptr)
                buffer = acl.create_data_buffer(ptr, size)
                self.data_buffers.append(buffer)
                _, ret = acl.mdl.add_dataset_buffer(self.dataset, buffer)
                _check(acl, ret, f"aclmdlAddDatasetBuffer for {what} {i}")
        except BaseException:
            self.release()
            raise

    def release(self) -> None:
        acl = self.acl
        for buffer in self.data_buffers:
            acl.destroy_data_buffer(buffer)
        for ptr in self.ptrs:
            acl.rt.free(ptr)
        if self.dataset is not None:
            acl.mdl.destroy_dataset(self.dataset)
        self.ptrs, self.data_buffers, self.dataset = [], [], None


def _twin_pyacl():
    """The twin's pyACL extension (acl.twin), or None under CANN's pyACL."""
    try:
        from acl import twin
    except ImportError:
        return None
    return twin if getattr(twin, "DEVICE_MEMORY_IS_HOST_MEMORY", False) else None


class _OutputPool:
    """Output arrays of one model output, reused once the caller has dropped them: registered
    once (acl.twin.HostArrays) and already faulted in, so a steady-state run allocates, faults
    and registers nothing — the arena ONNX Runtime and PyTorch keep for the same reason. An array
    is free when the pool's references are its only ones (a view, memoryview or Tensor of it
    keeps it taken)."""

    MAX_ARRAYS = 4

    def __init__(self, dims, dtype, host_arrays) -> None:
        self.dims, self.dtype, self.host_arrays = dims, dtype, host_arrays
        self.arrays: List[np.ndarray] = []
        self.owners: List[np.ndarray] = []  # per array: the block that owns its memory (its .base)
        self.addresses: List[int] = []

    def take(self):
        """(array, device address) for this run, or None when the pool is full and every array
        is taken (the output is then copied out of the model's own buffer). An array is free
        when nobody else holds it, nor a view of it: numpy points a view's base at the block that
        owns the memory, not at the array it was taken from, so the block's count says that."""
        for i, (count, owner_count) in enumerate(zip(_refcounts(self.arrays), _refcounts(self.owners))):
            if count <= _IDLE_REFS and owner_count <= _IDLE_REFS + 1:  # + 1: the array's own .base
                return self.arrays[i], self.addresses[i]
        if len(self.arrays) >= self.MAX_ARRAYS:
            return None
        array = self.host_arrays.padded_empty(self.dims, self.dtype)
        address = self.host_arrays.address(array)
        if address is None:
            return None
        self.arrays.append(array)
        self.owners.append(array.base)
        self.addresses.append(address)
        return array, address

    def clear(self) -> None:
        # each array unregisters when its last holder drops it
        self.arrays, self.owners, self.addresses = [], [], []


class LoadedModel:
    def __init__(self, om: bytes, description: ModelDescription, device_id: int = 0) -> None:
        ensure_runtime(device_id)
        acl = self.acl = _acl()
        self.description = description
        self._om = om  # pyACL's load_from_mem reads from this buffer
        self._lock = threading.Lock()
        self.model_id = None
        self._inputs = self._outputs = None
        ptr = acl.util.bytes_to_ptr(om)
        model_id, ret = acl.mdl.load_from_mem(ptr, len(om))
        _check(acl, ret, f"aclmdlLoadFromMem of model {description.name}")
        self.model_id = model_id
        try:
            self._inputs = _Buffers(acl, [t.size for t in description.inputs], "input")
            self._outputs = _Buffers(acl, [t.size for t in description.outputs], "output")
        except BaseException:
            self.close()
            raise
        from ge.graph import _dtype

        self._in_dtypes = [np.dtype(_dtype.numpy_dtype(t.data_type)) for t in description.inputs]
        self._out_layout = [
            (tuple(t.dims), np.dtype(_dtype.numpy_dtype(t.data_type)), t.size) for t in description.outputs
        ]
        twin = _twin_pyacl() if os.environ.get(ACL_COPIES_ENV) != "1" else None
        self._direct = twin.DirectCalls() if twin is not None else None
        if self._direct is not None:
            size_t, void_p = ctypes.c_size_t, ctypes.c_void_p
            self._in_fast = [
                (void_p(ptr), size_t(t.size), ctypes.c_char * t.size, self._in_dtypes[i])
                for i, (ptr, t) in enumerate(zip(self._inputs.ptrs, description.inputs))
            ]
            self._out_fast = [
                (void_p(ptr), size_t(size), ctypes.c_char * size, dims, dtype)
                for ptr, (dims, dtype, size) in zip(self._outputs.ptrs, self._out_layout)
            ]
            self._exec_args = (
                ctypes.c_uint32(self.model_id),
                void_p(self._inputs.dataset),
                void_p(self._outputs.dataset),
            )
            self._execute = self._direct.execute
        self._shared_run = self._plan_shared(twin) if self._direct is not None else None

    def _plan_shared(self, twin):
        """The twin's shared-memory run (device memory is host memory), planned once per model:
        an output is large from ZERO_COPY_MIN_BYTES up. Large outputs are written into pooled
        arrays; inputs and small outputs are copied through numpy views of the model's device
        buffers (an input is never read in place from the caller's array: a kernel may write its
        input buffer, which on an NPU is device memory, never the caller's). The run itself is one C call,
        ge._compiler._shared_run.SharedRun (shared_run.c says what it does). None when a tensor
        is empty, or when the extension does not import (an interpreter other than the build's):
        the copy paths then serve alone."""
        try:
            from . import _shared_run
        except ImportError:
            return None
        to_numpy = self.acl.util.ptr_to_numpy
        specs_in = self.description.inputs
        if any(t.size == 0 for t in specs_in) or any(size == 0 for _, _, size in self._out_layout):
            return None
        host_arrays = twin.host_arrays
        inputs = [
            (to_numpy(ptr, t.dims, dtype), None, None)
            for ptr, t, dtype in zip(self._inputs.ptrs, specs_in, self._in_dtypes)
        ]
        outputs = []
        self._pools = []
        for ptr, (dims, dtype, size), buffer in zip(self._outputs.ptrs, self._out_layout, self._outputs.data_buffers):
            pool = _OutputPool(dims, dtype, host_arrays) if size >= ZERO_COPY_MIN_BYTES else None
            if pool is not None:
                self._pools.append(pool)
            outputs.append(
                (to_numpy(ptr, dims, dtype), (buffer, size, ptr) if pool else None, pool.take if pool else None)
            )
        _, in_dataset, out_dataset = self._exec_args
        return _shared_run.SharedRun(
            lock=self._lock,
            copy=_copy_array,
            array_type=np.ndarray,
            on_error=functools.partial(_check, self.acl),
            execute_what=f"aclmdlExecute of model {self.description.name}",
            execute=_function_address(self._direct.execute),
            update_buffer=_function_address(self._direct.update_buffer),
            model_id=self.model_id,
            input_dataset=in_dataset.value,
            output_dataset=out_dataset.value,
            inputs=inputs,
            outputs=outputs,
        )

    def _restore_buffers(self) -> None:
        """Before a copy path (under the lock): every dataset buffer at the model's own device
        memory again, where a shared-memory run may have left it on the caller's arrays."""
        if self._shared_run is not None:
            self._shared_run.restore()

    def runner(self):
        """The fastest run() for this model, for a caller that runs it many times (the Session
        binds it once per graph): the shared-memory run as one C call, with run() where it
        declines; else the run method. Not kept on the model (that would be a reference cycle,
        which delays the release of its device memory to the garbage collector)."""
        if self._shared_run is not None:
            return self._shared_run.bind(self.run)
        return self.run

    def run(self, arrays: Sequence[np.ndarray]) -> List[np.ndarray]:
        """Inputs in model order -> output arrays the caller owns (on the twin, recycled only
        once dropped). Inputs that do not match the model exactly (count, dtype, shape, layout)
        take the checked paths, which convert what they can and otherwise raise ModelRunError
        naming the input."""
        shared = self._shared_run  # read once: close() may clear it meanwhile (the run then declines)
        if shared is not None:
            results = shared(arrays)  # None: not the model's exact layout, nothing run
            if results is not None:
                return results
        direct = self._direct
        if direct is not None and len(arrays) == len(self._in_fast):
            try:
                return self._run_direct(direct, arrays)
            except _SlowPath:
                pass
        return self._run_acl(arrays)

    def _run_direct(self, direct, arrays: Sequence[np.ndarray]) -> List[np.ndarray]:
        memcpy, h2d, d2h = direct.memcpy, direct.h2d, direct.d2h
        with self._lock:
            if self.model_id is None:
                raise ModelRunError(f"model {self.description.name} is unloaded")
            self._restore_buffers()  # a shared-memory run may have left buffers on caller memory
            for i, (array, (dst, size, view_type, dtype)) in enumerate(zip(arrays, self._in_fast)):
                if array.dtype != dtype or array.nbytes != size.value:
                    raise _SlowPath()  # the checked path explains the mismatch
                try:
                    # needs a writable, C-contiguous buffer, else the checked path converts
                    source = view_type.from_buffer(array)  # type: ignore[arg-type]  # an ndarray is a buffer
                except (TypeError, ValueError, BufferError):
                    raise _SlowPath() from None
                ret = memcpy(dst, size, source, size, h2d)
                if ret != ACL_SUCCESS:
                    _check(self.acl, ret, f"aclrtMemcpy of input {i}")
            ret = direct.execute(*self._exec_args)
            if ret != ACL_SUCCESS:
                _check(self.acl, ret, f"aclmdlExecute of model {self.description.name}")
            results = []
            for i, (src, size, view_type, dims, dtype) in enumerate(self._out_fast):
                out = np.empty(dims, dtype=dtype)
                ret = memcpy(view_type.from_buffer(out), size, src, size, d2h)  # type: ignore[arg-type]  # an ndarray is a buffer
                if ret != ACL_SUCCESS:
                    _check(self.acl, ret, f"aclrtMemcpy of output {i}")
                results.append(out)
        return results

    def _run_acl(self, arrays: Sequence[np.ndarray]) -> List[np.ndarray]:
        specs = self.description.inputs
        if len(arrays) != len(specs):
            raise ModelRunError(f"model {self.description.name} takes {len(specs)} inputs, got {len(arrays)}")
        acl = self.acl
        memcpy = acl.rt.memcpy
        with self._lock:
            inputs, outputs = self._inputs, self._outputs  # None once unloaded, as model_id
            if self.model_id is None or inputs is None or outputs is None:
                raise ModelRunError(f"model {self.description.name} is unloaded")
            self._restore_buffers()  # a shared-memory run may have left buffers on caller memory
            for i, (array, spec, ptr) in enumerate(zip(arrays, specs, inputs.ptrs)):
                if array.dtype != self._in_dtypes[i] or array.nbytes != spec.size:
                    raise ModelRunError(
                        f"input {i} ({spec.name}) must be {spec.data_type.name} {list(spec.dims)} "
                        f"({spec.size} bytes), got {array.dtype} {list(array.shape)} "
                        f"({array.nbytes} bytes)"
                    )
                if not array.flags.c_contiguous:
                    array = np.ascontiguousarray(array)
                ret = memcpy(ptr, spec.size, array.ctypes.data, spec.size, ACL_MEMCPY_HOST_TO_DEVICE)
                if ret != ACL_SUCCESS:
                    _check(acl, ret, f"aclrtMemcpy of input {i}")
            ret = acl.mdl.execute(self.model_id, inputs.dataset, outputs.dataset)
            if ret != ACL_SUCCESS:
                _check(acl, ret, f"aclmdlExecute of model {self.description.name}")
            results = []
            for i, ((dims, dtype, size), ptr) in enumerate(zip(self._out_layout, outputs.ptrs)):
                out = np.empty(dims, dtype=dtype)
                ret = memcpy(out.ctypes.data, size, ptr, size, ACL_MEMCPY_DEVICE_TO_HOST)
                if ret != ACL_SUCCESS:
                    _check(acl, ret, f"aclrtMemcpy of output {i}")
                results.append(out)
        return results

    def close(self) -> None:
        with self._lock:
            shared = getattr(self, "_shared_run", None)
            if shared is not None:
                shared.close()  # runners bound to it decline from now on
                self._shared_run = None
                for pool in self._pools:
                    pool.clear()
            for side in (self._inputs, self._outputs):
                if side is not None:
                    side.release()
            self._inputs = self._outputs = None
            if self.model_id is not None:
                self.acl.mdl.unload(self.model_id)
                self.model_id = None

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # interpreter shutdown: the runtime may already be gone
            pass
