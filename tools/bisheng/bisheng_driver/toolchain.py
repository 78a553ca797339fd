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
    "nm": ("BISHENG_NM", "llvm-nm-16", "llvm-nm"),
    "cxxfilt": ("BISHENG_CXXFILT", "llvm-cxxfilt-16", "llvm-cxxfilt"),
    "ar": ("BISHENG_AR", "llvm-ar-16", "llvm-ar"),
}


@dataclass(frozen=True)
class Tools:
    clang: str
    lld: str
    objcopy: str
    nm: str = ""
    cxxfilt: str = ""
    ar: str = ""


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
        f"cannot find {path_name}: set {env_name}, put {path_name} on PATH or install it in {LLVM_FALLBACK_BIN}"
    )


def _find_beside(kind: str, *anchors: str) -> str:
    """llvm-nm / llvm-cxxfilt: as _find_tool, also beside the clang or objcopy in use."""
    env_name, path_name, fallback_name = TOOL_SPECS[kind]
    if not os.environ.get(env_name):
        for anchor in anchors:
            for name in (path_name, fallback_name):
                candidate = os.path.join(os.path.dirname(os.path.realpath(anchor)), name)
                if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
                    return candidate
    return _find_tool(kind)


def find_tools() -> Tools:
    clang, lld, objcopy = _find_tool("clang"), _find_tool("lld"), _find_tool("objcopy")
    return Tools(
        clang=clang,
        lld=lld,
        objcopy=objcopy,
        nm=_find_beside("nm", clang, objcopy),
        cxxfilt=_find_beside("cxxfilt", clang, objcopy),
        ar=_find_beside("ar", clang, objcopy),
    )


@dataclass(frozen=True)
class ResourceDirs:
    """The twin's header roots, like a compiler's resource directory."""

    asc_include: str  # holds kernel_operator.h and asc_twin/kernel_entry.h
    abi_include: str  # holds asc_twin/aicore_abi.h (may equal asc_include)
    host_includes: tuple = ()  # acl/acl.h & co. for host code (CANN: <root>/include)
    lib_dir: str = ""  # libascendcl.so and libascendc_runtime.so (CANN: <root>/lib64)


ENTRY_HEADER = os.path.join("asc_twin", "kernel_entry.h")
ABI_HEADER = os.path.join("asc_twin", "aicore_abi.h")


def _layouts(driver_dir: str) -> list:
    """Candidate (asc include, abi include) pairs for a driver living in driver_dir."""
    prefix = os.path.dirname(driver_dir)
    return [
        # source tree / Bazel runfiles: tools/bisheng/bisheng -> twin/{asc,abi}/include
        (
            os.path.join(driver_dir, "..", "..", "twin", "asc", "include"),
            os.path.join(driver_dir, "..", "..", "twin", "abi", "include"),
        ),
        # installed, CANN-like: PREFIX/bin/bisheng -> PREFIX/asc/include
        (os.path.join(prefix, "asc", "include"), os.path.join(prefix, "asc", "include")),
        (os.path.join(prefix, "asc", "include"), os.path.join(prefix, "abi", "include")),
    ]


def _complete(asc: str, abi: str) -> bool:
    return os.path.isfile(os.path.join(asc, ENTRY_HEADER)) and os.path.isfile(os.path.join(abi, ABI_HEADER))


def _is_installed_prefix(prefix: str) -> bool:
    """Whether `prefix` (the directory above asc/include) is an installed, CANN-like tree: it
    holds ACL's headers as PREFIX/include/acl/acl.h. The source tree (and Bazel's runfiles)
    keeps them in twin/runtime/include instead. Decided by layout, never by how the path is
    spelled: an install at /opt/ascend-twin also ends in "twin/asc/include"."""
    return os.path.isfile(os.path.join(prefix, "include", "acl", "acl.h"))


def _host_side(asc: str) -> tuple:
    """Host include dirs and the library dir that belong with the header root `asc`."""
    prefix = os.path.dirname(os.path.dirname(os.path.normpath(asc)))
    if _is_installed_prefix(prefix):  # PREFIX/asc/include
        incs = [os.path.join(prefix, "include")]
        lib = os.environ.get("BISHENG_TWIN_LIB_DIR") or os.path.join(prefix, "lib64")
    else:  # twin/asc/include
        incs = [
            os.path.join(prefix, "runtime", "include"),
            os.path.join(prefix, "runtime", "model", "include"),
            os.path.join(prefix, "runtime", "launch", "include"),
            os.path.join(prefix, "tiling", "include"),
        ]
        lib = os.environ.get("BISHENG_TWIN_LIB_DIR", "")
    return tuple(d for d in incs if os.path.isdir(d)), lib


def _resource(asc: str, abi: str) -> ResourceDirs:
    incs, lib = _host_side(asc)
    return ResourceDirs(os.path.normpath(asc), os.path.normpath(abi), incs, lib)


def find_resource_dirs(driver_path: str) -> ResourceDirs:
    home = os.environ.get("ASCEND_HOME_PATH")
    if home:
        asc = os.path.join(home, "asc", "include")
        for abi in (asc, os.path.join(home, "abi", "include")):
            if _complete(asc, abi):
                return _resource(asc, abi)
        raise BishengError(f"ASCEND_HOME_PATH={home} has no Ascend C twin headers ({os.path.join(asc, ENTRY_HEADER)})")
    # abspath keeps Bazel's runfiles tree (symlinks) intact; realpath covers a
    # driver reached through a symlink such as /usr/local/bin/bisheng.
    tried = []
    for driver in (os.path.abspath(driver_path), os.path.realpath(driver_path)):
        for asc, abi in _layouts(os.path.dirname(driver)):
            if _complete(asc, abi):
                return _resource(asc, abi)
            tried.append(os.path.normpath(asc))
    raise BishengError(
        "cannot find the Ascend C twin headers (asc_twin/kernel_entry.h); looked in: "
        + ", ".join(dict.fromkeys(tried))
        + "; or set ASCEND_HOME_PATH"
    )
