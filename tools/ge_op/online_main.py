"""`bazel run //ops/<op>:online [-- run-script options]`, declared by ge_custom_op(run = ...).

Runs the operator's online script as a user would, in the clean CANN-like environment its tests
use (ge_op_testing.clean_env), with the user's persistent kernel cache and the build's SoC.
Arguments (from the macro): PACKAGE NAME PLUGIN_SUBDIR RUN_SCRIPT, then the user's.
"""

import os
import sys

import ge_op_testing as t


def main(argv) -> None:
    package, name, plugin_subdir, script, *rest = argv
    paths = t.op_paths(package, name, plugin_subdir)
    env = t.clean_env(paths, **t.user_run_settings())
    command = [sys.executable, str(paths.package / script), "--soc", paths.soc, *rest]
    os.execve(sys.executable, command, env)


if __name__ == "__main__":
    main(sys.argv[1:])
