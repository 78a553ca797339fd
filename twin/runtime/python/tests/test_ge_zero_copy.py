"""GE's Session backend (ge/_compiler/acl_runner.py) running a model zero-copy: large inputs
and outputs are registered with aclrtHostRegister for one execute instead of being copied, and
every registration is gone afterwards (also when the execute fails or a page is taken)."""

import importlib.util
import os

import numpy as np
import pytest

import acl
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


def load(n: int, alpha: float) -> acl_runner.LoadedModel:
    model = chain_model(n, alpha)
    return acl_runner.LoadedModel(om.serialize(model, [kernels()]), describe(model, ["add", "axpy"]))


def page_span(array: np.ndarray) -> tuple[int, int]:
    lo = array.ctypes.data & -PAGE
    return lo, ((array.ctypes.data + array.nbytes + PAGE - 1) & -PAGE) - lo


def assert_unregistered(*arrays: np.ndarray) -> None:
    """Registering an array's pages again succeeds only if the runner released them."""
    for array in arrays:
        lo, size = page_span(array)
        _, ret = acl.rt.host_register(lo, size, acl.ACL_HOST_REGISTER_MAPPED)
        assert ret == 0, acl.get_recent_err_msg()
        assert acl.rt.host_unregister(lo) == 0


class CountingRegister:
    """Counts the runner's aclrtHostRegister calls (and still makes them)."""

    def __init__(self, model: acl_runner.LoadedModel) -> None:
        self.real, self.calls = model._direct.host_register, 0
        model._direct.host_register = self

    def __call__(self, *args):
        self.calls += 1
        return self.real(*args)


@pytest.fixture()
def rng():
    return np.random.default_rng(SEED)


def expected(x, y, alpha):
    return np.float32(alpha) * (x + y) + x


@pytest.mark.skipif(os.environ.get(acl_runner.ACL_COPIES_ENV) == "1", reason="copies forced")
def test_large_tensors_run_in_place_and_are_released(rng):
    n = int(rng.integers(acl_runner.ZERO_COPY_MIN_BYTES // 4, 300_000))
    alpha = float(rng.uniform(-3, 3))
    print(f"n={n} alpha={alpha}")
    model = load(n, alpha)
    counter = CountingRegister(model)
    try:
        for _ in range(3):
            x = (rng.standard_normal(n) * 50).astype(np.float32)
            y = (rng.standard_normal(n) * 50).astype(np.float32)
            z, y_copy = model.run([x, y])
            np.testing.assert_allclose(z, expected(x, y, alpha), rtol=1e-6, atol=1e-5)
            np.testing.assert_array_equal(y_copy, y)
            assert_unregistered(x, y, z, y_copy)
        assert counter.calls >= 3  # the zero-copy path ran (inputs/outputs may share merged pages)
        # the same array twice: its pages are registered once and both inputs read it
        z, y_copy = model.run([x, x])
        np.testing.assert_allclose(z, expected(x, x, alpha), rtol=1e-6, atol=1e-5)
        np.testing.assert_array_equal(y_copy, x)
        assert_unregistered(x, z, y_copy)
    finally:
        model.close()


@pytest.mark.skipif(os.environ.get(acl_runner.ACL_COPIES_ENV) == "1", reason="copies forced")
def test_fallbacks_give_the_same_answers(rng):
    n = acl_runner.ZERO_COPY_MIN_BYTES // 4 * 2 + int(rng.integers(0, 1000))
    alpha = float(rng.uniform(-3, 3))
    model = load(n, alpha)
    counter = CountingRegister(model)
    try:
        x = (rng.standard_normal(n) * 50).astype(np.float32)
        y = (rng.standard_normal(2 * n) * 50).astype(np.float32)[::2]  # not contiguous: copied
        z, y_copy = model.run([x, y])
        np.testing.assert_allclose(z, expected(x, y, alpha), rtol=1e-6, atol=1e-5)
        np.testing.assert_array_equal(y_copy, y)
        assert counter.calls == 0
        y = np.ascontiguousarray(y)
        y.flags.writeable = False  # read-only memory is copied, not registered
        z, y_copy = model.run([x, y])
        np.testing.assert_allclose(z, expected(x, y, alpha), rtol=1e-6, atol=1e-5)
        np.testing.assert_array_equal(y_copy, y)
        assert counter.calls == 0
        # x's pages already registered by someone else: the refusal means copies, not an error
        y = y.copy()
        lo, size = page_span(x)
        _, ret = acl.rt.host_register(lo, size, acl.ACL_HOST_REGISTER_MAPPED)
        assert ret == 0
        try:
            z, y_copy = model.run([x, y])
        finally:
            assert acl.rt.host_unregister(lo) == 0
        assert counter.calls >= 1
        np.testing.assert_allclose(z, expected(x, y, alpha), rtol=1e-6, atol=1e-5)
        np.testing.assert_array_equal(y_copy, y)
        assert_unregistered(x, y)
    finally:
        model.close()


@pytest.mark.skipif(os.environ.get(acl_runner.ACL_COPIES_ENV) == "1", reason="copies forced")
def test_failed_execute_releases_registrations_and_buffers(rng):
    n = acl_runner.ZERO_COPY_MIN_BYTES // 4 + int(rng.integers(0, 1000))
    alpha = float(rng.uniform(-3, 3))
    model = load(n, alpha)
    try:
        x = (rng.standard_normal(n) * 50).astype(np.float32)
        y = (rng.standard_normal(n) * 50).astype(np.float32)
        real_execute = model._execute
        model._execute = lambda *args: 507000  # ACL_ERROR_RT_INTERNAL_ERROR from aclmdlExecute
        with pytest.raises(ModelRunError, match="aclmdlExecute of model chain failed with ACL error 507000"):
            model.run([x, y])
        assert_unregistered(x, y)
        model._execute = real_execute
        model._zero_copy = None  # the views path: the datasets point at the device buffers again
        z, y_copy = model.run([x, y])
        np.testing.assert_allclose(z, expected(x, y, alpha), rtol=1e-6, atol=1e-5)
        np.testing.assert_array_equal(y_copy, y)
    finally:
        model.close()


def test_small_models_keep_the_copy_paths(rng):
    n = int(rng.integers(1, acl_runner.ZERO_COPY_MIN_BYTES // 4))
    model = load(n, 1.5)
    try:
        assert model._zero_copy is None
        x = (rng.standard_normal(n) * 50).astype(np.float32)
        y = (rng.standard_normal(n) * 50).astype(np.float32)
        z, _ = model.run([x, y])
        np.testing.assert_allclose(z, expected(x, y, 1.5), rtol=1e-6, atol=1e-5)
    finally:
        model.close()
