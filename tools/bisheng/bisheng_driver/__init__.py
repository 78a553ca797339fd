"""bisheng (ascend-twin): a BiSheng-compatible compiler driver for the CPU twin
of the Ascend AI core. Entry point: main(argv, driver_path)."""

import re
import signal
import subprocess
import sys

from .errors import BishengError
from .timing import PHASES  # first: its clock starts the driver's share of --time

DRIVER_NAME = "bisheng"
TWIN_TAG = "ascend-twin"
TWIN_EXTENSIONS = ("--twin-cache-key=FILE", "--twin-soc=SOC", "--twin-cache-key-only", "--twin-aclrtlaunch-dir=DIR")


def _clang_version(clang: str) -> str:
    out = subprocess.run([clang, "--version"], capture_output=True, text=True).stdout
    m = re.search(r"clang version (\S+)", out)
    return m.group(1) if m else "unknown"


def _print_version() -> None:
    from .arch import known_arch_list
    from .toolchain import find_tools

    tools = find_tools()
    print(f"{DRIVER_NAME} ({TWIN_TAG}) based on clang {_clang_version(tools.clang)}")
    print("Target: x86_64 host (CPU twin of the Ascend AI core)")
    print(f"NPU architectures: {known_arch_list()}")
    print(f"Clang: {tools.clang}")
    # Advertises the twin-only options, so tools can tell this bisheng from CANN's without trying.
    print(f"Twin extensions: {' '.join(TWIN_EXTENSIONS)}")


def main(argv: list, driver_path: str) -> int:
    from .link import build
    from .options import parse_args
    from .toolchain import find_resource_dirs, find_tools

    # SIGTERM (e.g. a cancelled build) unwinds like an exception, so temporaries are removed.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    opts = None
    try:
        opts = parse_args(argv)
        if opts.show_version:
            _print_version()
            return 0
        tools = find_tools()
        res = find_resource_dirs(driver_path)
        if opts.verbose:
            print(f"{DRIVER_NAME} ({TWIN_TAG}) based on clang {_clang_version(tools.clang)}", file=sys.stderr)
            print(f"asc include: {res.asc_include}\nabi include: {res.abi_include}", file=sys.stderr)
        for note in dict.fromkeys(opts.notes):
            print(f"{DRIVER_NAME}: note: option '{note}' has no effect on the CPU twin (ignored)", file=sys.stderr)
        build(opts, tools, res)
        return 0
    except BishengError as e:
        print(f"{DRIVER_NAME}: error: {e}", file=sys.stderr)
        return e.status or 1
    except OSError as e:
        where = f": '{e.filename}'" if e.filename else ""
        print(f"{DRIVER_NAME}: error: {e.strerror or e}{where}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    finally:
        if opts is not None and opts.show_times:
            PHASES.report()
