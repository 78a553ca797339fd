"""Seed the kernel cache with a kernel built elsewhere, e.g. by Bazel's ascendc_kernel:

    python3 -m ascendc_jit.seed bazel-bin/ops/add_custom/add_custom_kernel.cache_key \\
        bazel-bin/ops/add_custom/add_custom_kernel.aicore.o [--cache DIR]

(with the install tree's python/site-packages on PYTHONPATH, as after set_env.sh). The entry is
filed under the report's `key`, the key bisheng gives the same kernel in a JIT build, so the
holder's first compile is a hit.
Default cache: $ASCEND_TWIN_KERNEL_CACHE, else ~/.cache/ascend-twin/kernels.
"""

import argparse
import sys
from pathlib import Path
from typing import List, Optional

from .kernel_cache import KernelCache, KernelCacheError
from .key_report import KeyReportError, read_key_report


def seed(cache: KernelCache, report_path: Path, binary_path: Path) -> Path:
    report = read_key_report(report_path)
    try:
        binary = Path(binary_path).read_bytes()
    except OSError as exc:
        raise KernelCacheError(f"cannot read prebuilt kernel {binary_path}: {exc.strerror}") from None
    return cache.add_prebuilt(report["key"], binary)


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m ascendc_jit.seed", description=__doc__.split("\n")[0])
    parser.add_argument("cache_key", type=Path, help="<name>.cache_key (bisheng --twin-cache-key report)")
    parser.add_argument("aicore", type=Path, help="<name>.aicore.o (the device binary)")
    parser.add_argument("--cache", type=Path, default=None, help="cache directory")
    args = parser.parse_args(argv)
    try:
        entry = seed(KernelCache(args.cache), args.cache_key, args.aicore)
    except (KeyReportError, KernelCacheError) as exc:
        print(f"seed: error: {exc}", file=sys.stderr)
        return 1
    print(f"seeded {entry}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
