"""bazel run //ops/add_n_scaled_custom:online [--define soc=SoC] [-- run.py's options]

run.py (the three-backend graph) as a user runs it, in the clean CANN-like environment the tests
use, with both operator packages and the user's persistent kernel cache.
"""

import os
import sys

import ge_op_testing as t
from three_ops_env import three_ops_env


def main() -> None:
    paths, env = three_ops_env(**t.user_run_settings())
    argv = [sys.executable, str(paths.package / "run.py"), "--soc", paths.soc, *sys.argv[1:]]
    os.execve(sys.executable, argv, env)


if __name__ == "__main__":
    main()
