"""What every compile holder keeps between ``compile`` and ``declare_launch_args``.

GE calls ``compile`` once per new (shapes, dtypes) and ``declare_launch_args`` after it; the
holder must publish exactly what ``compile`` built, never build in ``declare_launch_args``, and
never launch a binary built for another SoC or NpuArch. ``KernelArtifacts`` holds that state:

    class MyOp:
        def __init__(self) -> None:
            self._kernels = KernelArtifacts("MyOp")

        def compile(self, x: Tensor, y: Tensor) -> None:
            self._kernels.build(compile_target(), key_of(x, y),
                                lambda soc, arch: build_kernel(SRC, soc=soc, npu_arch=arch).binary)

        def declare_launch_args(self, x: Tensor, y: Tensor) -> None:
            binary = self._kernels.get(key_of(x, y))
"""

import os
import threading
from pathlib import Path
from typing import Callable, Dict, Generic, Hashable, Optional, Tuple, TypeVar

Artifact = TypeVar("Artifact")
Target = Tuple[str, str]  # (SoC version, NpuArch digits)


def compile_target() -> Target:
    """(SoC, NpuArch) of the compile in progress, from GE's compile platform info; the arch as
    digits ("2201"), whether the ini spells it "2201" or "dav-2201". Call inside ``compile``."""
    from ge.custom_op import get_compile_platform_info

    platform = get_compile_platform_info()
    arch = str(platform.get_platform_resource("version", "NpuArch")).strip()
    return str(platform.get_soc_version()).strip(), arch[4:] if arch.startswith("dav-") else arch


def kernel_source(holder_file: str, file_name: str, override_env: str) -> Path:
    """The operator's kernel source: ``$override_env`` when set (tests feed a kernel that does not
    compile through it), else ``<op>/kernel/<file_name>`` for a holder at
    ``<op>/python/plugin/<holder>.py`` — the layout of an operator package under ops/."""
    override = os.environ.get(override_env)
    if override:
        return Path(override)
    return Path(holder_file).resolve().parent.parent.parent / "kernel" / file_name


class KernelArtifacts(Generic[Artifact]):
    """Artifacts per key for one target at a time, thread-safe; ``op_type`` names the errors."""

    def __init__(self, op_type: str) -> None:
        self._op_type = op_type
        self._lock = threading.RLock()
        self._target: Optional[Target] = None
        self._items: Dict[Hashable, Artifact] = {}

    def build(self, target: Target, key: Hashable, make: Callable[[str, str], Artifact]) -> bool:
        """Makes the artifact of ``key`` for ``target`` unless it exists; a new target first drops
        every artifact of the old one. Returns True when ``make`` ran."""
        with self._lock:
            if target != self._target:
                self._items.clear()
                self._target = target
            if key in self._items:
                return False
            self._items[key] = make(*target)
            return True

    def get(self, key: Hashable, what: Optional[str] = None) -> Artifact:
        """The artifact ``compile`` made for ``key``; a clear error when it made none (``what``
        describes the key in it, e.g. "shape [4096] dtype DT_FLOAT")."""
        with self._lock:
            if key in self._items:
                return self._items[key]
            target = self._target
        where = f" ({target[0]}, dav-{target[1]})" if target else ""
        raise RuntimeError(
            f"{self._op_type}: no kernel compiled for {what or key}{where}; compile() must run "
            "for these shapes first (declare_launch_args never compiles)"
        )

    def keys(self) -> list:
        with self._lock:
            return list(self._items)

    @property
    def target(self) -> Optional[Target]:
        with self._lock:
            return self._target

    def __len__(self) -> int:
        with self._lock:
            return len(self._items)
