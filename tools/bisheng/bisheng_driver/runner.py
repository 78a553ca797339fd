"""How the driver runs its tools (clang, lld, llvm-objcopy ...): one runner for every pass."""

import shlex
import subprocess
import sys
import threading

from .errors import BishengError
from .timing import PHASES


class Run:
    """Runs tools, echoing each command under -v. A runner made with cancellable=True (the
    speculative device pass) can be cancelled: its running tool is killed, later ones fail."""

    def __init__(self, verbose: bool, cancellable: bool = False) -> None:
        self.verbose = verbose
        self.cancelled = threading.Event() if cancellable else None
        self._live: list = []  # the running tools (subprocess.Popen)

    def __call__(self, cmd: list, phase: str, **kwargs) -> subprocess.CompletedProcess:
        if self.verbose:
            print(" " + shlex.join(cmd), file=sys.stderr, flush=True)
        try:
            with PHASES.measure(phase):
                if self.cancelled is None:
                    return subprocess.run(cmd, **kwargs)
                if self.cancelled.is_set():
                    raise BishengError("cancelled")
                with subprocess.Popen(cmd, **kwargs) as proc:
                    self._live.append(proc)
                    out, err = proc.communicate()
                    self._live.remove(proc)
                return subprocess.CompletedProcess(cmd, proc.returncode, out, err)
        except OSError as e:
            raise BishengError(f"cannot run {cmd[0]}: {e.strerror}")

    def cancel(self) -> None:
        assert self.cancelled is not None, "cancel() of a runner made with cancellable=False"
        self.cancelled.set()
        for proc in list(self._live):
            proc.kill()
