from pathlib import Path

import pytest

from ascend_ini import read_ini
from ge import _platform

PLATFORM_DIR = Path(__file__).absolute().parents[2] / "platform"


def _ini(soc):
    return read_ini(PLATFORM_DIR / f"{soc}.ini")


@pytest.mark.parametrize("soc", sorted(p.stem for p in PLATFORM_DIR.glob("*.ini")))
def test_every_real_ini_loads_with_its_values(soc):
    config = _platform.load_platform(soc)
    ini = _ini(soc)
    assert config.soc_version == soc == ini["version"]["SoC_version"]
    assert config.npu_arch == ini["version"]["NpuArch"]
    assert config.ai_core_num == int(ini["SoCInfo"]["ai_core_cnt"])
    assert config.core_num("VectorCore") == int(ini["SoCInfo"]["vector_core_cnt"])
    assert config.sections["AICoreSpec"] == dict(ini["AICoreSpec"])


def test_known_values_of_ascend910b1():
    config = _platform.load_platform("Ascend910B1")
    assert (config.npu_arch, config.ai_core_num, config.get("AICoreSpec", "ub_size")) == ("2201", 24, "196608")
    assert config.with_ai_core_num(4).core_num() == 4


def test_unknown_soc_lists_known_ones():
    with pytest.raises(
        ValueError,
        match=r"unknown SoC version 'Ascend999': no Ascend999.ini in .* \(known: .*"
        r"Ascend910B1.*\)",
    ):
        _platform.load_platform("Ascend999")
    with pytest.raises(ValueError, match="unknown core type"):
        _platform.load_platform("Ascend910B1").core_num("TinyCore")


def test_directory_search_order(monkeypatch, tmp_path):
    monkeypatch.setenv("ASCEND_TWIN_PLATFORM_DIR", str(tmp_path / "missing"))
    with pytest.raises(FileNotFoundError, match="ASCEND_TWIN_PLATFORM_DIR"):
        _platform.platform_config_dir()
    monkeypatch.delenv("ASCEND_TWIN_PLATFORM_DIR")
    home = tmp_path / "cann"
    cfg = home / f"{_platform.host_arch()}-linux" / "data" / "platform_config"
    cfg.mkdir(parents=True)
    (cfg / "MySoc.ini").write_text("[version]\nSoC_version=MySoc\nNpuArch=9999\n[SoCInfo]\nai_core_cnt=3\n")
    monkeypatch.setenv("ASCEND_HOME_PATH", str(home))
    assert _platform.platform_config_dir() == cfg
    assert _platform.load_platform("MySoc").npu_arch == "9999"
    monkeypatch.setenv("ASCEND_HOME_PATH", str(tmp_path / "nothing"))
    assert _platform.platform_config_dir() == Path(_platform._SOURCE_TREE_DIR)


def test_malformed_and_mismatched_ini(tmp_path):
    (tmp_path / "Bad.ini").write_text("[version]\nno equals sign\n")
    with pytest.raises(
        ValueError,
        match=r"malformed platform config: .*Bad.ini:2: expected '\[section\]' or "
        r"'key=value', got 'no equals sign'",
    ):
        _platform.load_platform("Bad", tmp_path)
    (tmp_path / "Twice.ini").write_text("[version]\nNpuArch=1\nNpuArch=2\n")
    with pytest.raises(ValueError, match=r"Twice.ini:3: key 'NpuArch' appears twice in \[version\]"):
        _platform.load_platform("Twice", tmp_path)
    (tmp_path / "Other.ini").write_text("[version]\nSoC_version=Else\n")
    with pytest.raises(ValueError, match="declares SoC_version=Else"):
        _platform.load_platform("Other", tmp_path)
