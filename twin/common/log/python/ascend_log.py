"""The twin's logger for Python, with the rules of the C++ one (twin/common/log/log.h).

Same variables (ASCEND_PROCESS_LOG_PATH, ASCEND_WORK_PATH, ASCEND_GLOBAL_LOG_LEVEL,
ASCEND_MODULE_LOG_LEVEL, ASCEND_SLOG_PRINT_TO_STDOUT, ASCEND_GLOBAL_EVENT_ENABLE), same files
(debug/plog/plog-<pid>_<start stamp>.log, run/plog/... for events), same line:

    [ERROR] GE(1234,python3):2026-12-01-23:06:24.123.456 [session.py:88]1234 text

A process whose C++ libraries also log writes into the same file: the file is named by the
process's start time, which both sides read from /proc. Logging never raises: a file that cannot
be written sends the line to stderr (saying why once).
"""

from __future__ import annotations

import os
import sys
import threading
import time

DEBUG, INFO, WARNING, ERROR, EVENT = 0, 1, 2, 3, 16
_TAGS = {DEBUG: "DEBUG", INFO: "INFO", WARNING: "WARNING", ERROR: "ERROR", EVENT: "EVENT"}
_DEFAULT_THRESHOLD = ERROR

_lock = threading.Lock()
_self: dict = {}  # pid, name, stamp of this process (read again after a fork)
_told_fallback = False


def _level_value(text: str | None) -> int:
    """'0'..'4' exactly, else -1 (CANN: an invalid value means the default)."""
    if text is None or len(text) != 1 or text not in "01234":
        return -1
    return int(text)


def threshold_for(module: str) -> int:
    """ASCEND_MODULE_LOG_LEVEL's entry for `module`, else ASCEND_GLOBAL_LOG_LEVEL, else 3."""
    for entry in (os.environ.get("ASCEND_MODULE_LOG_LEVEL") or "").split(":"):
        name, eq, value = entry.partition("=")
        if eq and name == module:
            level = _level_value(value)
            if level >= 0:
                return level
            break
    level = _level_value(os.environ.get("ASCEND_GLOBAL_LOG_LEVEL"))
    return level if level >= 0 else _DEFAULT_THRESHOLD


def enabled(level: int, module: str) -> bool:
    if level == EVENT:
        return os.environ.get("ASCEND_GLOBAL_EVENT_ENABLE") != "0"
    threshold = threshold_for(module)
    return threshold < 4 and level >= threshold


def log_root() -> str:
    path = os.environ.get("ASCEND_PROCESS_LOG_PATH")
    if path:
        return path
    work = os.environ.get("ASCEND_WORK_PATH")
    if work:
        return work + "/log"
    return (os.environ.get("HOME") or os.path.expanduser("~") or "/tmp") + "/ascend/log"


def _read(path: str) -> str:
    try:
        with open(path, "rb") as f:
            return f.read().decode("utf-8", "replace")
    except OSError:
        return ""


def _stamp_of_ms(epoch_ms: int) -> str:
    local = time.localtime(epoch_ms // 1000)
    return time.strftime("%Y%m%d%H%M%S", local) + "%03d" % (epoch_ms % 1000)


def start_stamp_of(pid: int) -> str:
    """The process's start time as yyyymmddhhmmssmmm, computed exactly as the C++ side does."""
    stat = _read(f"/proc/{pid}/stat")
    close = stat.rfind(")")
    fields = stat[close + 1 :].split() if close >= 0 else []
    boot = 0
    for line in _read("/proc/stat").splitlines():
        if line.startswith("btime "):
            boot = int(line.split()[1])
    if len(fields) < 20:
        return ""
    ticks = int(fields[19])
    return _stamp_of_ms(boot * 1000 + ticks * 1000 // os.sysconf("SC_CLK_TCK"))


def _process() -> dict:
    pid = os.getpid()
    if _self.get("pid") != pid:
        name = _read("/proc/self/comm").rstrip("\r\n") or "unknown"
        stamp = start_stamp_of(pid) or _stamp_of_ms(int(time.time()) * 1000)
        _self.update(pid=pid, name=name, stamp=stamp)
    return _self


def plog_file_name() -> str:
    p = _process()
    return f"plog-{p['pid']}_{p['stamp']}.log"


MAX_MESSAGE_CHARS = 4096  # the C++ logger's kMaxMessageChars


def shorten(text: str, limit: int = MAX_MESSAGE_CHARS) -> str:
    """`text` if it has at most `limit` characters, else its head and tail and how much was
    left out between them."""
    if len(text) <= limit:
        return text
    head, tail = limit * 3 // 4, limit // 8
    return text[:head] + f" ...[{len(text) - head - tail} characters omitted]... " + text[-tail:]


def printable(text: str) -> str:
    """Control characters as \\xNN: a line stays one line and cannot drive a terminal. A text
    longer than MAX_MESSAGE_CHARS keeps its head and tail and says how much was left out."""
    text = shorten(text)
    return "".join(
        c if c.isprintable() or c == " " else "\\x%02x" % ord(c) if ord(c) < 0x100 else "\\u%04x" % ord(c) for c in text
    )


def _now() -> str:
    now = time.time()
    micros = int(now * 1_000_000) % 1_000_000
    return time.strftime("%Y-%m-%d-%H:%M:%S", time.localtime(now)) + ".%03d.%03d" % (micros // 1000, micros % 1000)


def format_line(level: int, module: str, file: str, line: int, message: str) -> str:
    p = _process()
    text = printable(message.rstrip("\n "))
    return (
        f"[{_TAGS.get(level, 'ERROR')}] {module}({p['pid']},{p['name']}):{_now()} "
        f"[{os.path.basename(file)}:{line}]{threading.get_native_id()} {text}\n"
    )


def _append(path: str, text: str) -> None:
    global _told_fallback
    data = text.encode("utf-8", "replace")
    try:
        os.makedirs(os.path.dirname(path), mode=0o750, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o640)
        try:
            os.write(fd, data)  # one write per line: no interleaving with other writers
        finally:
            os.close(fd)
        return
    except OSError as exc:
        cause = f"{exc.filename or path}: {exc.strerror or exc}"
    if not _told_fallback:
        _told_fallback = True
        sys.stderr.write(
            f"[WARNING] ascend-twin log: cannot write {cause}; log lines go to stderr "
            "(set ASCEND_PROCESS_LOG_PATH to a writable directory)\n"
        )
    sys.stderr.write(text)
    sys.stderr.flush()


def write(
    level: int, module: str, message: str, *, file: str | None = None, line: int | None = None, _depth: int = 1
) -> None:
    """Writes one line if `level` passes for `module`; file/line default to the caller's."""
    try:
        if not enabled(level, module):
            return
        if file is None or line is None:
            caller = sys._getframe(_depth)
            file, line = caller.f_code.co_filename, caller.f_lineno
        text = format_line(level, module, file, line, str(message))
        with _lock:
            if os.environ.get("ASCEND_SLOG_PRINT_TO_STDOUT") == "1":
                sys.stdout.write(text)
                sys.stdout.flush()
                return
            sub = "run/plog/" if level == EVENT else "debug/plog/"
            _append(log_root() + "/" + sub + plog_file_name(), text)
    except Exception:  # noqa: BLE001 - logging must never change what the caller does
        pass


def error(module: str, message: str) -> None:
    write(ERROR, module, message, _depth=2)


def warning(module: str, message: str) -> None:
    write(WARNING, module, message, _depth=2)


def info(module: str, message: str) -> None:
    write(INFO, module, message, _depth=2)


def debug(module: str, message: str) -> None:
    write(DEBUG, module, message, _depth=2)


def event(module: str, message: str) -> None:
    write(EVENT, module, message, _depth=2)
