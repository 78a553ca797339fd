"""GE's Session backend (ge/_compiler/acl_runner.py) on the twin's shared memory: large inputs are
read in place from the caller's arrays, registered once for their lifetime (acl.twin.HostArrays);
large outputs are written into pooled arrays that are reused only after the caller dropped them."""

import gc
import importlib.util
import os

import numpy as np
import pytest

import acl
from acl import _lib
from acl import twin
from ge._compiler import acl_runner
from ge._compiler.description import describe
from ge._compiler.errors import ModelRunError
from twin.om import om


def _pyacl_tests():
    """The pyACL tests' module (next to this file): its OM builder and kernels are reused."""
    spec = importlib.util.spec_from_file_location("test_acl_models", os.path.join(os.path.dirname(__file__),
                                                                                   "test_acl.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_models = _pyacl_tests()
chain_model, kernels = _models.chain_model, _models.kernels

SEED = int.from_bytes(os.urandom(4), "little")
print(f"seed={SEED}")
PAGE = 4096
copies_forced = pytest.mark.skipif(os.environ.get(acl_runner.ACL_COPIES_ENV) == "1", reason="copies forced")


def load(n: int, alpha: float) -> acl_runner.LoadedModel:
    model = chain_model(n, alpha)
    return acl_runner.LoadedModel(om.serialize(model, [kernels()]), describe(model, ["add", "axpy"]))


def large_n(rng) -> int:
    return acl_runner.ZERO_COPY_MIN_BYTES // 4 + int(rng.integers(0, 200_000))


def page_span(array: np.ndarray) -> tuple[int, int]:
    lo = array.ctypes.data & -PAGE
    return lo, ((array.ctypes.data + array.nbytes + PAGE - 1) & -PAGE) - lo


def registrable(array: np.ndarray) -> bool:
    """True when nobody holds a registration of the array's pages (registering them succeeds)."""
    lo, size = page_span(array)
    _, ret = acl.rt.host_register(lo, size, acl.ACL_HOST_REGISTER_MAPPED)
    if ret != 0:
        acl.get_recent_err_msg()
        return False
    assert acl.rt.host_unregister(lo) == 0
    return True


class CountingRegister:
    """Counts aclrtHostRegister calls made by acl.twin (and still makes them)."""

    def __init__(self, monkeypatch) -> None:
        self.real, self.calls = _lib.F["aclrtHostRegister"], 0
        monkeypatch.setitem(_lib.F, "aclrtHostRegister", self)

    def __call__(self, *args):
        self.calls += 1
        return self.real(*args)


@pytest.fixture()
def rng():
    return np.random.default_rng(SEED)


class Large:
    """A loaded chain model whose tensors take the shared-memory path."""

    def __init__(self, rng) -> None:
        self.n, self.alpha = large_n(rng), float(rng.uniform(-3, 3))
        print(f"n={self.n} alpha={self.alpha}")
        self.model = load(self.n, self.alpha)

    def check(self, x, y, z, y_copy=None) -> None:
        np.testing.assert_allclose(z, expected(x, y, self.alpha), rtol=1e-6, atol=1e-5)
        if y_copy is not None:
            np.testing.assert_array_equal(y_copy, y)


@pytest.fixture()
def large(rng):
    case = Large(rng)
    yield case
    case.model.close()


def expected(x, y, alpha):
    return np.float32(alpha) * (x + y) + x


def random(rng, n):
    return (rng.standard_normal(n) * 50).astype(np.float32)


@copies_forced
def test_inputs_are_registered_once_and_released_with_the_array(rng, large, monkeypatch):
    n, model = large.n, large.model
    counter = CountingRegister(monkeypatch)
    x, y = random(rng, n), random(rng, n)
    for _ in range(4):
        z, y_copy = model.run([x, y])
        large.check(x, y, z, y_copy)
        x[: n // 2] = random(rng, n // 2)  # the caller changes its array: the next run sees it
    # x, y and the two pooled outputs (the old z, y_copy are dropped as the loop rebinds them)
    assert counter.calls <= 6, counter.calls
    assert not registrable(x) and not registrable(y)
    lo_x, _ = page_span(x)
    del x, y, z, y_copy
    gc.collect()
    model.close()
    _, ret = acl.rt.host_register(lo_x, PAGE, acl.ACL_HOST_REGISTER_MAPPED)  # released: free again
    if ret == 0:
        assert acl.rt.host_unregister(lo_x) == 0
    assert twin.host_arrays.registered_bytes() == 0


@copies_forced
def test_outputs_the_caller_keeps_are_never_reused(rng, large):
    n, model = large.n, large.model
    kept = []
    for _ in range(acl_runner._OutputPool.MAX_ARRAYS + 2):  # beyond the pool: copied outputs
        x, y = random(rng, n), random(rng, n)
        z, y_copy = model.run([x, y])
        kept.append((x, y, z, y_copy))
    for x, y, z, y_copy in kept:
        large.check(x, y, z, y_copy)
    del kept
    # a view keeps its array taken, also once the array itself is dropped; then the pool reuses it
    x, y = random(rng, n), random(rng, n)
    z, _ = model.run([x, y])
    assert any(z is pooled for pool in model._pools for pooled in pool.arrays)  # z is a pooled array
    tail = z[n // 2:]
    del z
    for _ in range(acl_runner._OutputPool.MAX_ARRAYS + 1):
        z2, _ = model.run([random(rng, n), random(rng, n)])
        assert not np.shares_memory(z2, tail)
    np.testing.assert_allclose(tail, expected(x, y, large.alpha)[n // 2:], rtol=1e-6, atol=1e-5)
    # an input that is a view of a dropped output is not given the same memory as the output
    x2 = z2[:]
    del z2
    w, _ = model.run([x2, y])
    assert not np.shares_memory(w, x2)
    np.testing.assert_allclose(w, expected(x2, y, large.alpha), rtol=1e-6, atol=1e-5)
    del tail, w, x2
    z3, _ = model.run([x, y])  # everything dropped: a pooled array again
    assert any(z3 is pooled for pool in model._pools for pooled in pool.arrays)


@copies_forced
def test_the_same_array_twice(rng, large):
    n, model = large.n, large.model
    x = random(rng, n)
    z, y_copy = model.run([x, x])
    large.check(x, x, z, y_copy)
    # views of one array: the first registers its pages, the second straddles them and is copied
    big = random(rng, 2 * n + 8)
    a, b = big[:n], big[n + 8:]
    z, y_copy = model.run([a, b])
    large.check(a, b, z)


@copies_forced
def test_what_is_not_registered_is_copied(rng, large, tmp_path):
    n, model = large.n, large.model
    x = random(rng, n)
    model.run([x, x])  # x and the pooled outputs registered
    cases = {"not contiguous": random(rng, 2 * n)[::2]}
    read_only = random(rng, n)
    read_only.flags.writeable = False
    cases["read-only"] = read_only
    mapped = np.memmap(tmp_path / "y.bin", dtype=np.float32, mode="w+", shape=(n,))
    mapped[:] = random(rng, n)
    cases["file-backed"] = mapped
    cases["borrowed bytes"] = np.frombuffer(bytearray(random(rng, n).tobytes()), dtype=np.float32)
    for name, y in cases.items():
        z, y_copy = model.run([x, y])
        np.testing.assert_allclose(z, expected(x, y, large.alpha), rtol=1e-6, atol=1e-5, err_msg=name)
        np.testing.assert_array_equal(y_copy, y, err_msg=name)
        assert not twin.host_arrays.holds(y), name
    mapped.flush()
    assert np.array_equal(np.fromfile(tmp_path / "y.bin", dtype=np.float32), mapped)  # still the file's
    # pages someone else registered: the refusal means a copy, not an error
    y = random(rng, n)
    lo, size = page_span(y)
    _, ret = acl.rt.host_register(lo, size, acl.ACL_HOST_REGISTER_MAPPED)
    assert ret == 0
    try:
        z, y_copy = model.run([x, y])
        large.check(x, y, z)
    finally:
        assert acl.rt.host_unregister(lo) == 0
    assert not twin.host_arrays.holds(y)


@copies_forced
def test_a_failed_execute_is_an_error_and_the_next_run_works(rng, monkeypatch):
    """A real aclmdlExecute failure (an input buffer pointed at memory the device does not
    know) raises with the runtime's code and message; the next run works."""
    n = large_n(rng)
    x, y = random(rng, n), random(rng, n)
    stray = np.empty(n + PAGE, np.float32)  # never registered: not device-visible memory
    real_address = twin.host_arrays.address
    misplaced = [x]

    def address(array):
        if misplaced and array is misplaced[0]:
            return (stray.ctypes.data + PAGE - 1) & -PAGE
        return real_address(array)

    monkeypatch.setattr(twin.host_arrays, "address", address)
    model = load(n, 0.25)  # its shared-memory run resolves input addresses through `address`
    try:
        with pytest.raises(ModelRunError, match=r"aclmdlExecute of model chain failed with ACL error \d+: .*input 0"):
            model.run([x, y])
        misplaced.clear()
        z, y_copy = model.run([x, y])
        np.testing.assert_allclose(z, expected(x, y, 0.25), rtol=1e-6, atol=1e-5)
        # the copy paths after a shared-memory run: buffers point at the device memory again
        z, y_copy = model.run([x.reshape(1, n), y])  # not the model's shape: a checked path
        np.testing.assert_allclose(z, expected(x, y, 0.25), rtol=1e-6, atol=1e-5)
    finally:
        model.close()


def test_small_models_copy(rng, monkeypatch):
    n = int(rng.integers(1, acl_runner.ZERO_COPY_MIN_BYTES // 4))
    model = load(n, 1.5)
    counter = CountingRegister(monkeypatch)
    try:
        x, y = random(rng, n), random(rng, n)
        z, _ = model.run([x, y])
        np.testing.assert_allclose(z, expected(x, y, 1.5), rtol=1e-6, atol=1e-5)
        z2, _ = model.run([y, x])
        np.testing.assert_allclose(z, expected(x, y, 1.5), rtol=1e-6, atol=1e-5)  # z is the caller's
        np.testing.assert_allclose(z2, expected(y, x, 1.5), rtol=1e-6, atol=1e-5)
        assert counter.calls == 0
    finally:
        model.close()


@copies_forced
def test_small_model_run_takes_only_exact_inputs_and_reports_failures(rng):
    """The runner of a model whose tensors are all small (one C call, ge._compiler._shared_run):
    exact inputs are copied in, anything else goes to the checked paths, which convert or
    explain; a failing aclmdlExecute raises with its code."""
    from ge._compiler import _shared_run

    n = int(rng.integers(1, acl_runner.ZERO_COPY_MIN_BYTES // 4))
    model = load(n, -0.5)
    try:
        run = model.runner()
        assert isinstance(run, _shared_run.BoundRun)
        x, y = random(rng, n), random(rng, n)
        z, _ = run([x, y])
        np.testing.assert_allclose(z, expected(x, y, -0.5), rtol=1e-6, atol=1e-5)
        z2, _ = run([y, x])
        np.testing.assert_allclose(z, expected(x, y, -0.5), rtol=1e-6, atol=1e-5)  # z is the caller's
        np.testing.assert_allclose(z2, expected(y, x, -0.5), rtol=1e-6, atol=1e-5)
        read_only = x.copy()
        read_only.flags.writeable = False
        z, _ = run([read_only, y])
        np.testing.assert_allclose(z, expected(x, y, -0.5), rtol=1e-6, atol=1e-5)
        z, _ = run([x.reshape(1, n), y[::-1].copy()[::-1]])  # another shape, a strided view
        np.testing.assert_allclose(z, expected(x, y, -0.5), rtol=1e-6, atol=1e-5)
        z, _ = run((x, y))  # a tuple: the general run takes it as well
        np.testing.assert_allclose(z, expected(x, y, -0.5), rtol=1e-6, atol=1e-5)
        with pytest.raises(ModelRunError, match=r"input 0 \(x\) must be DT_FLOAT"):
            run([x.astype(np.float64), y])
        with pytest.raises(ModelRunError, match=r"input 0 \(x\) must be DT_FLOAT"):
            run([x.astype(">f4"), y])  # same shape and size, other byte order
        with pytest.raises(ModelRunError, match="takes 2 inputs, got 1"):
            run([x])
        with pytest.raises(TypeError, match="exactly one positional argument"):
            run([x, y], [x, y])
        # A real failure: the model unloaded behind the LoadedModel's back.
        assert acl.mdl.unload(model.model_id) == 0
        with pytest.raises(ModelRunError, match=r"aclmdlExecute of model chain failed with ACL error \d+"):
            run([x, y])
        model.model_id = None  # unloaded already; close() must not unload it twice
    finally:
        model.close()
    with pytest.raises(ModelRunError, match="unloaded"):
        run([x, y])


def test_a_dropped_model_is_released_at_once(rng):
    """The fast run the Session binds holds the model, the model does not hold it: dropping
    both frees the model (and its device memory) by reference counting, without waiting for
    the garbage collector."""
    import weakref

    gc.disable()
    try:
        model = load(int(rng.integers(1, acl_runner.ZERO_COPY_MIN_BYTES // 4)), 2.0)
        run = model.runner()
        gone = weakref.ref(model)
        del model, run
        assert gone() is None
    finally:
        gc.enable()


@copies_forced
def test_a_process_may_exit_with_arrays_still_registered(rng):
    """Registrations are released at interpreter exit, before numpy frees the arrays in an order
    nobody controls (a range outliving its memory crashed the runtime's teardown)."""
    import subprocess
    import sys
    import textwrap

    n = large_n(rng)
    script = textwrap.dedent(f"""
        import numpy as np, test_ge_zero_copy as t
        model = t.load({n}, 0.5)
        x = np.ones({n}, np.float32); y = np.arange({n}, dtype=np.float32)
        kept = [model.run([x, y]) for _ in range(3)]
        assert np.allclose(kept[-1][0], t.expected(x, y, 0.5))
        print("RAN")  # exits with the model loaded and its arrays registered
    """)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([os.path.dirname(__file__)] + sys.path))
    proc = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and "RAN" in proc.stdout, (proc.returncode, proc.stdout, proc.stderr)


@copies_forced
@pytest.mark.parametrize("size", ["small", "large"])
def test_threads_share_a_runner(rng, size):
    """The C run releases the GIL while the model executes and holds the model's lock from the
    input copies to the output copies: threads running one model each get their own results."""
    import threading

    n = int(rng.integers(1, acl_runner.ZERO_COPY_MIN_BYTES // 4)) if size == "small" else large_n(rng)
    model = load(n, 0.75)
    run = model.runner()
    failures = []

    def worker(seed: int) -> None:
        local = np.random.default_rng(seed)
        try:
            for _ in range(60):
                x, y = random(local, n), random(local, n)
                z, _ = run([x, y])
                np.testing.assert_allclose(z, expected(x, y, 0.75), rtol=1e-6, atol=1e-5)
        except Exception as exc:  # reported by the main thread
            failures.append(exc)

    threads = [threading.Thread(target=worker, args=(SEED + i,)) for i in range(3)]
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        model.close()
    assert not failures, failures[0]


@copies_forced
@pytest.mark.parametrize("inputs", [3, 40])  # 40: more input buffers than the C run keeps on its stack
def test_shared_run_copies_every_small_input_before_execute(rng, inputs):
    """SharedRun on its own, over plain numpy buffers: every input of the exact layout is copied
    into its view before aclmdlExecute runs (here the real one, of a model id nobody loaded,
    which fails: the copies are then in place and the failure raises through on_error);
    another layout is declined (None); after close() every call declines."""
    import threading

    from ge._compiler import _shared_run

    n = int(rng.integers(1, 512))
    views = [np.zeros(n, np.float32) for _ in range(inputs)]
    arrays = [random(rng, n) for _ in range(inputs)]
    failures = []

    def on_error(ret, what):
        failures.append((ret, what))
        raise ModelRunError(f"{what} failed with ACL error {ret}")

    direct = twin.DirectCalls()
    in_dataset, out_dataset = acl.mdl.create_dataset(), acl.mdl.create_dataset()
    run = _shared_run.SharedRun(
        lock=threading.Lock(), copy=np.ndarray.copy, array_type=np.ndarray, on_error=on_error,
        execute_what="aclmdlExecute of model none", execute=acl_runner._function_address(direct.execute),
        update_buffer=acl_runner._function_address(direct.update_buffer), model_id=0xFFFF,
        input_dataset=in_dataset, output_dataset=out_dataset, inputs=[(view, None, None) for view in views],
        outputs=[])
    try:
        with pytest.raises(ModelRunError, match="aclmdlExecute of model none failed"):
            run(arrays)
    finally:
        acl.mdl.destroy_dataset(in_dataset)
        acl.mdl.destroy_dataset(out_dataset)
    assert failures and failures[0][0] != 0
    acl.get_recent_err_msg()  # handled here
    for view, array in zip(views, arrays):
        np.testing.assert_array_equal(view, array)
    assert run(arrays[:-1]) is None                                   # one input short
    assert run(arrays[:-1] + [arrays[-1].astype(np.float64)]) is None  # another dtype
    assert run(tuple(arrays)) is None                                  # not a list
    run.close()
    assert run(arrays) is None
    with pytest.raises(TypeError, match="each plan entry is a tuple"):
        _shared_run.SharedRun(
            lock=threading.Lock(), copy=np.ndarray.copy, array_type=np.ndarray, on_error=on_error,
            execute_what="x", execute=1, update_buffer=1, model_id=0, input_dataset=1, output_dataset=1,
            inputs=[[views[0], None, None]], outputs=[])
