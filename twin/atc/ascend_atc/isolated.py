"""One compile in a child process, so a plugin that crashes the interpreter (SIGSEGV in native
code it loaded) or ends it early (``os._exit``) can neither take atc down without a message nor
make it report a success it did not have. The child reports on a pipe: "ok", or the AtcError
it raised; anything else (no report, a signal) is the parent's one E19999 line."""

import os
import signal
import sys

from .errors import AtcError, internal

_OK = b"ok"


def _report_of(job, args) -> bytes:
    try:
        job(*args)
        return _OK
    except AtcError as exc:
        error = exc
    except SystemExit as exc:  # a plugin called sys.exit() while imported or compiling
        error = internal(f"a plugin called sys.exit({exc.code!r}) during the compile")
    except BaseException as exc:  # anything unforeseen is still one E19999 line, never a traceback
        error = internal(f"{type(exc).__name__}: {exc}")
    return b"error\n" + error.code.encode() + b"\n" + error.message.encode("utf-8", "replace")


def run(job, *args) -> None:
    """Runs job(*args) in a forked child; raises the AtcError it raised, or one for its death."""
    sys.stdout.flush()
    sys.stderr.flush()
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns into the caller's stack
        os.close(read_fd)
        report = b"error\nE19999\nInternal Error! the compile process failed to report"
        try:
            report = _report_of(job, args)
        finally:
            try:
                sys.stdout.flush()
                sys.stderr.flush()
                os.write(write_fd, report)
            finally:
                os._exit(0)
    os.close(write_fd)
    with os.fdopen(read_fd, "rb") as pipe:
        report = pipe.read()
    _, status = os.waitpid(pid, 0)
    if report == _OK and os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0:
        return
    if report.startswith(b"error\n"):
        _, code, message = report.decode("utf-8", "replace").split("\n", 2)
        raise AtcError(code, message)
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        try:
            name = signal.Signals(number).name
        except ValueError:
            name = f"signal {number}"
        raise internal(
            f"the compile process was killed by {name} (signal {number}), most likely in a plugin "
            f"(ASCEND_CUSTOM_OPP_PATH) or native code it loaded; no OM was written"
        )
    raise internal(
        f"the compile process ended (exit status {os.WEXITSTATUS(status)}) before it finished, "
        f"most likely a plugin calling os._exit(); no OM was written"
    )
