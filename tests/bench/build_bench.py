#!/usr/bin/env python3
"""Build-time benchmark: cold build, disk-cache build and no-op rebuild of //... .

It builds a fresh clone of HEAD (committed state, no bazel-* links, like CI) and each row uses
its own output base under a temp dir, so nothing is shared with the developer's Bazel server.
The clone has no user.bazelrc: the bootstrap's caches are not used. Prints a table; asserts
nothing.

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


def bazel(source: Path, output_base: Path, command: str, *args: str) -> float:
    start = time.monotonic()
    proc = subprocess.run(
        ["bazel", f"--output_base={output_base}", command, *args], cwd=source, capture_output=True, text=True
    )
    elapsed = time.monotonic() - start
    if proc.returncode != 0:
        raise SystemExit(f"bazel {command} {' '.join(args)} failed:\n{proc.stderr[-3000:]}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--targets",
        nargs="+",
        default=None,
        help="default: //... spelled per top-level folder (with a custom output base Bazel "
        "would otherwise descend into the bazel-<dir> link as packages)",
    )
    parser.add_argument("--runs", type=int, default=3, help="no-op rebuilds to take the median of")
    args = parser.parse_args()
    if args.targets is None:
        args.targets = ["//:all"] + sorted(
            f"//{d.name}/..."
            for d in WORKSPACE.iterdir()
            if d.is_dir() and not d.is_symlink() and not d.name.startswith((".", "bazel-"))
        )
    tmp = Path(tempfile.mkdtemp(prefix="build-bench-"))
    disk_cache = tmp / "disk-cache"
    rows = []
    source = tmp / "src"
    subprocess.run(["git", "clone", "-q", str(WORKSPACE), str(source)], check=True)
    # the pinned venv, as the bootstrap would write it (caches deliberately left out)
    venv = os.environ.get("ASCEND_TWIN_VENV", "/opt/ascend-twin-venv")
    (source / "user.bazelrc").write_text(f"common --repo_env=ASCEND_TWIN_VENV={venv}\n")
    try:
        cold_base = tmp / "cold"
        rows.append(
            (
                "cold build, empty disk cache (server start incl.)",
                bazel(source, cold_base, "build", f"--disk_cache={disk_cache}", *args.targets),
            )
        )
        noop = [
            bazel(source, cold_base, "build", f"--disk_cache={disk_cache}", *args.targets) for _ in range(args.runs)
        ]
        rows.append((f"no-op rebuild, warm server (median of {args.runs})", statistics.median(noop)))
        bazel(source, cold_base, "shutdown")
        warm_base = tmp / "warm"
        rows.append(
            (
                "fresh output base, warm disk cache (server start incl.)",
                bazel(source, warm_base, "build", f"--disk_cache={disk_cache}", *args.targets),
            )
        )
        bazel(source, warm_base, "shutdown")
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
