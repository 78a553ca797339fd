"""acl.twin: what only the CPU twin's pyACL offers, under a name that says so.

CANN's pyACL has no ``acl.twin``: code that uses it imports it in a ``try`` and keeps a path for
real hardware. On the twin, device memory is host memory (shared with the device process at the
same address), which makes two things possible that CANN cannot do:

* ``DirectCalls``: the hot ACL entry points bound without ctypes' per-call argument conversion,
  for loops that pass pre-built ctypes objects (a model run costs a few microseconds; pyACL's
  Python wrappers would double it).
* ``HostArrays``: numpy arrays registered with ``aclrtHostRegister`` once, for as long as the array
  lives, so a kernel or model reads and writes them in place run after run. Registering moves an
  array's pages into the memory the device process shares (a copy, once); unregistering gives
  them private pages again. An array is unregistered when it is garbage-collected (before numpy
  frees its memory), or when the runtime is finalized or its device reset. Sharing is what the
  caller asks for: a kernel's stores reach a registered array (GE registers only the output
  arrays it pools, never a caller's input). In a fork() child every registered range has private
  pages (the runtime's fork handler), so neither process sees the other's stores.
"""

from __future__ import annotations

import atexit
import bisect
import ctypes
import threading
import weakref

import numpy as np

from acl import _lib

DEVICE_MEMORY_IS_HOST_MEMORY = True

_PAGE = 4096  # aclrtHostRegister takes page-aligned ranges
_ACL_HOST_REGISTER_MAPPED = 0
_ALIGNMENT = 16  # what numpy's allocator guarantees; kernels read GM in 32-byte blocks from here


class DirectCalls:
    """aclrtMemcpy, aclmdlExecute and aclUpdateDataBuffer with no argtypes: every argument must
    already be the exact ctypes object (c_void_p, c_size_t, c_int, c_uint32). Separate function
    objects from pyACL's own bindings (``CDLL[name]`` makes a new one), so neither affects the other."""

    def __init__(self) -> None:
        lib = _lib.LIB
        self.memcpy = lib["aclrtMemcpy"]
        self.execute = lib["aclmdlExecute"]
        self.update_buffer = lib["aclUpdateDataBuffer"]
        for function in (self.memcpy, self.execute, self.update_buffer):
            function.restype = ctypes.c_int
            function.argtypes = None  # type: ignore[assignment]  # None: no conversion; the stubs allow only a sequence
        self.h2d = ctypes.c_int(1)  # ACL_MEMCPY_HOST_TO_DEVICE
        self.d2h = ctypes.c_int(2)  # ACL_MEMCPY_DEVICE_TO_HOST


def _numpy_owned(array: np.ndarray) -> bool:
    """True when the array's memory was allocated by numpy (anonymous heap memory). Memory numpy
    borrowed (a file mapping, bytes, a ctypes buffer) is never registered: moving a file-backed
    page into shared memory would detach it from its file."""
    base = array
    while isinstance(base.base, np.ndarray):
        base = base.base
    return base.base is None and base.flags.owndata


class HostArrays:
    """Registered host arrays of one process (the registrations of every device of the runtime).

    ``address(array)`` is the device-visible address of a qualifying array (C-contiguous,
    writeable, numpy-owned, 16-byte aligned), registering it on first sight; ``None`` when it does
    not qualify or the runtime refuses (the caller then copies). Registrations are page ranges
    with holder counts: an array inside a range already registered (a view of a registered array)
    holds that range; an array whose pages straddle a registered range (a neighbour on numpy's
    heap sharing a page) is not registered."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._starts: list[int] = []  # sorted starts of registered page ranges
        self._ranges: dict[int, list[int]] = {}  # start -> [end, holders]
        self._arrays: dict[int, tuple] = {}  # id(array) -> (weakref, address, range starts)
        self._refused: dict[int, weakref.ref] = {}  # arrays the runtime refused: not tried again
        self._closed = False

    def address(self, array: np.ndarray) -> int | None:
        entry = self._arrays.get(id(array))
        if entry is not None and entry[0]() is array:
            return entry[1]
        refused = self._refused.get(id(array))
        if refused is not None and refused() is array:
            return None
        interface = array.__array_interface__
        address, read_only = interface["data"]
        if (
            read_only
            or address % _ALIGNMENT
            or not array.flags.c_contiguous
            or array.nbytes == 0
            or not _numpy_owned(array)
        ):
            return None
        with self._lock:
            if self._closed:
                return None
            starts = self._cover(address & -_PAGE, (address + array.nbytes + _PAGE - 1) & -_PAGE)
            key = id(array)
            if starts is None:
                self._refused[key] = weakref.ref(array, lambda _, key=key: self._refused.pop(key, None))  # type: ignore[misc]  # key bound per array
                return None
            self._arrays[key] = (weakref.ref(array, lambda _, key=key: self._release(key)), address, starts)  # type: ignore[misc]  # key bound per array
        return address

    def padded_empty(self, shape, dtype) -> np.ndarray:
        """np.empty whose pages belong to it alone (page-aligned, padded to whole pages), so its
        registration never meets a neighbour's: what a pool of arrays the twin owns should use."""
        dtype = np.dtype(dtype)
        nbytes = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
        span = (nbytes + _PAGE - 1) & -_PAGE
        block = np.empty(span + _PAGE, dtype=np.uint8)
        offset = -block.__array_interface__["data"][0] % _PAGE
        return block[offset : offset + nbytes].view(dtype).reshape(shape)

    def holds(self, array: np.ndarray) -> bool:
        """True while `array` (this very object) is registered by this registry."""
        entry = self._arrays.get(id(array))
        return entry is not None and entry[0]() is array

    def registered_bytes(self) -> int:
        with self._lock:
            return sum(end - start for start, (end, _) in self._ranges.items())

    def release_all(self) -> None:
        """Unregisters every range (pages become private again, contents kept) and registers
        nothing more. Runs at interpreter exit, while the arrays still exist: afterwards numpy
        frees them in an order nobody controls, and a range must not outlive its memory."""
        with self._lock:
            self._closed = True
            for start in self._starts:
                _lib.F["aclrtHostUnregister"](start)
            self._starts, self._ranges, self._arrays, self._refused = [], {}, {}, {}

    def forget_all(self) -> None:
        """The runtime dropped every registration (aclFinalize / aclrtResetDevice)."""
        with self._lock:
            self._starts, self._ranges, self._arrays, self._refused = [], {}, {}, {}

    def _cover(self, lo: int, hi: int) -> list[int] | None:
        """Holds [lo, hi): one registration must contain a tensor (the runtime checks a buffer
        against one range), so the pages are either inside a range already held, or registered
        as a new one. None (nothing held) when they straddle ranges or the runtime refuses."""
        i = bisect.bisect_right(self._starts, hi - 1) - 1  # the last range starting below hi
        if i >= 0:
            start = self._starts[i]
            end = self._ranges[start][0]
            if end > lo:  # overlaps
                if start > lo or end < hi or (i > 0 and self._ranges[self._starts[i - 1]][0] > lo):
                    return None
                self._ranges[start][1] += 1
                return [start]
        device = ctypes.c_void_p()
        ret = _lib.F["aclrtHostRegister"](lo, hi - lo, _ACL_HOST_REGISTER_MAPPED, ctypes.byref(device))
        if ret != 0 or device.value != lo:
            _lib.F["aclGetRecentErrMsg"]()  # handled (the caller copies instead), not reported
            if ret == 0:
                _lib.F["aclrtHostUnregister"](lo)
            return None
        bisect.insort(self._starts, lo)
        self._ranges[lo] = [hi, 1]
        return [lo]

    def _release(self, key: int) -> None:
        with self._lock:
            entry = self._arrays.pop(key, None)
            if entry is None:
                return
            for start in entry[2]:
                record = self._ranges.get(start)
                if record is None:
                    continue
                record[1] -= 1
                if record[1] == 0:
                    del self._ranges[start]
                    self._starts.pop(bisect.bisect_left(self._starts, start))
                    # may fail after aclFinalize; the runtime then has dropped it already
                    _lib.F["aclrtHostUnregister"](start)


host_arrays = HostArrays()
atexit.register(host_arrays.release_all)
