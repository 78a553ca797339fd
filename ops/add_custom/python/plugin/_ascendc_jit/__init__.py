"""Just-in-time build of Ascend C kernels for compile holders, as CANN users script it:
``bisheng -c <src> -o host.o --npu-arch=dav-<NpuArch> -I...`` then
``llvm-objcopy -O binary --only-section=.aicore_binary host.o k.aicore.o``, with a persistent,
content-addressed kernel cache (see tools/bisheng/README.md, "Kernel cache key") so a new process does not recompile.

The package name starts with ``_`` so the plugin loader (which imports every non-underscore module
of a plugin directory) does not treat it as a plugin; holders import it by name while the loader
has their directory on ``sys.path``. ``python3 -m _ascendc_jit.seed`` files a kernel built elsewhere
(Bazel's ``ascendc_kernel``) into the cache under its shared key.
"""

from .build import KernelBuild, KernelBuildError, build_kernel
from .kernel_cache import KernelCache, KernelCacheError, default_cache_dir
from .key_report import KeyReportError, read_key_report
from .toolchain import Toolchain, ToolchainError, find_toolchain

__all__ = ["KernelBuild", "KernelBuildError", "build_kernel", "KernelCache", "KernelCacheError",
           "default_cache_dir", "KeyReportError", "read_key_report", "Toolchain", "ToolchainError",
           "find_toolchain"]
