#!/usr/bin/env python3
"""Build-time benchmark: cold build, disk-cache build and no-op rebuild of //... .

Each row uses its own output base under a temp dir so nothing is shared with the developer's
Bazel server. Prints a table; asserts nothing.

    python3 tests/bench/build_bench.py [--targets //...] [--runs 3]
"""

import argparse
import os
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

WORKSPACE = Path(__file__).resolve().parents[2]


def bazel(output_base: Path, *args: str) -> float:
    start = time.monotonic()
    proc = subprocess.run(["bazel", f"--output_base={output_base}", *args], cwd=WORKSPACE,
                          capture_output=True, text=True)
    elapsed = time.monotonic() - start
    if proc.returncode != 0:
        raise SystemExit(f"bazel {' '.join(args)} failed:\n{proc.stderr[-3000:]}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--targets", nargs="+", default=["//..."])
    parser.add_argument("--runs", type=int, default=3, help="no-op rebuilds to take the median of")
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="build-bench-"))
    disk_cache = tmp / "disk-cache"
    rows = []
    try:
        cold_base = tmp / "cold"
        rows.append(("cold build, empty disk cache (server start incl.)",
                     bazel(cold_base, "build", f"--disk_cache={disk_cache}", *args.targets)))
        noop = [bazel(cold_base, "build", f"--disk_cache={disk_cache}", *args.targets)
                for _ in range(args.runs)]
        rows.append((f"no-op rebuild, warm server (median of {args.runs})", statistics.median(noop)))
        bazel(cold_base, "shutdown")
        warm_base = tmp / "warm"
        rows.append(("fresh output base, warm disk cache (server start incl.)",
                     bazel(warm_base, "build", f"--disk_cache={disk_cache}", *args.targets)))
        bazel(warm_base, "shutdown")
    finally:
        subprocess.run(["chmod", "-R", "u+w", str(tmp)], capture_output=True)
        shutil.rmtree(tmp, ignore_errors=True)
    cold = rows[0][1]
    print(f"targets: {' '.join(args.targets)}   cores: {os.cpu_count()}")
    print(f"| {'build':<56} | {'seconds':>8} | {'vs cold':>8} |")
    print(f"|{'-' * 58}|{'-' * 10}|{'-' * 10}|")
    for name, seconds in rows:
        print(f"| {name:<56} | {seconds:8.2f} | {seconds / cold:7.3f}x |")


if __name__ == "__main__":
    main()
