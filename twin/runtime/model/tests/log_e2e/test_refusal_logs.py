"""The user's situation: a CANN program (quiet_runner: checks each call, exits 1, prints nothing)
loads an OM built for Ascend310P3 on an Ascend910B1 device. With no log variable set it exits 1
and the cause is in $HOME/ascend/log/debug/plog/plog-<pid>_<stamp>.log; with
ASCEND_SLOG_PRINT_TO_STDOUT=1 it is on stdout and no file is written; a good OM leaves no file."""

import os
import re
import subprocess
from pathlib import Path

import pytest

CAUSE = "built for Ascend310P3 (NpuArch 2002)"
LINE = re.compile(
    r"\[ERROR\] ASCENDCL\((\d+),quiet_runner\):\d{4}-\d\d-\d\d-\d\d:\d\d:\d\d\.\d{3}\.\d{3} "
    r"\[[\w.]+:\d+\]\d+ .*" + re.escape(CAUSE) + r".*Ascend910B1.*\(error 507008\)"
)


def _tool(var):
    return Path(os.environ[var]).resolve()


@pytest.fixture
def home(tmp_path):
    path = tmp_path / "home"
    path.mkdir()
    return path


def _om(tmp_path, soc, arch):
    om = tmp_path / f"model_{soc}.om"
    subprocess.run([_tool("WRITE_OM"), om, soc, str(arch), _tool("KERNELS")], check=True)
    return om


def _run(om, home, **extra):
    env = {"PATH": "/usr/bin:/bin", "HOME": str(home), "ASCEND_TWIN_SOC_VERSION": "Ascend910B1", **extra}
    proc = subprocess.Popen([_tool("RUNNER"), om], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out, err = proc.communicate(timeout=120)
    return proc.pid, proc.returncode, out, err


def test_foreign_om_cause_is_in_the_plog_under_home(tmp_path, home):
    pid, rc, out, err = _run(_om(tmp_path, "Ascend310P3", 2002), home)
    assert rc == 1
    assert CAUSE not in out + err, "by default the cause goes to the log file, as in CANN"
    plogs = list((home / "ascend" / "log" / "debug" / "plog").glob(f"plog-{pid}_*.log"))
    assert len(plogs) == 1, list(home.rglob("*"))
    assert re.fullmatch(rf"plog-{pid}_\d{{17}}\.log", plogs[0].name)
    lines = plogs[0].read_text().splitlines()
    assert any(LINE.fullmatch(line) for line in lines), lines
    assert not (home / "ascend" / "log" / "run").exists(), "no event: no run log"


def test_foreign_om_cause_on_stdout_with_print_to_stdout(tmp_path, home):
    _, rc, out, _ = _run(_om(tmp_path, "Ascend310P3", 2002), home, ASCEND_SLOG_PRINT_TO_STDOUT="1")
    assert rc == 1
    assert any(LINE.fullmatch(line) for line in out.splitlines()), out
    assert not (home / "ascend").exists(), "printing to stdout writes no file"


def test_process_log_path_redirects(tmp_path, home):
    logs = tmp_path / "logs"
    pid, rc, _, _ = _run(_om(tmp_path, "Ascend310P3", 2002), home, ASCEND_PROCESS_LOG_PATH=str(logs))
    assert rc == 1
    assert len(list((logs / "debug" / "plog").glob(f"plog-{pid}_*.log"))) == 1
    assert not (home / "ascend").exists()


def test_good_om_leaves_no_log_file(tmp_path, home):
    _, rc, out, err = _run(_om(tmp_path, "Ascend910B1", 2201), home)
    assert rc == 0, out + err
    assert not (home / "ascend").exists(), "a clean run creates no log file"
