"""The host tiling the Matmul tests' kernels take: matmul_tiling_tool (the host library's
MultiCoreMatmulTiling for Ascend910B1) run with a shape, dtypes and options, its TCubeTiling
as int32 words. Env: MATMUL_TILING_TOOL, ASCEND_TWIN_PLATFORM_DIR."""

from __future__ import annotations

import os
import subprocess

import numpy as np

FIELDS = (
    "usedCoreNum M N Ka Kb singleCoreM singleCoreN singleCoreK baseM baseN baseK depthA1 depthB1 stepM stepN "
    "isBias transLength iterateOrder shareMode shareL1Size shareL0CSize shareUbSize batchM batchN singleBatchM "
    "singleBatchN stepKa stepKb depthAL1CacheUB depthBL1CacheUB dbL0A dbL0B dbL0C"
).split()


def tiling(m, n, k, dim, atype, ctype, trans_a=False, trans_b=False, bias=False, fix=None) -> np.ndarray:
    tool = os.environ["MATMUL_TILING_TOOL"]
    args = [tool, "Ascend910B1", m, n, k, dim, atype, ctype, int(trans_a), int(trans_b), int(bias)]
    args += list(fix or [])
    out = subprocess.run([str(a) for a in args], check=True, capture_output=True, text=True).stdout
    words = np.array(out.split(), dtype=np.int32)
    assert words.size == 50
    return words
