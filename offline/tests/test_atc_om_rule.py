"""atc_om seeds atc's private kernel cache with the ascendc_kernel outputs of the same SoC, so the
holder's compile inside the atc action is a cache hit: each kernel is compiled once per build."""

import os
from pathlib import Path

LOG = Path(os.environ["RUNFILES_DIR"]) / "ascend_twin" / "ops" / "add_custom" / "add_custom_om.atc.log"


def test_atc_action_reuses_the_bazel_built_kernel():
    log = LOG.read_text()
    print(log)
    assert "ATC run success, welcome to the next use." in log
    assert "ADD_CUSTOM_KERNEL source=cache" in log
    assert "ascendc_jit: compiling" not in log and "source=bisheng" not in log
