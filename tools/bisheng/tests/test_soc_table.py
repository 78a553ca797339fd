"""The SoC table generated for analysis time (@soc_facts) agrees with twin/platform/*.ini as
soc_params.py reads them,
and soc_params.py writes the response file bisheng reads, or fails clearly."""

import ast
import glob
import os
import re
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
BISHENG_DIR = os.path.join(ROOT, "tools", "bisheng")
PLATFORM_DIR = os.path.join(ROOT, "twin", "platform")

sys.path.insert(0, BISHENG_DIR)
from soc_params import npu_arch_of  # noqa: E402


def soc_table() -> dict:
    """The generated table (@soc_facts//:soc_facts.bzl, in the runfiles)."""
    runfiles = os.environ["RUNFILES_DIR"]
    candidates = [os.path.join(runfiles, "soc_facts", "soc_facts.bzl"),
                  os.path.join(runfiles, "ascend_twin", "external", "soc_facts", "soc_facts.bzl")]
    path = next(p for p in candidates if os.path.isfile(p))
    text = open(path, encoding="utf-8").read()
    body = re.search(r"SOC_NPU_ARCH = (\{.*?\})", text, re.S).group(1)
    return ast.literal_eval(body)


def test_every_table_entry_matches_its_ini():
    table = soc_table()
    assert table["Ascend910B1"] == 2201 and table["Ascend310P3"] == 2002
    for soc, arch in table.items():
        assert npu_arch_of(soc, os.path.join(PLATFORM_DIR, soc + ".ini")) == arch, soc


def test_every_ini_is_in_the_table():
    inis = {os.path.basename(p)[:-4] for p in glob.glob(os.path.join(PLATFORM_DIR, "*.ini"))}
    assert inis and inis <= set(soc_table())


def run_params(tmp_path, soc, ini, expected):
    out = tmp_path / "arch.params"
    proc = subprocess.run([sys.executable, os.path.join(BISHENG_DIR, "soc_params.py"), soc, str(ini),
                           str(expected), str(out)], capture_output=True, text=True)
    return proc, out


def test_params_file_for_310p3(tmp_path):
    proc, out = run_params(tmp_path, "Ascend310P3", os.path.join(PLATFORM_DIR, "Ascend310P3.ini"), 2002)
    assert proc.returncode == 0, proc.stderr
    assert out.read_text() == "--npu-arch=dav-2002\n"


@pytest.mark.parametrize("ini_text, expected, message", [
    ("[version]\nSoC_version=Ascend910B1\nNpuArch=2002\n", 2201, "says NpuArch=2002 but"),
    ("[version]\nSoC_version=Ascend910B1\n", 2201, "has no decimal [version] NpuArch"),
    ("[version]\nSoC_version=Ascend310P3\nNpuArch=2002\n", 2201, "describes SoC_version=Ascend310P3"),
    ("not an ini", 2201, "cannot read SoC config"),
])
def test_bad_configs_fail_clearly(tmp_path, ini_text, expected, message):
    ini = tmp_path / "Ascend910B1.ini"
    ini.write_text(ini_text)
    proc, out = run_params(tmp_path, "Ascend910B1", ini, expected)
    assert proc.returncode != 0 and message in proc.stderr and not out.exists()
