"""soc_ini.py: the SoC table of the build (@soc_facts, written by it from twin/platform/*.ini) and
one clear line for each config that does not describe its SoC."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import soc_ini
from ascend_ini import read_ini

RUNFILES = Path(os.environ["TEST_SRCDIR"])
PLATFORM = RUNFILES / os.environ["TEST_WORKSPACE"] / "twin" / "platform"


def generated_facts() -> str:
    candidates = [
        RUNFILES / "soc_facts" / "soc_facts.bzl",
        RUNFILES / os.environ["TEST_WORKSPACE"] / "external" / "soc_facts" / "soc_facts.bzl",
    ]
    return next(p for p in candidates if p.is_file()).read_text()


def test_the_build_table_is_the_generator_output() -> None:
    table = soc_ini.soc_table(PLATFORM)
    assert generated_facts() == soc_ini.render_starlark(table)
    assert set(table) == {p.stem for p in PLATFORM.glob("*.ini")}
    assert table["Ascend910B1"] == 2201 and table["Ascend310P3"] == 2002 and table["Ascend950PR_9599"] == 3510
    for soc, arch in table.items():
        assert int(read_ini(PLATFORM / f"{soc}.ini")["version"]["NpuArch"]) == arch


def test_rendered_table_is_a_starlark_dict() -> None:
    namespace: dict = {}
    exec(soc_ini.render_starlark({"AscendA": 1, "AscendB": 22}), namespace)  # Starlark dicts are Python's
    assert namespace["SOC_NPU_ARCH"] == {"AscendA": 1, "AscendB": 22}


@pytest.mark.parametrize(
    "text, message",
    [
        ("[version]\nSoC_version=AscendT\nNpuArch=dav-2201\n", "has no decimal [version] NpuArch (got 'dav-2201')"),
        ("[version]\nSoC_version=AscendT\n", "has no decimal [version] NpuArch (got None)"),
        ("[version]\nSoC_version=AscendU\nNpuArch=2201\n", "describes SoC_version=AscendU, not AscendT"),
        ("[version]\nNpuArch 2201\n", "cannot read SoC config: "),
    ],
)
def test_bad_configs_are_one_line(tmp_path: Path, text: str, message: str) -> None:
    (tmp_path / "AscendT.ini").write_text(text)
    proc = subprocess.run([sys.executable, soc_ini.__file__, str(tmp_path)], capture_output=True, text=True)
    assert proc.returncode == 1 and proc.stdout == ""
    assert proc.stderr.startswith("soc_ini: error: ") and message in proc.stderr, proc.stderr
    assert proc.stderr.count("\n") == 1


def test_an_empty_directory_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(soc_ini.SocConfigError, match="no SoC config"):
        soc_ini.soc_table(tmp_path)
