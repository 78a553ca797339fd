"""Loading an OM from memory and executing it through pyACL (the `acl` module), with device
buffers and datasets created once per model and reused by every run.

This is the same runtime path (aclmdlLoadFromMem / aclmdlExecute, the runtime's model executor)
that the offline C++ runner uses through the ACL C API.
"""

import ctypes
import os
import sys
import threading
from typing import List, NamedTuple, Optional, Sequence

import numpy as np

from .description import ModelDescription
from .errors import ModelRunError

ACL_COPIES_ENV = "ASCEND_TWIN_GE_ACL_COPIES"
ACL_SUCCESS = 0
ACL_ERROR_REPEAT_INITIALIZE = 100002
ACL_MEM_MALLOC_NORMAL_ONLY = 2
ACL_MEMCPY_HOST_TO_DEVICE = 1
ACL_MEMCPY_DEVICE_TO_HOST = 2
# Tensors from this size up are not copied on the twin: inputs are read in place from the
# caller's arrays (registered once for their lifetime), outputs written into pooled arrays.
# Below it a copy through a device-buffer view is cheaper than the per-tensor bookkeeping.
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
        self.addresses: List[int] = []

    def take(self):
        """(array, device address) for this run, or None when the pool is full and every array
        is taken (the output is then copied out of the model's own buffer)."""
        for i, count in enumerate(_refcounts(self.arrays)):
            if count <= _IDLE_REFS:
                return self.arrays[i], self.addresses[i]
        if len(self.arrays) >= self.MAX_ARRAYS:
            return None
        array = self.host_arrays.padded_empty(self.dims, self.dtype)
        address = self.host_arrays.address(array)
        if address is None:
            return None
        self.arrays.append(array)
        self.addresses.append(address)
        return array, address

    def clear(self) -> None:
        self.arrays, self.addresses = [], []  # each array unregisters when its last holder drops it


class _SharedPlan(NamedTuple):
    """LoadedModel's shared-memory path, planned at load time (see _plan_shared)."""
    checks: list     # per input (dtype, shape): the only layout the path takes
    small_in: list   # (device-buffer view, input index): copied in
    large_in: list   # (device-buffer view, dataset point, input index): read in place if registered
    out_views: list  # per output: view of its device buffer
    pools: Optional[list]  # per output (_OutputPool or None, dataset point); None: all outputs small


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
        twin = _twin_pyacl() if os.environ.get(ACL_COPIES_ENV) != "1" else None
        self._direct = twin.DirectCalls() if twin is not None else None
        self._shared = self._plan_shared(twin) if twin is not None else None
        if self._direct is not None:
            size_t, void_p = ctypes.c_size_t, ctypes.c_void_p
            self._in_fast = [(void_p(ptr), size_t(t.size), ctypes.c_char * t.size, self._in_dtypes[i])
                             for i, (ptr, t) in enumerate(zip(self._inputs.ptrs, description.inputs))]
            self._out_fast = [(void_p(ptr), size_t(size), ctypes.c_char * size, dims, dtype)
                              for ptr, (dims, dtype, size) in zip(self._outputs.ptrs, self._out_layout)]
            self._exec_args = (ctypes.c_uint32(self.model_id), void_p(self._inputs.dataset),
                               void_p(self._outputs.dataset))
            self._execute = self._direct.execute

    def _plan_shared(self, twin):
        """The twin's shared-memory path (device memory is host memory), planned once per model:
        a tensor is large from ZERO_COPY_MIN_BYTES up. Large inputs are read in place from the
        caller's registered arrays, large outputs written into pooled arrays; small ones are
        copied through numpy views of the model's device buffers, whose dataset buffers never
        move. None when a tensor is empty."""
        to_numpy = self.acl.util.ptr_to_numpy
        specs_in = self.description.inputs
        if any(t.size == 0 for t in specs_in) or any(size == 0 for _, _, size in self._out_layout):
            return None
        # where each dataset buffer points now: [buffer, size, home (device memory), current]
        self._points = ([[b, t.size, p, p] for b, t, p in zip(self._inputs.data_buffers, specs_in, self._inputs.ptrs)],
                        [[b, size, p, p] for b, (_, _, size), p in zip(self._outputs.data_buffers, self._out_layout,
                                                                       self._outputs.ptrs)])
        self._host_arrays = twin.host_arrays
        in_views = [to_numpy(ptr, t.dims, dtype) for ptr, t, dtype in zip(self._inputs.ptrs, specs_in, self._in_dtypes)]
        out_views = [to_numpy(ptr, dims, dtype) for ptr, (dims, dtype, _) in zip(self._outputs.ptrs, self._out_layout)]
        large_in = [t.size >= ZERO_COPY_MIN_BYTES for t in specs_in]
        large_out = [size >= ZERO_COPY_MIN_BYTES for _, _, size in self._out_layout]
        return _SharedPlan(
            checks=[(dtype, tuple(t.dims)) for t, dtype in zip(specs_in, self._in_dtypes)],
            small_in=[(view, i) for i, view in enumerate(in_views) if not large_in[i]],
            large_in=[(view, self._points[0][i], i) for i, view in enumerate(in_views) if large_in[i]],
            out_views=out_views,
            pools=[(_OutputPool(dims, dtype, twin.host_arrays) if large else None, self._points[1][i])
                   for i, ((dims, dtype, _), large) in enumerate(zip(self._out_layout, large_out))]
            if any(large_out) else None)

    def _point(self, point: list, address: int) -> None:
        """Points a dataset buffer at `address` (aclUpdateDataBuffer) unless it already does."""
        if point[3] != address:
            point[3] = None  # unknown until the update succeeds
            ret = self._direct.update_buffer(ctypes.c_void_p(point[0]), ctypes.c_void_p(address),
                                             ctypes.c_size_t(point[1]))
            if ret != ACL_SUCCESS:
                _check(self.acl, ret, "aclUpdateDataBuffer")
            point[3] = address

    def _restore_buffers(self) -> None:
        """Before a copy path: every dataset buffer at the model's own device memory again."""
        if self._shared is not None:
            for side in self._points:
                for point in side:
                    self._point(point, point[2])

    def _run_shared(self, arrays: Sequence[np.ndarray]) -> Optional[List[np.ndarray]]:
        """The twin's steady-state path; None (nothing run) when an input's dtype or shape is not
        the model's exactly (the checked paths then convert or explain). Kept lean: at small
        sizes this Python is a third of a run."""
        plan = self._shared
        for array, (dtype, shape) in zip(arrays, plan.checks):
            if array.shape != shape or (array.dtype is not dtype and array.dtype != dtype):
                return None
        with self._lock:
            if self.model_id is None:
                raise ModelRunError(f"model {self.description.name} is unloaded")
            for view, i in plan.small_in:
                view[...] = arrays[i]  # a plain memcpy into the device buffer
            if plan.large_in:
                self._place_large_inputs(plan, arrays)
            taken = self._take_outputs(plan) if plan.pools is not None else None
            ret = self._execute(*self._exec_args)
            if ret != ACL_SUCCESS:
                _check(self.acl, ret, f"aclmdlExecute of model {self.description.name}")
            if taken is None:
                return [_copy_array(view) for view in plan.out_views]
            return [array if array is not None else _copy_array(view) for array, view in zip(taken, plan.out_views)]

    def runner(self):
        """The fastest run() for this model, for a caller that runs it many times (the Session
        binds it once per graph): for a model whose tensors are all small, _small_run; else the
        run method. Not kept on the model (that would be a reference cycle, which delays the
        release of its device memory to the garbage collector)."""
        plan = self._shared
        if plan is not None and self._direct is not None and not plan.large_in and plan.pools is None:
            small = self._small_run()
            if small is not None:
                return small
        return self.run

    def _small_run(self):
        """run() for a model whose tensors are all small (copied through the model's own device
        buffers, dataset buffers never moved) as one C call (ge._compiler._small_run, whose
        comment says what it does): at these sizes the Python of a run costs as much as the
        kernel launch. What it does not take as is goes to run(); None when the extension is
        not importable (another interpreter than the build's), and run() serves alone."""
        try:
            from . import _small_run
        except ImportError:
            return None
        plan, name = self._shared, self.description.name
        in_views = [None] * len(plan.checks)
        for view, i in plan.small_in:
            in_views[i] = view

        def on_error(ret: int) -> None:
            _check(self.acl, ret, f"aclmdlExecute of model {name}")

        _, in_dataset, out_dataset = self._exec_args
        return _small_run.SmallRun(
            model=self, lock=self._lock, copy=_copy_array, array_type=np.ndarray, fallback=self.run,
            on_error=on_error, execute=ctypes.cast(self._execute, ctypes.c_void_p).value, model_id=self.model_id,
            input_dataset=in_dataset.value, output_dataset=out_dataset.value, input_views=in_views,
            output_views=list(plan.out_views))

    def _place_large_inputs(self, plan, arrays) -> None:
        """Large inputs: read in place when registered, else copied into the model's buffer."""
        address_of = self._host_arrays.address
        for view, point, i in plan.large_in:
            array = arrays[i]
            address = address_of(array)
            if address is not None:
                self._point(point, address)
            else:
                if point[3] != point[2]:
                    self._point(point, point[2])
                view[...] = array

    def _take_outputs(self, plan) -> list:
        """Per output: a pooled array the kernel writes in place, or None (copied out after)."""
        taken = []
        for pool, point in plan.pools:
            entry = pool.take() if pool is not None else None
            if entry is not None:
                self._point(point, entry[1])
                taken.append(entry[0])
            else:
                if point[3] != point[2]:
                    self._point(point, point[2])
                taken.append(None)
        return taken

    def run(self, arrays: Sequence[np.ndarray]) -> List[np.ndarray]:
        """Inputs in model order -> output arrays the caller owns (on the twin, recycled only
        once dropped). Inputs that do not match the model exactly (count, dtype, shape, layout)
        take the checked paths, which convert what they can and otherwise raise ModelRunError
        naming the input."""
        if self._shared is not None and len(arrays) == len(self._shared.checks):
            results = self._run_shared(arrays)
            if results is not None:
                return results
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
            self._restore_buffers()  # a shared-memory run may have left buffers on caller memory
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
            self._restore_buffers()  # a shared-memory run may have left buffers on caller memory
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
            if getattr(self, "_shared", None) is not None:
                for pool, _ in self._shared.pools or ():
                    if pool is not None:
                        pool.clear()
                self._shared = None
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
