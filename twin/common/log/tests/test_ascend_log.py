"""ascend_log (Python) follows the C++ logger's rules: same variables, same file, same line format.
The C++ side is liblog_writer.so (the C++ logger behind one C function), loaded into this process."""

import ctypes
import os
import random
import re
import sys

import pytest

import ascend_log

VARS = (
    "ASCEND_PROCESS_LOG_PATH",
    "ASCEND_WORK_PATH",
    "ASCEND_GLOBAL_LOG_LEVEL",
    "ASCEND_MODULE_LOG_LEVEL",
    "ASCEND_SLOG_PRINT_TO_STDOUT",
    "ASCEND_GLOBAL_EVENT_ENABLE",
)
LINE = re.compile(
    r"\[(ERROR|WARNING|INFO|DEBUG|EVENT)\] (\w+)\((\d+),([^)]+)\):"
    r"\d{4}-\d\d-\d\d-\d\d:\d\d:\d\d\.\d{3}\.\d{3} \[([\w.]+):(\d+)\](\d+) (.*)"
)


@pytest.fixture(autouse=True)
def log_root(tmp_path, monkeypatch):
    for var in VARS:
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("ASCEND_PROCESS_LOG_PATH", str(tmp_path))
    return tmp_path


@pytest.fixture(scope="module")
def cxx():
    lib = ctypes.CDLL(os.path.abspath(os.environ["LOG_WRITER"]))
    lib.twin_log_write.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_char_p]
    lib.twin_log_plog_name.restype = ctypes.c_char_p
    return lib


def debug_file(root):
    return root / "debug" / "plog" / ascend_log.plog_file_name()


def test_python_and_cxx_write_one_file_in_one_format(log_root, cxx):
    assert cxx.twin_log_plog_name().decode() == ascend_log.plog_file_name()
    ascend_log.error("GE", "from python")
    cxx.twin_log_write(3, b"ASCENDCL", b"from c++")
    lines = debug_file(log_root).read_text().splitlines()
    assert len(lines) == 2
    py, cc = (LINE.fullmatch(line) for line in lines)
    assert py and cc, lines
    assert py.group(1, 2, 5, 8) == ("ERROR", "GE", "test_ascend_log.py", "from python")
    assert cc.group(1, 2, 5, 8) == ("ERROR", "ASCENDCL", "log_writer.cc", "from c++")
    assert py.group(3) == cc.group(3) == str(os.getpid())
    assert py.group(4) == cc.group(4)  # the process name
    assert py.group(7) == cc.group(7) == str(__import__("threading").get_native_id())


@pytest.mark.parametrize("value, written", [("0", 4), ("1", 3), ("2", 2), ("3", 1), ("4", 0), ("9", 1), ("", 1)])
def test_global_level_filters_as_in_cxx(log_root, monkeypatch, cxx, value, written):
    monkeypatch.setenv("ASCEND_GLOBAL_LOG_LEVEL", value)
    for level in (ascend_log.DEBUG, ascend_log.INFO, ascend_log.WARNING, ascend_log.ERROR):
        ascend_log.write(level, "GE", "py")
        cxx.twin_log_write(level, b"GE", b"cc")
    path = debug_file(log_root)
    lines = path.read_text().splitlines() if path.exists() else []
    assert [line.endswith(" py") for line in lines].count(True) == written
    assert [line.endswith(" cc") for line in lines].count(True) == written
    if written == 0:
        assert not (log_root / "debug").exists(), "nothing logged: no directory, no file"


def test_module_level_and_events(log_root, monkeypatch):
    monkeypatch.setenv("ASCEND_MODULE_LOG_LEVEL", "GE=0:RUNTIME=4")
    assert ascend_log.enabled(ascend_log.DEBUG, "GE")
    assert not ascend_log.enabled(ascend_log.ERROR, "RUNTIME")
    assert not ascend_log.enabled(ascend_log.INFO, "ASCENDCL")
    ascend_log.event("GE", "an event")
    run = log_root / "run" / "plog" / ascend_log.plog_file_name()
    assert run.read_text().startswith("[EVENT] GE(")
    monkeypatch.setenv("ASCEND_GLOBAL_EVENT_ENABLE", "0")
    ascend_log.event("GE", "not written")
    assert len(run.read_text().splitlines()) == 1


def test_path_priority(log_root, monkeypatch):
    monkeypatch.delenv("ASCEND_PROCESS_LOG_PATH")
    monkeypatch.setenv("HOME", str(log_root / "home"))
    assert ascend_log.log_root() == str(log_root / "home") + "/ascend/log"
    monkeypatch.setenv("ASCEND_WORK_PATH", str(log_root / "work"))
    assert ascend_log.log_root() == str(log_root / "work") + "/log"
    monkeypatch.setenv("ASCEND_PROCESS_LOG_PATH", str(log_root / "p"))
    assert ascend_log.log_root() == str(log_root / "p")


def test_stdout_mode(log_root, monkeypatch, capsys):
    monkeypatch.setenv("ASCEND_SLOG_PRINT_TO_STDOUT", "1")
    monkeypatch.setenv("ASCEND_GLOBAL_LOG_LEVEL", "2")
    ascend_log.warning("GE", "on the screen")
    out = capsys.readouterr().out
    assert LINE.fullmatch(out.rstrip("\n")).group(1, 8) == ("WARNING", "on the screen")
    assert not (log_root / "debug").exists()


def test_unwritable_root_goes_to_stderr_and_never_raises(monkeypatch, capsys):
    monkeypatch.setenv("ASCEND_PROCESS_LOG_PATH", "/proc/self/no_such_dir")
    ascend_log.error("GE", "still seen")
    err = capsys.readouterr().err
    assert "still seen" in err


def test_random_messages_stay_one_line(log_root):
    seed = random.randrange(1 << 30)
    print("seed", seed)
    rng = random.Random(seed)
    message = "".join(chr(rng.randrange(0, 0x250)) for _ in range(300)) + "\n\x1b[2J"
    ascend_log.error("GE", message)
    lines = debug_file(log_root).read_text(encoding="utf-8").rstrip("\n").split("\n")
    assert len(lines) == 1, f"seed {seed}"
    assert "\x1b" not in lines[0] and lines[0].endswith("\\x0a\\x1b[2J")
    assert LINE.fullmatch(lines[0]), f"seed {seed}"


if __name__ == "__main__":
    sys.exit(pytest.main([__file__]))


def test_a_huge_message_is_one_bounded_line_in_both_loggers(log_root, cxx):
    """A crafted 289 KB node name in an error once made a 289 KB line: both loggers keep the
    head and tail of any message and say how much they left out."""
    rng = random.Random()
    seed = rng.randrange(2**32)
    print(f"seed {seed}")
    rng.seed(seed)
    huge = "".join(rng.choice("abcdefghij\n\x1b") for _ in range(289 * 1024))
    ascend_log.error("GE", "node " + huge + " END")
    cxx.twin_log_write(3, b"GE", ("node " + huge + " END").encode())
    lines = debug_file(log_root).read_text().splitlines()
    assert len(lines) == 2, [len(line) for line in lines]
    for line in lines:
        assert len(line) < 2 * ascend_log.MAX_MESSAGE_CHARS, len(line)
        assert "omitted]..." in line and line.endswith(" END") and "\x1b" not in line
