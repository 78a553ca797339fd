"""ATC's console conventions (reference §7) and its log levels.

stdout carries ATC's own lines (start, result, error codes) and whatever plugins print; the
detail log goes to stderr at the level chosen by --log (CANN's slog; ``null`` prints nothing).
"""

import os
import sys
import time

START_LINE = "ATC start working now, please wait for a moment."
SUCCESS_LINE = "ATC run success, welcome to the next use."
FAILURE_LINE = "ATC run failed, Please check the detail log, Try 'atc --help' for more information"

_LEVELS = {"debug": 0, "info": 1, "warning": 2, "error": 3, "null": 99}
_NAMES = {0: "DEBUG", 1: "INFO", 2: "WARNING", 3: "ERROR"}
_threshold = _LEVELS["null"]


def set_log_level(level: str) -> None:
    global _threshold
    _threshold = _LEVELS[level]


def log(level: str, message: str) -> None:
    value = _LEVELS[level]
    if value < _threshold:
        return
    stamp = time.strftime("%Y-%m-%d-%H:%M:%S")
    sys.stderr.write(f"[{_NAMES[value]}] ATC({os.getpid()},atc):{stamp} {message}\n")
    sys.stderr.flush()


def say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()
