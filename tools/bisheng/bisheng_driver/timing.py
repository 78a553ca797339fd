"""`bisheng --time`: where a compile's wall time goes, one row per phase (stderr).

Phases are recorded by the code that runs them (`with PHASES.measure("host pass"):`); the
Python start-up row is the time from the process's start (from /proc) to the driver's entry,
so the table accounts for the interpreter too. Recording is always on: it costs a clock read.
"""

import os
import sys
import time
from contextlib import contextmanager

_ENTRY = time.monotonic()


def _process_age_at_entry() -> float:
    """Seconds from this process's start to the driver's import (None-safe: 0 if unknown)."""
    try:
        with open("/proc/self/stat", encoding="ascii") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        start_ticks = int(fields[19])  # field 22: starttime, clock ticks
        with open("/proc/uptime", encoding="ascii") as f:
            uptime = float(f.read().split()[0])
        age_now = uptime - start_ticks / os.sysconf("SC_CLK_TCK")
        return max(0.0, age_now - (time.monotonic() - _ENTRY))
    except (OSError, ValueError, IndexError):
        return 0.0


class Phases:
    def __init__(self) -> None:
        self.rows: list = []  # (phase, seconds), in the order they finished; a phase may repeat

    @contextmanager
    def measure(self, phase: str):
        start = time.monotonic()
        try:
            yield
        finally:
            self.rows.append((phase, time.monotonic() - start))

    def totals(self) -> dict:
        out: dict = {}
        for phase, seconds in self.rows:
            out[phase] = out.get(phase, 0.0) + seconds
        return out

    def report(self, stream=None) -> None:
        stream = stream or sys.stderr
        startup = _process_age_at_entry()
        rows = [("python start-up", startup)] + list(self.totals().items())
        wall = startup + (time.monotonic() - _ENTRY)
        rows.append(("other (driver)", max(0.0, wall - sum(s for _, s in rows))))
        width = max(len(p) for p, _ in rows + [("total", 0)])
        print(f"bisheng: time: {'phase':<{width}}  seconds   share", file=stream)
        for phase, seconds in rows:
            print(f"bisheng: time: {phase:<{width}}  {seconds:7.3f}  {100 * seconds / wall:5.1f}%", file=stream)
        print(f"bisheng: time: {'total':<{width}}  {wall:7.3f}  100.0%", file=stream)
        stream.flush()


PHASES = Phases()
