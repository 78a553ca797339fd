"""bazel run //ops/add_custom:online [--define soc=SoC] [-- --sizes 1024,65536 --seed N]

The online flow (run.py) as a user runs it, in the clean CANN-like environment the tests use:
ASCEND_HOME_PATH is //twin:cann_home, ASCEND_CUSTOM_OPP_PATH the OPP root and the plugin dir,
the twin device is of the chosen SoC, and the kernel cache is the user's persistent one.
"""

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).absolute().parent / "tests"))
import harness  # noqa: E402  (the sample's environment builder, shared with the tests)


def main() -> None:
    paths = harness.sample_paths()
    home = os.environ.get("HOME", "/tmp")
    cache = Path(os.environ.get("ASCEND_TWIN_KERNEL_CACHE", Path(home) / ".cache" / "ascend-twin" / "kernels"))
    env = harness.clean_env(paths, kernel_cache=cache, extra={"HOME": home})
    argv = [sys.executable, str(paths.run_py), "--soc", paths.soc, *sys.argv[1:]]
    os.execve(sys.executable, argv, env)


if __name__ == "__main__":
    main()
