"""GE's Session backend (ge/_compiler/acl_runner.py) on the twin's shared memory: inputs are always
copied into the model's device buffers (a kernel that writes its input slot never reaches the
caller's array, as on an NPU); large outputs are written into pooled arrays (acl.twin.HostArrays)
that are reused only after the caller dropped them, and stay private to each process across
fork()."""

import gc
import importlib.util
import os

import numpy as np
import pytest

import acl
from acl import _lib, twin
from ge._compiler import acl_runner
from ge._compiler.description import describe
from ge._compiler.errors import ModelRunError
from twin.om import om, om_pb2


def _pyacl_tests():
    """The pyACL tests' module (next to this file): its OM builder and kernels are reused."""
    spec = importlib.util.spec_from_file_location(
        "test_acl_models", os.path.join(os.path.dirname(__file__), "test_acl.py")
    )
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
def test_inputs_are_copied_never_registered(rng, large, monkeypatch):
    n, model = large.n, large.model
    counter = CountingRegister(monkeypatch)
    x, y = random(rng, n), random(rng, n)
    for _ in range(4):
        z, y_copy = model.run([x, y])
        large.check(x, y, z, y_copy)
        x[: n // 2] = random(rng, n // 2)  # the caller changes its array: the next run sees it
    assert counter.calls <= 2 * acl_runner._OutputPool.MAX_ARRAYS, counter.calls  # pooled outputs only
    assert registrable(x) and registrable(y)  # nobody holds the inputs' pages
    assert not twin.host_arrays.holds(x) and not twin.host_arrays.holds(y)
    del z, y_copy
    gc.collect()
    model.close()
    assert twin.host_arrays.registered_bytes() == 0


def inplace_model(n: int):
    """out = x + y computed by a kernel that writes its result into its INPUT slot x (then copied
    to the output): the user-visible case of a kernel writing the buffer it was given as input."""
    m = om_pb2.ModelDef(format_version=1, name="inplace", soc_version="Ascend910B1", npu_arch=2201)
    for name in ("x", "y"):
        m.inputs.add(name=name, data_type=0, dims=[n], size=4 * n, format=2)
    m.outputs.add(name="out", data_type=0, dims=[n], size=4 * n, format=2)
    add = m.tasks.add().kernel
    add.node_name, add.op_type, add.kernel_name, add.block_dim = "add", "Add", "vadd_f32", 4
    add.args.add(input=0)
    add.args.add(input=1)
    add.args.add(input=0)  # z = x: the kernel stores into its input buffer
    add.args.add(scalar=n)
    copy = m.tasks.add().memcpy
    copy.src.input, copy.dst.output, copy.size = 0, 0, 4 * n
    return m


@pytest.mark.parametrize("size", ["small", "large"])
def test_a_kernel_writing_its_input_slot_leaves_the_callers_array(rng, size):
    """What Session.run_graph binds (LoadedModel.runner()) and the checked run: the caller's
    input arrays are what they were, the output is x + y."""
    n = int(rng.integers(1, acl_runner.ZERO_COPY_MIN_BYTES // 4)) if size == "small" else large_n(rng)
    model_def = inplace_model(n)
    model = acl_runner.LoadedModel(om.serialize(model_def, [kernels()]), describe(model_def, ["add"]))
    try:
        for run in (model.runner(), model.run):
            x, y = random(rng, n), random(rng, n)
            x_before, y_before = x.copy(), y.copy()
            for _ in range(3):  # a second run must not see the first run's store either
                (out,) = run([x, y])
                np.testing.assert_array_equal(x, x_before)
                np.testing.assert_array_equal(y, y_before)
                np.testing.assert_allclose(out, x_before + y_before, rtol=1e-6)
    finally:
        model.close()


def test_a_pyacl_program_keeps_its_host_arrays(rng):
    """The ordinary pyACL program (device buffers, copies in, aclmdlExecute, copy out) with the
    kernel that writes its input slot: the host arrays it copied from are unchanged."""
    n = large_n(rng)
    model_def = inplace_model(n)
    blob = om.serialize(model_def, [kernels()])
    model_id, ret = acl.mdl.load_from_mem(acl.util.bytes_to_ptr(blob), len(blob))
    assert ret == 0, acl.get_recent_err_msg()
    x, y = random(rng, n), random(rng, n)
    x_before, y_before = x.copy(), y.copy()
    buffers, datasets = [], []
    try:
        for arrays in ((x, y), (np.empty_like(x),)):
            dataset = acl.mdl.create_dataset()
            datasets.append(dataset)
            for array in arrays:
                dev, ret = acl.rt.malloc(array.nbytes, 2)
                assert ret == 0
                buffers.append((dev, acl.create_data_buffer(dev, array.nbytes)))
                _, ret = acl.mdl.add_dataset_buffer(dataset, buffers[-1][1])
                assert ret == 0
        for (dev, _), array in zip(buffers, (x, y)):
            assert acl.rt.memcpy(dev, array.nbytes, acl.util.numpy_to_ptr(array), array.nbytes, 1) == 0
        assert acl.mdl.execute(model_id, datasets[0], datasets[1]) == 0, acl.get_recent_err_msg()
        out = np.empty_like(x)
        assert acl.rt.memcpy(acl.util.numpy_to_ptr(out), out.nbytes, buffers[2][0], out.nbytes, 2) == 0
        np.testing.assert_array_equal(x, x_before)
        np.testing.assert_array_equal(y, y_before)
        np.testing.assert_allclose(out, x_before + y_before, rtol=1e-6)
    finally:
        for dev, buffer in buffers:
            acl.destroy_data_buffer(buffer)
            acl.rt.free(dev)
        for dataset in datasets:
            acl.mdl.destroy_dataset(dataset)
        acl.mdl.unload(model_id)


@copies_forced
def test_fork_child_writes_never_reach_the_parents_arrays(rng, large):
    """After os.fork() the child writes the input it passed and the (pooled, registered) output it
    got back; the parent's arrays are unchanged, and the child never sees the parent's later
    stores. ACL calls in the child are refused in one line (ModelRunError from a run)."""
    n, model = large.n, large.model
    x, y = random(rng, n), random(rng, n)
    z, y_copy = model.run([x, y])
    assert any(z is pooled for pool in model._pools for pooled in pool.arrays)  # shared with the device
    x_before, z_before = x.copy(), z.copy()
    to_child, to_parent = os.pipe(), os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: report through the exit status only
        status = 1
        try:
            x[:] = -1.0
            z[:] = -2.0
            os.write(to_parent[1], b"w")
            os.read(to_child[0], 1)
            ok = bool(np.all(z == -2.0)) and bool(np.all(x == -1.0))  # its own stores, not the parent's
            try:
                model.run([x, y])
                ok = False
            except ModelRunError as exc:
                text = str(exc)
                ok = ok and "fork() child" in text and "\n" not in text
            status = 0 if ok else 2
        finally:
            os._exit(status)
    os.read(to_parent[0], 1)
    np.testing.assert_array_equal(x, x_before)
    np.testing.assert_array_equal(z, z_before)
    z[:] = 7.0  # the parent's own store, after the child's: the child must not see it
    x[:] = 8.0
    os.write(to_child[1], b"g")
    _, status = os.waitpid(pid, 0)
    for fd in (*to_child, *to_parent):
        os.close(fd)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, status
    # the parent's runtime is unaffected
    x2 = random(rng, n)
    z2, y_copy2 = model.run([x2, y])
    large.check(x2, y, z2, y_copy2)


def test_shared_run_refuses_an_input_point():
    """Inputs are never read in place: a plan that asks for it is refused in one line."""
    import threading

    from ge._compiler import _shared_run

    view = np.zeros(8, np.float32)
    with pytest.raises(
        ValueError,
        match=r"^SharedRun: input 0: inputs are always copied \(a kernel may write its "
        r"input buffer\), so an input takes no point or resolver$",
    ):
        _shared_run.SharedRun(
            lock=threading.Lock(),
            copy=np.ndarray.copy,
            array_type=np.ndarray,
            on_error=None,
            execute_what="x",
            execute=1,
            update_buffer=1,
            model_id=0,
            input_dataset=1,
            output_dataset=1,
            inputs=[(view, (1, 32, 1), len)],
            outputs=[],
        )


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
    tail = z[n // 2 :]
    del z
    for _ in range(acl_runner._OutputPool.MAX_ARRAYS + 1):
        z2, _ = model.run([random(rng, n), random(rng, n)])
        assert not np.shares_memory(z2, tail)
    np.testing.assert_allclose(tail, expected(x, y, large.alpha)[n // 2 :], rtol=1e-6, atol=1e-5)
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
    a, b = big[:n], big[n + 8 :]
    z, y_copy = model.run([a, b])
    large.check(a, b, z)


@copies_forced
def test_what_is_not_registered_is_copied(rng, large, tmp_path):
    n, model = large.n, large.model
    x = random(rng, n)
    model.run([x, x])  # the pooled outputs registered
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
    """A real aclmdlExecute failure (an output buffer pointed at memory the device does not
    know) raises with the runtime's code and message; a checked run afterwards works (it points
    the datasets back at the model's device memory)."""
    n = large_n(rng)
    x, y = random(rng, n), random(rng, n)
    stray = np.empty(n + PAGE, np.float32)  # never registered: not device-visible memory
    real_address = twin.host_arrays.address
    misplaced = [True]

    def address(array):
        if misplaced:  # the first pooled output array
            misplaced.clear()
            return (stray.ctypes.data + PAGE - 1) & -PAGE
        return real_address(array)

    monkeypatch.setattr(twin.host_arrays, "address", address)
    model = load(n, 0.25)  # its output pools register through `address`
    try:
        with pytest.raises(ModelRunError, match=r"aclmdlExecute of model chain failed with ACL error \d+: "):
            model.run([x, y])
        z, y_copy = model.run([x.reshape(1, n), y])  # not the model's shape: a checked path
        np.testing.assert_allclose(z, expected(x, y, 0.25), rtol=1e-6, atol=1e-5)
        np.testing.assert_array_equal(y_copy, y)
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
        lock=threading.Lock(),
        copy=np.ndarray.copy,
        array_type=np.ndarray,
        on_error=on_error,
        execute_what="aclmdlExecute of model none",
        execute=acl_runner._function_address(direct.execute),
        update_buffer=acl_runner._function_address(direct.update_buffer),
        model_id=0xFFFF,
        input_dataset=in_dataset,
        output_dataset=out_dataset,
        inputs=[(view, None, None) for view in views],
        outputs=[],
    )
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
    assert run(arrays[:-1]) is None  # one input short
    assert run(arrays[:-1] + [arrays[-1].astype(np.float64)]) is None  # another dtype
    assert run(tuple(arrays)) is None  # not a list
    run.close()
    assert run(arrays) is None
    with pytest.raises(TypeError, match="each plan entry is a tuple"):
        _shared_run.SharedRun(
            lock=threading.Lock(),
            copy=np.ndarray.copy,
            array_type=np.ndarray,
            on_error=on_error,
            execute_what="x",
            execute=1,
            update_buffer=1,
            model_id=0,
            input_dataset=1,
            output_dataset=1,
            inputs=[[views[0], None, None]],
            outputs=[],
        )
