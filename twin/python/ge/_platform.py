"""SoC platform configuration: CANN-style ``<SoC>.ini`` files.

The config directory is the first of these that is set/exists:
  1. ``$ASCEND_TWIN_PLATFORM_DIR`` (if set it must exist — a typo should not silently fall back)
  2. ``$ASCEND_HOME_PATH/<uname -m>-linux/data/platform_config`` (the CANN install layout)
  3. ``twin/platform/`` of the source tree / Bazel runfiles, found relative to this package.
"""

import os
import platform as _host
import threading
from pathlib import Path
from typing import Dict, List, Optional, Tuple

from ascend_ini import IniError, read_ini

# absolute(), not resolve(): in Bazel runfiles the ini files sit beside the links, not the sources
_SOURCE_TREE_DIR = Path(__file__).absolute().parent.parent.parent / "platform"

_CORE_TYPE_KEYS = {"AiCore": "ai_core_cnt", "VectorCore": "vector_core_cnt", "CubeCore": "cube_core_cnt"}


class PlatformConfig:
    """All sections of one SoC's ini file (keys case-preserved, values strings)."""

    def __init__(
        self,
        soc_version: str,
        sections: Dict[str, Dict[str, str]],
        path: Optional[Path] = None,
        ai_core_num: Optional[int] = None,
    ) -> None:
        self.soc_version = soc_version
        self.sections = sections
        self.path = path
        self._ai_core_num = ai_core_num

    def get(self, group: str, key: str) -> str:
        try:
            return self.sections[group][key]
        except KeyError:
            raise KeyError(f"{group}:{key}") from None

    def _int(self, group: str, key: str) -> int:
        raw = self.get(group, key)
        try:
            return int(raw)
        except ValueError:
            raise ValueError(f"{self.path or self.soc_version}: [{group}] {key}={raw!r} is not an integer") from None

    @property
    def npu_arch(self) -> str:
        return self.get("version", "NpuArch")

    @property
    def ai_core_num(self) -> int:
        """OptionalInfos::GetAICoreNum: the configured count (option) or ai_core_cnt."""
        return self._ai_core_num if self._ai_core_num is not None else self._int("SoCInfo", "ai_core_cnt")

    def core_num(self, core_type: Optional[str] = None) -> int:
        """Default core count (AI cores) or the count of one core type (AiCore/VectorCore/CubeCore)."""
        if core_type is None:
            return self.ai_core_num
        key = _CORE_TYPE_KEYS.get(core_type)
        if key is None:
            raise ValueError(f"unknown core type {core_type!r} (known: {', '.join(_CORE_TYPE_KEYS)})")
        return self._int("SoCInfo", key)

    def with_ai_core_num(self, ai_core_num: int) -> "PlatformConfig":
        """Copy with an AI core count limited by an option such as ge.aicoreNum."""
        return PlatformConfig(self.soc_version, self.sections, self.path, ai_core_num)


def host_arch() -> str:
    machine = _host.machine().lower()
    return {"amd64": "x86_64", "arm64": "aarch64"}.get(machine, machine)


def platform_config_dir() -> Path:
    override = os.environ.get("ASCEND_TWIN_PLATFORM_DIR")
    if override:
        path = Path(override)
        if not path.is_dir():
            raise FileNotFoundError(f"ASCEND_TWIN_PLATFORM_DIR is not a directory: {path}")
        return path
    home = os.environ.get("ASCEND_HOME_PATH")
    if home:
        path = Path(home) / f"{host_arch()}-linux" / "data" / "platform_config"
        if path.is_dir():
            return path
    if _SOURCE_TREE_DIR.is_dir():
        return _SOURCE_TREE_DIR
    raise FileNotFoundError(
        "no platform config directory: set ASCEND_TWIN_PLATFORM_DIR or ASCEND_HOME_PATH "
        f"(source-tree fallback {_SOURCE_TREE_DIR} does not exist)"
    )


def known_soc_versions(config_dir: Optional[Path] = None) -> List[str]:
    directory = Path(config_dir) if config_dir is not None else platform_config_dir()
    return sorted(p.stem for p in directory.glob("*.ini"))


_cache: Dict[Tuple[str, int, int], PlatformConfig] = {}
_cache_lock = threading.Lock()


def _parse(path: Path, soc_version: str) -> PlatformConfig:
    try:
        sections = read_ini(path)  # the twin's one ini reader (twin/platform/ini)
    except IniError as exc:
        raise ValueError(f"malformed platform config: {exc}") from None
    declared = sections.get("version", {}).get("SoC_version")
    if declared is not None and declared != soc_version:
        raise ValueError(f"platform config {path} declares SoC_version={declared}, expected {soc_version}")
    return PlatformConfig(soc_version, sections, path)


def load_platform(soc_version: str, config_dir: Optional[Path] = None) -> PlatformConfig:
    """Parse ``<config_dir>/<soc_version>.ini`` (cached per file version)."""
    if not isinstance(soc_version, str) or not soc_version:
        raise ValueError("soc_version must be a non-empty string")
    directory = Path(config_dir) if config_dir is not None else platform_config_dir()
    path = directory / f"{soc_version}.ini"
    if "/" in soc_version or not path.is_file():
        known = ", ".join(known_soc_versions(directory)) or "none"
        raise ValueError(f"unknown SoC version '{soc_version}': no {path.name} in {directory} (known: {known})")
    stat = path.stat()
    key = (str(path.resolve()), stat.st_mtime_ns, stat.st_size)
    with _cache_lock:
        config = _cache.get(key)
        if config is None:
            config = _cache[key] = _parse(path, soc_version)
    return config
