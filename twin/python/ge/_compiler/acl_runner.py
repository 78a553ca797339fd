"""Loading an OM from memory and executing it through pyACL (the `acl` module), with device
buffers and datasets created once per model and reused by every run.

This is the same runtime path (aclmdlLoadFromMem / aclmdlExecute, the runtime's model executor)
that the offline C++ runner uses through the ACL C API.
"""

import ctypes
import os
import threading
from typing import List, Optional, Sequence

import numpy as np

from .description import ModelDescription
from .errors import ModelRunError

ACL_COPIES_ENV = "ASCEND_TWIN_GE_ACL_COPIES"
ACL_SUCCESS = 0
ACL_ERROR_REPEAT_INITIALIZE = 100002
ACL_MEM_MALLOC_NORMAL_ONLY = 2
ACL_MEMCPY_HOST_TO_DEVICE = 1
ACL_MEMCPY_DEVICE_TO_HOST = 2
ACL_HOST_REGISTER_MAPPED = 0
# Tensors from this size up run zero-copy: the caller's arrays (and a fresh output array) are
# registered with aclrtHostRegister for one execute instead of being copied. Below it the
# register/unregister calls cost more than the copy (measured with bench_add_custom).
ZERO_COPY_MIN_BYTES = 64 * 1024
_PAGE = 4096  # aclrtHostRegister takes page-aligned ranges
_ZERO_COPY_ADDRESS_ALIGNMENT = 16  # what malloc (numpy's allocator) guarantees

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


class _DirectCalls:
    """aclrtMemcpy / aclmdlExecute bound straight from the library pyACL loaded, with every
    constant argument pre-built as a ctypes object: pyACL's per-call Python wrapper and int
    conversions cost more than the copy itself for small tensors. Host arrays are passed as
    ctypes views (``from_buffer``), which is cheaper than asking numpy for the address."""

    def __init__(self, acl) -> None:
        lib_path = getattr(getattr(acl, "_lib", None), "LIB_PATH", None)
        if not lib_path:
            raise LookupError("pyACL does not expose its library path")
        lib = ctypes.CDLL(lib_path)  # the same, already loaded library: same runtime state
        self.memcpy = lib.aclrtMemcpy
        self.execute = lib.aclmdlExecute
        self.update_buffer = lib.aclUpdateDataBuffer
        for fn in (self.memcpy, self.execute, self.update_buffer):
            fn.restype, fn.argtypes = ctypes.c_int, None  # arguments are always exact ctypes objects
        # absent from an older runtime: then there is no zero-copy path
        self.host_register = getattr(lib, "aclrtHostRegister", None)
        self.host_unregister = getattr(lib, "aclrtHostUnregister", None)
        if self.host_register is not None and self.host_unregister is not None:
            self.host_register.restype, self.host_unregister.restype = ctypes.c_int, ctypes.c_int
            self.host_register.argtypes = [ctypes.c_void_p, ctypes.c_uint64, ctypes.c_int,
                                           ctypes.POINTER(ctypes.c_void_p)]
            self.host_unregister.argtypes = [ctypes.c_void_p]
        self.h2d = ctypes.c_int(ACL_MEMCPY_HOST_TO_DEVICE)
        self.d2h = ctypes.c_int(ACL_MEMCPY_DEVICE_TO_HOST)


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
        self._out_layout = [(tuple(t.dims), np.dtype(_dtype.numpy_dtype(t.data_type)), t.size)
                            for t in description.outputs]
        self._direct: Optional[_DirectCalls] = None
        try:
            self._direct = _DirectCalls(acl)
        except (LookupError, OSError, AttributeError):
            self._direct = None  # e.g. CANN's own pyACL: use its functions
        # The twin's device memory is host memory of this process: inputs/outputs can move with
        # numpy copies into views of the model's device buffers instead of one aclrtMemcpy call
        # each (an order of magnitude cheaper for small tensors). Twin only; set
        # ASCEND_TWIN_GE_ACL_COPIES=1 to force aclrtMemcpy.
        self._views = self._zero_copy = None
        self._buffers_away = False  # see _plan_zero_copy
        if self._direct is not None and os.environ.get(ACL_COPIES_ENV) != "1":
            to_numpy = acl.util.ptr_to_numpy
            self._views = ([to_numpy(ptr, t.dims, self._in_dtypes[i]) if t.size else None
                            for i, (ptr, t) in enumerate(zip(self._inputs.ptrs, description.inputs))],
                           [to_numpy(ptr, dims, dtype) if size else None
                            for ptr, (dims, dtype, size) in zip(self._outputs.ptrs, self._out_layout)])
            if any(v is None for side in self._views for v in side):
                self._views = None
        # the views path's per-input (view, dtype, shape) and output views, computed once
        self._in_views = self._out_views = None
        if self._views is not None:
            self._in_views = [(view, view.dtype, view.shape) for view in self._views[0]]
            self._out_views = self._views[1]
        if self._direct is not None:
            size_t, void_p = ctypes.c_size_t, ctypes.c_void_p
            self._in_fast = [(void_p(ptr), size_t(t.size), ctypes.c_char * t.size, self._in_dtypes[i])
                             for i, (ptr, t) in enumerate(zip(self._inputs.ptrs, description.inputs))]
            self._out_fast = [(void_p(ptr), size_t(size), ctypes.c_char * size, dims, dtype)
                              for ptr, (dims, dtype, size) in zip(self._outputs.ptrs, self._out_layout)]
            self._exec_args = (ctypes.c_uint32(self.model_id), void_p(self._inputs.dataset),
                               void_p(self._outputs.dataset))
            self._execute = self._direct.execute
        self._zero_copy = self._plan_zero_copy()

    def _plan_zero_copy(self):
        """Per tensor of the zero-copy path (twin only, like the views path; None when off):
        inputs as (dtype, shape, data buffer, size, device view or None when it is large enough
        to be registered), outputs as (dims, dtype, data buffer, size, device view or None)."""
        direct = self._direct
        if self._views is None or direct.host_register is None:
            return None
        in_views, out_views = self._views
        inputs = [(dtype, view.shape, buffer, t.size, None if t.size >= ZERO_COPY_MIN_BYTES else view)
                  for t, dtype, view, buffer in zip(self.description.inputs, self._in_dtypes, in_views,
                                                    self._inputs.data_buffers)]
        outputs = [(dims, dtype, buffer, size, None if size >= ZERO_COPY_MIN_BYTES else view)
                   for (dims, dtype, size), view, buffer in zip(self._out_layout, out_views,
                                                                self._outputs.data_buffers)]
        if all(entry[4] is not None for entry in inputs + outputs):
            return None  # nothing large: the views path is the cheapest
        # Where each data buffer points now. Zero-copy runs leave their buffers on the caller's
        # (unregistered) memory; _restore_buffers puts them back before any other path executes.
        self._buffer_homes = {}
        for side, sizes in ((self._inputs, [t.size for t in self.description.inputs]),
                            (self._outputs, [size for _, _, size in self._out_layout])):
            for buffer, ptr, size in zip(side.data_buffers, side.ptrs, sizes):
                self._buffer_homes[buffer] = (ptr, size)
        self._buffer_now = {buffer: home for buffer, (home, _) in self._buffer_homes.items()}
        self._buffers_away = False
        return inputs, outputs

    def _restore_buffers(self) -> None:
        update = self._direct.update_buffer
        for buffer, (home, size) in self._buffer_homes.items():
            if self._buffer_now[buffer] != home:
                ret = update(ctypes.c_void_p(buffer), ctypes.c_void_p(home), ctypes.c_size_t(size))
                if ret != ACL_SUCCESS:
                    _check(self.acl, ret, "aclUpdateDataBuffer back to the model's device memory")
                self._buffer_now[buffer] = home
        self._buffers_away = False

    def _point_buffer(self, buffer: int, address: int, size: int) -> None:
        if self._buffer_now[buffer] != address:
            self._buffers_away = True
            self._buffer_now[buffer] = None  # unknown until the update succeeds
            ret = self._direct.update_buffer(ctypes.c_void_p(buffer), ctypes.c_void_p(address), ctypes.c_size_t(size))
            if ret != ACL_SUCCESS:
                _check(self.acl, ret, "aclUpdateDataBuffer to registered host memory")
            self._buffer_now[buffer] = address

    def _run_zero_copy(self, arrays: Sequence[np.ndarray]) -> Optional[List[np.ndarray]]:
        """Runs the model on the caller's large arrays in place (registered host memory) and a
        fresh output array per large output; small tensors go through the device views. None
        (nothing done) when an input does not qualify or registration is refused, e.g. a page
        shared with memory another thread registered: the copy paths then run."""
        inputs, outputs = self._zero_copy
        if len(arrays) != len(inputs):
            return None
        large = []  # (address, size, data buffer)
        for array, (dtype, shape, buffer, size, view) in zip(arrays, inputs):
            if (array.dtype is not dtype and array.dtype != dtype) or array.shape != shape:
                return None
            if view is None:
                interface = array.__array_interface__  # cheaper than array.ctypes
                address = interface["data"][0]
                # read-only memory (e.g. a file mapped by np.load(mmap_mode="r")) is copied: the
                # GM checker would let a kernel write to it
                if interface["data"][1] or (interface["strides"] is not None and not array.flags.c_contiguous):
                    return None
                if address % _ZERO_COPY_ADDRESS_ALIGNMENT:
                    return None
                large.append((address, size, buffer))
        results = [np.empty(dims, dtype=dtype) for dims, dtype, _, _, _ in outputs]
        for out, (_, _, buffer, size, view) in zip(results, outputs):
            if view is None:
                large.append((out.__array_interface__["data"][0], size, buffer))
        # Page-aligned ranges covering the large tensors, merged where they share pages
        # (neighbouring heap blocks, an array passed twice): each page is registered once.
        spans = sorted([address & -_PAGE, (address + size + _PAGE - 1) & -_PAGE] for address, size, _ in large)
        merged = [spans[0]]
        for span in spans[1:]:
            if span[0] <= merged[-1][1]:
                merged[-1][1] = max(merged[-1][1], span[1])
            else:
                merged.append(span)
        direct, acl = self._direct, self.acl
        register, unregister = direct.host_register, direct.host_unregister
        with self._lock:
            if self.model_id is None:
                raise ModelRunError(f"model {self.description.name} is unloaded")
            registered = []
            try:
                dev_base = ctypes.c_void_p()
                for lo, hi in merged:
                    if register(lo, hi - lo, ACL_HOST_REGISTER_MAPPED, ctypes.byref(dev_base)) != ACL_SUCCESS:
                        acl.get_recent_err_msg()  # drop the refusal: it is handled, not reported
                        return None
                    registered.append(lo)
                    if dev_base.value != lo:  # CANN may map elsewhere; the twin maps in place
                        raise ModelRunError(f"aclrtHostRegister mapped {lo:#x} to {dev_base.value:#x}; "
                                            "the zero-copy path needs the host address")
                for address, size, buffer in large:
                    self._point_buffer(buffer, address, size)
                for array, (_, _, _, _, view) in zip(arrays, inputs):
                    if view is not None:
                        view[...] = array
                ret = self._execute(*self._exec_args)
                if ret != ACL_SUCCESS:
                    _check(acl, ret, f"aclmdlExecute of model {self.description.name}")
                for out, (_, _, _, _, view) in zip(results, outputs):
                    if view is not None:
                        out[...] = view
                return results
            finally:
                failed = ACL_SUCCESS
                for lo in registered:
                    ret = unregister(lo)
                    failed = failed or ret
                if failed != ACL_SUCCESS:
                    _check(acl, failed, "aclrtHostUnregister of a zero-copy tensor")

    def run(self, arrays: Sequence[np.ndarray]) -> List[np.ndarray]:
        """Inputs in model order -> fresh output arrays. Inputs that do not match the model
        exactly (count, dtype, shape, layout) take the checked paths, which convert what they
        can and otherwise raise ModelRunError naming the input."""
        if self._zero_copy is not None:
            results = self._run_zero_copy(arrays)
            if results is not None:
                return results
        in_views = self._in_views
        if in_views is not None and len(arrays) == len(in_views):
            with self._lock:
                if self.model_id is None:
                    raise ModelRunError(f"model {self.description.name} is unloaded")
                if self._buffers_away:  # a zero-copy run left the datasets on caller memory
                    self._restore_buffers()
                for array, (view, dtype, shape) in zip(arrays, in_views):
                    # dtype by identity first (numpy's builtin dtypes are singletons)
                    if (array.dtype is not dtype and array.dtype != dtype) or array.shape != shape:
                        break
                    # same dtype and shape: a plain memcpy (cheaper than np.copyto on these views)
                    view[...] = array
                else:
                    ret = self._execute(*self._exec_args)
                    if ret != ACL_SUCCESS:
                        _check(self.acl, ret, f"aclmdlExecute of model {self.description.name}")
                    return list(map(_copy_array, self._out_views))
        if self._direct is not None and len(arrays) == len(self._in_fast):
            try:
                return self._run_direct(arrays)
            except _SlowPath:
                pass
        return self._run_acl(arrays)

    def _run_direct(self, arrays: Sequence[np.ndarray]) -> List[np.ndarray]:
        direct = self._direct
        memcpy, h2d, d2h = direct.memcpy, direct.h2d, direct.d2h
        with self._lock:
            if self.model_id is None:
                raise ModelRunError(f"model {self.description.name} is unloaded")
            if self._buffers_away:  # a zero-copy run left the datasets on caller memory
                self._restore_buffers()
            for i, (array, (dst, size, view_type, dtype)) in enumerate(zip(arrays, self._in_fast)):
                if array.dtype != dtype or array.nbytes != size.value:
                    raise _SlowPath()  # the checked path explains the mismatch
                try:
                    # needs a writable, C-contiguous buffer, else the checked path converts
                    source = view_type.from_buffer(array)
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
                ret = memcpy(view_type.from_buffer(out), size, src, size, d2h)
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
            if self.model_id is None:
                raise ModelRunError(f"model {self.description.name} is unloaded")
            if self._buffers_away:  # a zero-copy run left the datasets on caller memory
                self._restore_buffers()
            for i, (array, spec, ptr) in enumerate(zip(arrays, specs, self._inputs.ptrs)):
                if array.dtype != self._in_dtypes[i] or array.nbytes != spec.size:
                    raise ModelRunError(f"input {i} ({spec.name}) must be {spec.data_type.name} {list(spec.dims)} "
                                        f"({spec.size} bytes), got {array.dtype} {list(array.shape)} "
                                        f"({array.nbytes} bytes)")
                if not array.flags.c_contiguous:
                    array = np.ascontiguousarray(array)
                ret = memcpy(ptr, spec.size, array.ctypes.data, spec.size, ACL_MEMCPY_HOST_TO_DEVICE)
                if ret != ACL_SUCCESS:
                    _check(acl, ret, f"aclrtMemcpy of input {i}")
            ret = acl.mdl.execute(self.model_id, self._inputs.dataset, self._outputs.dataset)
            if ret != ACL_SUCCESS:
                _check(acl, ret, f"aclmdlExecute of model {self.description.name}")
            results = []
            for i, ((dims, dtype, size), ptr) in enumerate(zip(self._out_layout, self._outputs.ptrs)):
                out = np.empty(dims, dtype=dtype)
                ret = memcpy(out.ctypes.data, size, ptr, size, ACL_MEMCPY_DEVICE_TO_HOST)
                if ret != ACL_SUCCESS:
                    _check(acl, ret, f"aclrtMemcpy of output {i}")
                results.append(out)
        return results

    def close(self) -> None:
        with self._lock:
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
