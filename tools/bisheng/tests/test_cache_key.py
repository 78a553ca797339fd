"""The kernel cache key (twin extension --twin-cache-key): independent of where files live and how
include dirs are spelled, sensitive to everything that changes the device binary."""

import json
import os
import shutil
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bisheng_harness import TESTDATA, copy_testdata, run_bisheng  # noqa: E402

KERNEL_FILES = ("add_custom.asc", "add_tiling.h")
SOC = "--twin-soc=Ascend910B1"


def key_only(cwd, *args, src="add_custom.asc", report="key.json"):
    proc = run_bisheng(
        [
            "-c",
            src,
            "-o",
            "unused.o",
            "--npu-arch=dav-2201",
            SOC,
            f"--twin-cache-key={report}",
            "--twin-cache-key-only",
            *args,
        ],
        str(cwd),
    )
    assert proc.returncode == 0, proc.stderr
    assert not (cwd / "unused.o").exists()  # key only: nothing compiled
    return json.loads((cwd / report).read_text())


def one_error_line(proc) -> str:
    lines = proc.stderr.strip().splitlines()
    assert proc.returncode != 0 and len(lines) == 1, proc.stderr
    return lines[0]


@pytest.fixture()
def kdir(tmp_path):
    copy_testdata(str(tmp_path), *KERNEL_FILES)
    return tmp_path


def test_compile_writes_the_same_key_as_key_only(kdir):
    proc = run_bisheng(
        ["-c", "add_custom.asc", "-o", "k.o", "--npu-arch=dav-2201", SOC, "--twin-cache-key=compile.json"], str(kdir)
    )
    assert proc.returncode == 0, proc.stderr
    compiled = json.loads((kdir / "compile.json").read_text())
    assert compiled == key_only(kdir)
    names = {h["name"] for h in compiled["headers"]}
    assert {"add_tiling.h", "kernel_operator.h", "asc_twin/kernel_entry.h", "asc_twin/aicore_abi.h"} <= names
    assert compiled["soc"] == "Ascend910B1" and compiled["npu_arch"] == 2201
    # -MMD leaves system headers out of the user's depfile, never out of the key
    proc = run_bisheng(
        [
            "-c",
            "add_custom.asc",
            "-o",
            "k.o",
            "--npu-arch=dav-2201",
            SOC,
            "-MMD",
            "-MF",
            "k.d",
            "--twin-cache-key=mmd.json",
        ],
        str(kdir),
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads((kdir / "mmd.json").read_text())["key"] == compiled["key"]
    assert "/usr/include" not in (kdir / "k.d").read_text()


def test_key_does_not_depend_on_where_files_live_or_include_spelling(tmp_path):
    a = tmp_path / "a"
    copy_testdata(str(a), *KERNEL_FILES)
    b = tmp_path / "deep" / "b"
    copy_testdata(str(b / "src"), "add_custom.asc")
    copy_testdata(str(b / "inc"), "add_tiling.h")
    (b / "unused_dir").mkdir()
    (b / "reports").mkdir()
    first = key_only(a)
    second = key_only(
        b,
        "-I",
        "inc",
        f"-I{b / 'unused_dir'}",
        "-Wall",
        "-v",
        "-std=c++1z",
        "-MD",
        "-MF",
        "x.d",
        src="src/add_custom.asc",
        report="reports/key.json",
    )
    assert second["key"] == first["key"]
    assert second["flags"] == first["flags"] == ["--npu-arch=dav-2201", "-std=c++17", "-O2", "-g0"]


@pytest.mark.parametrize(
    "change",
    [
        ["-DTILE=8"],
        ["-O3"],
        ["-g"],
        ["-std=c++20"],
        ["--npu-arch=dav-2002"],
        ["--twin-soc=Ascend910B2"],
        ["--cce-aicore-arch=dav-c220-vec"],
    ],
)
def test_flags_that_change_code_change_the_key(kdir, change):
    base = key_only(kdir)["key"]
    if change[0].startswith(("--npu-arch", "--cce-aicore-arch")):
        args = ["-c", "add_custom.asc", "-o", "u.o", SOC, *change]
    else:
        args = ["-c", "add_custom.asc", "-o", "u.o", "--npu-arch=dav-2201", SOC, *change]
    proc = run_bisheng(args + ["--twin-cache-key=changed.json", "--twin-cache-key-only"], str(kdir))
    assert proc.returncode == 0, proc.stderr
    assert json.loads((kdir / "changed.json").read_text())["key"] != base


def test_source_and_header_content_change_the_key(kdir):
    base = key_only(kdir)["key"]
    original = (kdir / "add_custom.asc").read_text()
    (kdir / "add_custom.asc").write_text(original + "\n// edit\n")
    assert key_only(kdir)["key"] != base
    (kdir / "add_custom.asc").write_text(original)
    assert key_only(kdir)["key"] == base
    (kdir / "add_tiling.h").write_text((kdir / "add_tiling.h").read_text() + "\n// edit\n")
    assert key_only(kdir)["key"] != base


def test_headers_that_swap_contents_change_the_key(tmp_path):
    shutil.copy(os.path.join(TESTDATA, "add_custom.asc"), tmp_path / "k.asc")
    shutil.copy(os.path.join(TESTDATA, "add_tiling.h"), tmp_path / "add_tiling.h")
    text = (tmp_path / "k.asc").read_text()
    (tmp_path / "k.asc").write_text('#include "one.h"\n#include "two.h"\n' + text)
    (tmp_path / "one.h").write_text("#define ONE_VALUE 1\n")
    (tmp_path / "two.h").write_text("#define TWO_VALUE 2\n")
    before = key_only(tmp_path, src="k.asc")["key"]
    (tmp_path / "one.h").write_text("#define TWO_VALUE 2\n")
    (tmp_path / "two.h").write_text("#define ONE_VALUE 1\n")
    assert key_only(tmp_path, src="k.asc")["key"] != before


def test_version_advertises_the_extension(tmp_path):
    proc = run_bisheng(["--version"], str(tmp_path))
    assert proc.returncode == 0
    assert "Twin extensions: --twin-cache-key=FILE --twin-soc=SOC --twin-cache-key-only" in proc.stdout


@pytest.mark.parametrize(
    "args, message",
    [
        (["--twin-cache-key=k.json"], "--twin-cache-key needs --twin-soc=<SoC>"),
        (["--twin-cache-key-only", SOC], "--twin-cache-key-only needs --twin-cache-key=FILE"),
        (["--twin-cache-key=k.json", "--twin-soc=bad soc"], "invalid SoC name 'bad soc'"),
        (["--twin-cache-key=nodir/k.json", SOC], "cannot write kernel cache key file 'nodir/k.json'"),
    ],
)
def test_bad_key_options_are_one_line_errors_and_write_nothing(kdir, args, message):
    proc = run_bisheng(["-c", "add_custom.asc", "-o", "k.o", "--npu-arch=dav-2201", *args], str(kdir))
    assert message in one_error_line(proc)
    assert not (kdir / "k.o").exists() and not (kdir / "k.json").exists()
    assert not [p.name for p in kdir.iterdir() if p.name.startswith(".")]


def test_key_only_with_a_missing_header_fails_and_writes_nothing(kdir):
    (kdir / "add_tiling.h").unlink()
    proc = run_bisheng(
        [
            "-c",
            "add_custom.asc",
            "-o",
            "k.o",
            "--npu-arch=dav-2201",
            SOC,
            "--twin-cache-key=k.json",
            "--twin-cache-key-only",
        ],
        str(kdir),
    )
    assert proc.returncode != 0
    assert "add_tiling.h" in proc.stderr and "bisheng: error: dependency scan of 'add_custom.asc' failed" in proc.stderr
    assert not (kdir / "k.json").exists()
    assert not [p.name for p in kdir.iterdir() if p.name.startswith(".")]
