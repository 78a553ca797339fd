"""bazel run //ops/leaky_relu_custom:online [--define soc=SoC] [-- run.py's options]

run.py as a user runs it, in the clean CANN-like environment the tests use (ge_op_testing), with
the user's persistent kernel cache.
"""

import os
import sys
from pathlib import Path

import ge_op_testing as t


def main() -> None:
    paths = t.op_paths("ops/leaky_relu_custom", "leaky_relu_custom")
    home = os.environ.get("HOME", "/tmp")
    cache = Path(os.environ.get("ASCEND_TWIN_KERNEL_CACHE", Path(home) / ".cache" / "ascend-twin" / "kernels"))
    env = t.clean_env(paths, kernel_cache=cache, extra={"HOME": home})
    argv = [sys.executable, str(paths.package / "run.py"), "--soc", paths.soc, *sys.argv[1:]]
    os.execve(sys.executable, argv, env)


if __name__ == "__main__":
    main()
