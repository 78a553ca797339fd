"""Bazel helper: read twin/platform/<SoC>.ini and write the bisheng response file
`--npu-arch=dav-<NpuArch>`, failing if the ini disagrees with the build's SoC table (@soc_facts,
generated from the same file: a disagreement means the table is stale).

usage: soc_params.py SOC INI EXPECTED_NPU_ARCH OUT
"""

import os
import sys

from soc_ini import SocConfigError, npu_arch_of  # the twin's one ini reader (twin/platform/ini)


def main(argv: list) -> int:
    if len(argv) != 4:
        raise SystemExit(__doc__.strip().splitlines()[-1])
    soc, ini_path, expected, out = argv
    try:
        arch = npu_arch_of(soc, ini_path)
    except SocConfigError as exc:
        raise SystemExit(f"soc_params: error: {exc}")
    if arch != int(expected):
        raise SystemExit(
            f"soc_params: error: {ini_path} says NpuArch={arch} but the build's SoC table (@soc_facts) "
            f"maps {soc} to {expected}; run `bazel sync --only=soc_facts`"
        )
    tmp = out + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(f"--npu-arch=dav-{arch}\n")
    os.replace(tmp, out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
