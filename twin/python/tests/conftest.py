"""Shared fixtures: a clean custom-op world per test and a printed random seed."""

import os
import random
import sys
from pathlib import Path

import numpy as np
import pytest

# absolute(), not resolve(): under Bazel these files are runfiles symlinks and the runfiles tree
# (not the source tree behind the links) holds the declared data.
TESTS_DIR = Path(__file__).absolute().parent
PYTHON_ROOT = TESTS_DIR.parent
for path in (PYTHON_ROOT, TESTS_DIR):  # `import ge` and `import helpers`
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

PLATFORM_DIR = PYTHON_ROOT.parent / "platform"


@pytest.fixture(autouse=True)
def clean_custom_op_state(monkeypatch):
    from ge.custom_op import _bridge, proto, registry

    monkeypatch.delenv("ASCEND_CUSTOM_OPP_PATH", raising=False)
    monkeypatch.setenv("ASCEND_TWIN_PLATFORM_DIR", str(PLATFORM_DIR))
    yield
    _bridge.clear_op_impl_holders()
    _bridge.clear_loaded_op_impl_modules()
    registry.clear_registered_op_impls()
    proto.clear_registered_op_protos()
    from ge import _state

    _state.initialized, _state.global_options = False, {}


@pytest.fixture
def rng():
    seed = int(os.environ.get("GE_TEST_SEED", random.SystemRandom().randrange(2**31)))
    print(f"random seed: {seed} (rerun with GE_TEST_SEED={seed})")
    return np.random.default_rng(seed)
