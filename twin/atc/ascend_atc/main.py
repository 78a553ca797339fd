"""atc: the offline model compiler's command line (CANN's flags, messages and exit codes)."""

import sys
from typing import List, Optional

from . import console, flags
from .errors import AtcError, internal, printable
from .help_text import print_help

EXIT_FAILED = 255  # CANN's main returns FAILED (0xFFFFFFFF) -> exit status 255


def main(argv: Optional[List[str]] = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    try:
        options = flags.parse(args)
    except AtcError as exc:
        return _fail(exc, started=False)
    if options.help:
        print_help()
        return 0
    console.say(console.START_LINE)
    try:
        flags.validate(options)
        console.set_log_level(options.log_level)
        if options.mode == "6":
            from . import om_info

            om_info.run(options)
        else:
            from . import generate, isolated

            isolated.run(generate.run, options)
    except AtcError as exc:
        return _fail(exc, started=True)
    except SystemExit as exc:  # a plugin called sys.exit() while imported or compiling
        return _fail(internal(f"a plugin called sys.exit({exc.code!r}) during the compile"), started=True)
    except Exception as exc:  # anything unforeseen is still one E19999 line, never a traceback
        return _fail(internal(f"{type(exc).__name__}: {exc}"), started=True)
    console.say("...")
    console.say(console.SUCCESS_LINE)
    return 0


def _fail(error: AtcError, started: bool) -> int:
    if not started:
        console.say(console.START_LINE)
    console.say(console.FAILURE_LINE)
    console.say(printable(str(error)))
    return EXIT_FAILED


def entry() -> None:
    sys.exit(main())
