"""Just-in-time build of Ascend C kernels for compile holders, as CANN users script it:
``bisheng -c <src> -o host.o --npu-arch=dav-<NpuArch> -I...`` then
``llvm-objcopy -O binary --only-section=.aicore_binary host.o k.aicore.o``, with a persistent,
content-addressed kernel cache (see tools/bisheng/README.md, "Kernel cache key") so a new process does not recompile.

Installed beside ``ge`` and ``acl`` (``python/site-packages/ascendc_jit``), so every compile
holder uses the same build and cache. ``KernelArtifacts`` is the per-holder part every holder
needs: device binaries per (shapes, dtypes) key, a lock, and clearing when the SoC or NpuArch
changes. ``python3 -m ascendc_jit.seed`` files a kernel built elsewhere (Bazel's
``ascendc_kernel``) into the cache under its shared key.

Nothing here is twin-specific: on CANN, ``bisheng`` has no ``--twin-cache-key`` and the cache keys
kernels by their depfile instead (see ``toolchain.py``).
"""

from .artifacts import KernelArtifacts, compile_target, kernel_source
from .build import KernelBuild, KernelBuildError, build_kernel
from .kernel_cache import KernelCache, KernelCacheError, default_cache_dir
from .key_report import KeyReportError, read_key_report
from .toolchain import Toolchain, ToolchainError, find_toolchain

__all__ = [
    "KernelArtifacts",
    "compile_target",
    "kernel_source",
    "KernelBuild",
    "KernelBuildError",
    "build_kernel",
    "KernelCache",
    "KernelCacheError",
    "default_cache_dir",
    "KeyReportError",
    "read_key_report",
    "Toolchain",
    "ToolchainError",
    "find_toolchain",
]
