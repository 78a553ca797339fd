"""Where bisheng finds clang, lld, llvm-objcopy and its Ascend C headers."""

import os
import shutil
from dataclasses import dataclass

from .errors import BishengError

LLVM_FALLBACK_BIN = "/usr/lib/llvm-16/bin"

# (env override, name on PATH, name in the LLVM bin directory)
TOOL_SPECS = {
    "clang": ("BISHENG_CLANG", "clang-16", "clang"),
    "lld": ("BISHENG_LLD", "ld.lld-16", "ld.lld"),
    "objcopy": ("BISHENG_OBJCOPY", "llvm-objcopy-16", "llvm-objcopy"),
}


@dataclass(frozen=True)
class Tools:
    clang: str
    lld: str
    objcopy: str


def _find_tool(kind: str) -> str:
    env_name, path_name, fallback_name = TOOL_SPECS[kind]
    override = os.environ.get(env_name)
    if override:
        if not (os.path.isfile(override) and os.access(override, os.X_OK)):
            raise BishengError(f"{env_name}={override} is not an executable file")
        return os.path.abspath(override)
    on_path = shutil.which(path_name)
    if on_path:
        return on_path
    fallback = os.path.join(LLVM_FALLBACK_BIN, fallback_name)
    if os.path.isfile(fallback) and os.access(fallback, os.X_OK):
        return fallback
    raise BishengError(
        f"cannot find {path_name}: set {env_name}, put {path_name} on PATH or install it in {LLVM_FALLBACK_BIN}")


def find_tools() -> Tools:
    return Tools(clang=_find_tool("clang"), lld=_find_tool("lld"), objcopy=_find_tool("objcopy"))


@dataclass(frozen=True)
class ResourceDirs:
    """The twin's header roots, like a compiler's resource directory."""
    asc_include: str   # holds kernel_operator.h and asc_twin/kernel_entry.h
    abi_include: str   # holds asc_twin/aicore_abi.h (may equal asc_include)


ENTRY_HEADER = os.path.join("asc_twin", "kernel_entry.h")
ABI_HEADER = os.path.join("asc_twin", "aicore_abi.h")


def _layouts(driver_dir: str) -> list:
    """Candidate (asc include, abi include) pairs for a driver living in driver_dir."""
    prefix = os.path.dirname(driver_dir)
    return [
        # source tree / Bazel runfiles: tools/bisheng/bisheng -> twin/{asc,abi}/include
        (os.path.join(driver_dir, "..", "..", "twin", "asc", "include"),
         os.path.join(driver_dir, "..", "..", "twin", "abi", "include")),
        # installed, CANN-like: PREFIX/bin/bisheng -> PREFIX/asc/include
        (os.path.join(prefix, "asc", "include"), os.path.join(prefix, "asc", "include")),
        (os.path.join(prefix, "asc", "include"), os.path.join(prefix, "abi", "include")),
    ]


def _complete(asc: str, abi: str) -> bool:
    return os.path.isfile(os.path.join(asc, ENTRY_HEADER)) and os.path.isfile(os.path.join(abi, ABI_HEADER))


def find_resource_dirs(driver_path: str) -> ResourceDirs:
    home = os.environ.get("ASCEND_HOME_PATH")
    if home:
        asc = os.path.join(home, "asc", "include")
        for abi in (asc, os.path.join(home, "abi", "include")):
            if _complete(asc, abi):
                return ResourceDirs(os.path.normpath(asc), os.path.normpath(abi))
        raise BishengError(
            f"ASCEND_HOME_PATH={home} has no Ascend C twin headers ({os.path.join(asc, ENTRY_HEADER)})")
    # abspath keeps Bazel's runfiles tree (symlinks) intact; realpath covers a
    # driver reached through a symlink such as /usr/local/bin/bisheng.
    tried = []
    for driver in (os.path.abspath(driver_path), os.path.realpath(driver_path)):
        for asc, abi in _layouts(os.path.dirname(driver)):
            if _complete(asc, abi):
                return ResourceDirs(os.path.normpath(asc), os.path.normpath(abi))
            tried.append(os.path.normpath(asc))
    raise BishengError(
        "cannot find the Ascend C twin headers (asc_twin/kernel_entry.h); looked in: "
        + ", ".join(dict.fromkeys(tried)) + "; or set ASCEND_HOME_PATH")
