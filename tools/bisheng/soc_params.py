"""Bazel helper: read twin/platform/<SoC>.ini and write the bisheng response file
`--npu-arch=dav-<NpuArch>`, failing if the ini disagrees with what the rule expected.

usage: soc_params.py SOC INI EXPECTED_NPU_ARCH OUT
"""

import configparser
import os
import sys


def npu_arch_of(soc: str, ini_path: str) -> int:
    parser = configparser.ConfigParser(interpolation=None)
    parser.optionxform = str          # CANN keys are case-sensitive (NpuArch, SoC_version)
    try:
        with open(ini_path, encoding="utf-8") as f:
            parser.read_file(f)
    except (OSError, configparser.Error) as e:
        raise SystemExit(f"soc_params: error: cannot read SoC config '{ini_path}': {e}")
    version = parser["version"] if parser.has_section("version") else {}
    declared = version.get("SoC_version")
    if declared != soc:
        raise SystemExit(f"soc_params: error: '{ini_path}' describes SoC_version={declared}, not {soc}")
    raw = version.get("NpuArch")
    if raw is None or not raw.strip().isdigit():
        raise SystemExit(f"soc_params: error: '{ini_path}' has no decimal [version] NpuArch (got {raw!r})")
    return int(raw)


def main(argv: list) -> int:
    if len(argv) != 4:
        raise SystemExit(__doc__.strip().splitlines()[-1])
    soc, ini_path, expected, out = argv
    arch = npu_arch_of(soc, ini_path)
    if arch != int(expected):
        raise SystemExit(
            f"soc_params: error: {ini_path} says NpuArch={arch} but tools/bisheng/soc_table.bzl "
            f"maps {soc} to {expected}; update the table")
    tmp = out + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(f"--npu-arch=dav-{arch}\n")
    os.replace(tmp, out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
