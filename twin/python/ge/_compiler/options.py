"""Compile options the graph compiler reads (GE option keys) and their defaults."""

from dataclasses import dataclass
from typing import Mapping, Optional

from ge._platform import PlatformConfig, load_platform

from .errors import GraphCompileError

OPTION_SOC_VERSION = "ge.socVersion"
OPTION_AICORE_NUM = "ge.aicoreNum"
# Twin-specific: which pipeline is compiling ("online" for Session, "offline" for atc). Passed to
# compile callbacks through OpCompileContext.get_option like every other compile option.
OPTION_COMPILE_MODE = "ge.twin.compileMode"
DEFAULT_SOC_VERSION = "Ascend910B1"
COMPILE_MODES = ("online", "offline")


@dataclass(frozen=True)
class CompileTarget:
    soc_version: str
    npu_arch: int
    platform: PlatformConfig


def resolve_target(options: Mapping[str, str]) -> CompileTarget:
    soc = options.get(OPTION_SOC_VERSION) or DEFAULT_SOC_VERSION
    try:
        platform = load_platform(soc)
    except (ValueError, FileNotFoundError) as exc:
        raise GraphCompileError(f"option {OPTION_SOC_VERSION}: {exc}") from None
    aicore_num: Optional[str] = options.get(OPTION_AICORE_NUM)
    if aicore_num:
        try:
            platform = platform.with_ai_core_num(int(aicore_num))
        except ValueError:
            raise GraphCompileError(f"option {OPTION_AICORE_NUM}={aicore_num!r} is not an integer") from None
    try:
        arch_text = platform.npu_arch
    except KeyError:
        raise GraphCompileError(f"platform config of {soc} ({platform.path}) has no [version] NpuArch") from None
    arch_text = arch_text[4:] if arch_text.startswith("dav-") else arch_text
    if not arch_text.isdigit():
        raise GraphCompileError(f"platform config of {soc}: NpuArch {arch_text!r} is not a decimal number")
    return CompileTarget(soc, int(arch_text), platform)


def compile_options(options: Mapping[str, str], mode: str) -> dict:
    """The option map compile callbacks see: the caller's options plus the compile mode."""
    if mode not in COMPILE_MODES:
        raise ValueError(f"compile mode must be one of {COMPILE_MODES}, got {mode!r}")
    merged = {str(k): str(v) for k, v in options.items()}
    merged.setdefault(OPTION_COMPILE_MODE, mode)
    return merged
