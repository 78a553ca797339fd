"""The clang flags of bisheng's passes: the host pass (CUDA host mode), the device pass, the
twin's header roots and the path maps that keep outputs independent of where they were built."""

import os

from .cache_key import clang_resource_dir
from .options import Options
from .toolchain import ResourceDirs, Tools

PRELUDE_HEADER = os.path.join("asc_twin", "host_prelude.h")
KERNEL_ATTRS_HEADER = os.path.join("asc_twin", "host_kernel_attrs.h")

# Stable spellings for paths that vary between machines and sandboxes, so that
# debug info and __FILE__ do not depend on where things were built.
MAPPED_WORKDIR = "bisheng-gen"
MAPPED_ASC_INCLUDE = "/asc-twin/asc/include"
MAPPED_ABI_INCLUDE = "/asc-twin/abi/include"

# libstdc++ ABI of CANN's C++ libraries (the twin's, ge_twin/abi_config.h): both passes' default.
CANN_CXX11_ABI = 0


def language_flags(opts: Options) -> list:
    """Flags of the device pass (plain C++, as before the whole-driver mode)."""
    arch = opts.npu_arch
    # --driver-mode=g++: C++ semantics (and libstdc++ at link) whatever the clang binary is called.
    flags = [
        "--driver-mode=g++",
        "-x",
        "c++",
        f"-std={opts.std}",
        opts.opt_level,
        "-fPIC",
        f"-D__NPU_ARCH__={arch.number}",
        f"-D__CCE_AICORE__={arch.cce_aicore}",
    ]
    if opts.core_macro:
        flags.append(f"-D{opts.core_macro}=1")
    if opts.debug_flag:
        flags.append(opts.debug_flag)
    flags.append(f"-D_GLIBCXX_USE_CXX11_ABI={CANN_CXX11_ABI}")  # as the host pass (see host_flags)
    return flags + list(opts.extra_flags)


def host_flags(opts: Options, tools: Tools, res: ResourceDirs) -> list:
    """Flags of the host pass: clang's CUDA host mode, so that it parses `k<<<...>>>(...)`
    (see asc_twin/host_prelude.h); the same macros and standard as the device pass."""
    arch = opts.npu_arch
    flags = [
        "--driver-mode=g++",
        "-x",
        "cuda",
        "--cuda-host-only",
        "-nocudainc",
        "-nocudalib",
        "-Wno-unknown-cuda-version",
        "-Xclang",
        "-fcuda-allow-variadic-functions",
        f"-std={opts.std}",
        opts.opt_level,
        "-fPIC",
        f"-D__NPU_ARCH__={arch.number}",
        f"-D__CCE_AICORE__={arch.cce_aicore}",
    ]
    if opts.core_macro:
        flags.append(f"-D{opts.core_macro}=1")
    if opts.debug_flag:
        flags.append(opts.debug_flag)
    # CANN's host libraries (graph_base, register, tiling_api) use libstdc++'s old ABI, and a
    # CANN sample's host code that calls them builds with bisheng's defaults; the user's own
    # -D_GLIBCXX_USE_CXX11_ABI (in extra_flags, later) still wins.
    flags.append(f"-D_GLIBCXX_USE_CXX11_ABI={CANN_CXX11_ABI}")
    flags += list(opts.extra_flags)
    flags += include_flags(opts, res)
    # CUDA mode puts clang's cuda_wrappers/ (<algorithm>, <cmath>, <complex>, <new> rewritten for
    # CUDA's runtime macros) in front of the C++ library; kernel code including them would not
    # parse. Drop the builtin include dirs and add the plain resource headers back after the
    # system ones (nothing there shadows a libstdc++/glibc header that needs to win).
    resource = clang_resource_dir(tools)
    if resource:
        flags += ["-nobuiltininc", "-idirafter", os.path.join(resource, "include")]
    return flags


def prelude(res: ResourceDirs) -> list:
    return ["-include", os.path.join(res.asc_include, PRELUDE_HEADER)]


def kernel_attrs(res: ResourceDirs) -> list:
    """Forced after the prelude or the prefix: never part of a PCH (see the header)."""
    return ["-include", os.path.join(res.asc_include, KERNEL_ATTRS_HEADER)]


def include_flags(opts: Options, res: ResourceDirs) -> list:
    flags = list(opts.preprocessor_flags) + ["-isystem", res.asc_include]
    if res.abi_include != res.asc_include:
        flags += ["-isystem", res.abi_include]
    for d in res.host_includes:
        flags += ["-isystem", d]
    return flags


def prefix_maps(res: ResourceDirs, workdir: str) -> list:
    maps = [(workdir, MAPPED_WORKDIR), (res.asc_include, MAPPED_ASC_INCLUDE)]
    if res.abi_include != res.asc_include:
        maps.append((res.abi_include, MAPPED_ABI_INCLUDE))
    maps.append((os.getcwd(), "."))
    return [f"-ffile-prefix-map={src}={dst}" for src, dst in maps]
