"""soc_params (the ascendc_kernel action's SoC step) writes the response file bisheng reads, or
fails clearly. The SoC table itself is generated from the .ini files (twin/platform:soc_ini_test)."""

import os
import subprocess

import pytest

PLATFORM_DIR = os.path.join(os.environ["TEST_SRCDIR"], os.environ["TEST_WORKSPACE"], "twin", "platform")
SOC_PARAMS = os.path.join(os.environ["TEST_SRCDIR"], os.environ["TEST_WORKSPACE"], "tools", "bisheng", "soc_params")


def run_params(tmp_path, soc, ini, expected):
    out = tmp_path / "arch.params"
    proc = subprocess.run([SOC_PARAMS, soc, str(ini), str(expected), str(out)], capture_output=True, text=True)
    return proc, out


def test_params_file_for_310p3(tmp_path):
    proc, out = run_params(tmp_path, "Ascend310P3", os.path.join(PLATFORM_DIR, "Ascend310P3.ini"), 2002)
    assert proc.returncode == 0, proc.stderr
    assert out.read_text() == "--npu-arch=dav-2002\n"


@pytest.mark.parametrize(
    "ini_text, expected, message",
    [
        ("[version]\nSoC_version=Ascend910B1\nNpuArch=2002\n", 2201, "says NpuArch=2002 but the build's SoC table"),
        ("[version]\nSoC_version=Ascend910B1\n", 2201, "has no decimal [version] NpuArch"),
        ("[version]\nSoC_version=Ascend310P3\nNpuArch=2002\n", 2201, "describes SoC_version=Ascend310P3"),
        ("not an ini", 2201, "cannot read SoC config: "),
    ],
)
def test_bad_configs_fail_clearly(tmp_path, ini_text, expected, message):
    ini = tmp_path / "Ascend910B1.ini"
    ini.write_text(ini_text)
    proc, out = run_params(tmp_path, "Ascend910B1", ini, expected)
    assert proc.returncode != 0 and message in proc.stderr and not out.exists()
