"""tools/gen_soc_table.py: the compiled-in SoC table matches twin/platform/*.ini, and a bad
ini fails with one line naming the file and the defect (no output file left behind)."""

from __future__ import annotations

import configparser
import os
import subprocess
import sys
from pathlib import Path

import pytest

GENERATOR = os.environ["GEN_SOC_TABLE"]
INI_FILES = sorted(os.environ["PLATFORM_INIS"].split())

GOOD = """[version]
SoC_version={name}
Short_SoC_version=AscendX
NpuArch=2201
[SoCInfo]
ai_core_cnt=2
cube_core_cnt=2
vector_core_cnt=4
[AICoreSpec]
ub_size=196608
l1_size=524288
l0_a_size=65536
l0_b_size=65536
l0_c_size=131072
bt_size=1024
fb_size=2048
"""


def run(out: Path, *inis: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, GENERATOR, "--out", str(out), *inis], capture_output=True, text=True, check=False
    )


def test_table_matches_platform_ini_files(tmp_path: Path) -> None:
    out = tmp_path / "table.cc"
    result = run(out, *INI_FILES)
    assert result.returncode == 0, result.stderr
    text = out.read_text()
    for path in INI_FILES:
        ini = configparser.ConfigParser()
        ini.optionxform = str
        ini.read(path)
        spec = ini["AICoreSpec"]
        row = '{"%s", "%s", %su, %su, %su, %su, %sull, %sull, %sull, %sull, %sull, %sull, %sull},' % (
            ini["version"]["SoC_version"],
            ini["version"]["Short_SoC_version"],
            ini["version"]["NpuArch"],
            ini["SoCInfo"]["ai_core_cnt"],
            ini["SoCInfo"]["cube_core_cnt"],
            ini["SoCInfo"]["vector_core_cnt"],
            spec["ub_size"],
            spec["l1_size"],
            spec["l0_a_size"],
            spec["l0_b_size"],
            spec["l0_c_size"],
            spec["bt_size"],
            spec["fb_size"],
        )
        assert row in text, f"{path}: {row} not in the generated table"


@pytest.mark.parametrize(
    "edit,expected",
    [
        (lambda s: s.replace("NpuArch=2201\n", ""), "missing [version] NpuArch"),
        (lambda s: s.replace("ub_size=196608", "ub_size=lots"), "is not a non-negative integer"),
        (lambda s: s.replace("ub_size=196608", "ub_size=0"), "ub_size must be > 0"),
        (lambda s: s.replace("bt_size=1024\n", ""), "missing [AICoreSpec] bt_size"),
        (lambda s: s.replace("SoC_version=AscendTest", "SoC_version=AscendOther"), "does not match the file name"),
        (lambda s: s.replace("[SoCInfo]", "SoCInfo"), "cannot parse"),
    ],
)
def test_bad_ini_is_one_clear_line(tmp_path: Path, edit, expected: str) -> None:
    ini = tmp_path / "AscendTest.ini"
    ini.write_text(edit(GOOD.format(name="AscendTest")))
    out = tmp_path / "table.cc"
    result = run(out, str(ini))
    assert result.returncode == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and str(ini) in lines[0] and expected in lines[0], result.stderr
    assert not out.exists()


def test_duplicate_soc_is_refused(tmp_path: Path) -> None:
    a = tmp_path / "a"
    b = tmp_path / "b"
    a.mkdir()
    b.mkdir()
    for d in (a, b):
        (d / "AscendTest.ini").write_text(GOOD.format(name="AscendTest"))
    out = tmp_path / "table.cc"
    result = run(out, str(a / "AscendTest.ini"), str(b / "AscendTest.ini"))
    assert result.returncode == 1 and "duplicate SoC_version" in result.stderr
    assert not out.exists()
