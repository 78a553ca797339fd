"""bazel run //ops/add_n_scaled_custom:online [--define soc=SoC] [-- run.py's options]

run.py (the three-backend graph) as a user runs it, in the clean CANN-like environment the tests
use, with both operator packages and the user's persistent kernel cache.
"""

import os
import sys
from pathlib import Path

from three_ops_env import three_ops_env


def main() -> None:
    home = os.environ.get("HOME", "/tmp")
    cache = Path(os.environ.get("ASCEND_TWIN_KERNEL_CACHE", Path(home) / ".cache" / "ascend-twin" / "kernels"))
    paths, env = three_ops_env(kernel_cache=cache, extra={"HOME": home})
    argv = [sys.executable, str(paths.package / "run.py"), "--soc", paths.soc, *sys.argv[1:]]
    os.execve(sys.executable, argv, env)


if __name__ == "__main__":
    main()
