"""NPU architectures bisheng knows: the `--npu-arch` names, the legacy
`--cce-aicore-arch` spellings, and the macros each one defines."""

from dataclasses import dataclass

from .errors import BishengError


@dataclass(frozen=True)
class NpuArch:
    flag: str  # canonical --npu-arch spelling, e.g. "dav-2201"
    number: int  # __NPU_ARCH__, e.g. 2201
    cce_aicore: int  # __CCE_AICORE__, e.g. 220
    products: str  # what it is, for --help style listings


KNOWN_ARCHES = {
    a.flag: a
    for a in (
        NpuArch("dav-2201", 2201, 220, "Atlas A2/A3: Ascend910B, Ascend910_93"),
        NpuArch("dav-2002", 2002, 200, "Atlas inference: Ascend310P"),
        NpuArch("dav-3002", 3002, 300, "Atlas 200I/500 A2: Ascend310B"),
        NpuArch("dav-3510", 3510, 310, "Ascend950"),
    )
}

# Old ccec/bisheng `--cce-aicore-arch` names -> the --npu-arch they build for.
# Value: (canonical flag, core-type macro the old compiler defined).
LEGACY_ARCHES = {
    "dav-c220-vec": ("dav-2201", "__DAV_C220_VEC__"),
    "dav-c220-cube": ("dav-2201", "__DAV_C220_CUBE__"),
    "dav-m200": ("dav-2002", "__DAV_M200__"),
    "dav-m200-vec": ("dav-2002", "__DAV_M200_VEC__"),
    "dav-m300": ("dav-3002", "__DAV_M300__"),
    "dav-c310-vec": ("dav-3510", "__DAV_C310_VEC__"),
    "dav-c310-cube": ("dav-3510", "__DAV_C310_CUBE__"),
}


def known_arch_list() -> str:
    return ", ".join(sorted(KNOWN_ARCHES))


def resolve_npu_arch(name: str) -> NpuArch:
    """--npu-arch=<name> -> NpuArch, or a one-line error listing what is known."""
    arch = KNOWN_ARCHES.get(name)
    if arch is None:
        raise BishengError(f"unsupported NPU architecture '{name}' in '--npu-arch={name}'; known: {known_arch_list()}")
    return arch


def resolve_legacy_arch(name: str) -> tuple[NpuArch, str]:
    """--cce-aicore-arch=<name> -> (NpuArch, core-type macro)."""
    entry = LEGACY_ARCHES.get(name)
    if entry is None:
        raise BishengError(
            f"unsupported NPU architecture '{name}' in '--cce-aicore-arch={name}'; "
            f"known: {', '.join(sorted(LEGACY_ARCHES))} (or --npu-arch={{{known_arch_list()}}})"
        )
    return KNOWN_ARCHES[entry[0]], entry[1]
