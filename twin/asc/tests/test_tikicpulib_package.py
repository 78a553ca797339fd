"""find_package(tikicpulib) against a tree laid out as installed (the package under lib64/cmake,
the SoC inis under x86_64-linux/data/platform_config): CANN's product target names exist and
build for the right SoC and NpuArch; a broken ini is one clear CMake error."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

CONFIG = Path(os.environ["TIKICPULIB_CONFIG"])
INIS = [Path(p) for p in os.environ["PLATFORM_INIS"].split()]

PROJECT = """cmake_minimum_required(VERSION 3.16)
project(probe NONE)
find_package(tikicpulib REQUIRED PATHS "{root}/lib64/cmake" NO_DEFAULT_PATH)
foreach(t {targets})
  if(TARGET tikicpulib::${{t}})
    get_target_property(defs tikicpulib::${{t}} INTERFACE_COMPILE_DEFINITIONS)
    message(STATUS "TARGET ${{t}} ${{defs}}")
  else()
    message(STATUS "TARGET ${{t}} none")
  endif()
endforeach()
"""

# name -> (SoC it builds for, NpuArch)
EXPECTED = {
    "Ascend910B1": ("Ascend910B1", "2201"),
    "ascend910B1": ("Ascend910B1", "2201"),
    "ascend910b1": ("Ascend910B1", "2201"),
    "Ascend910B3": ("Ascend910B3", "2201"),
    "Ascend910B2C": ("Ascend910B1", "2201"),
    "Ascend910_9391": ("Ascend910B1", "2201"),
    "ascend310p": ("Ascend310P3", "2002"),
    "Ascend310P1": ("Ascend310P3", "2002"),
    "Ascend310P3": ("Ascend310P3", "2002"),
    "ascend310B1": ("Ascend310B1", "3002"),
    "Ascend310B4": ("Ascend310B1", "3002"),
    "Ascend950PR_9599": ("Ascend950PR_9599", "3510"),
}


def make_tree(tmp: Path, inis: list[Path]) -> Path:
    root = tmp / "root"
    (root / "lib64" / "cmake").mkdir(parents=True)
    shutil.copy(CONFIG, root / "lib64" / "cmake" / "tikicpulib-config.cmake")
    configs = root / "x86_64-linux" / "data" / "platform_config"
    configs.mkdir(parents=True)
    for ini in inis:
        shutil.copy(ini, configs / ini.name)
    return root


def configure(tmp: Path, root: Path, targets: list[str]) -> subprocess.CompletedProcess:
    project = tmp / "project"
    project.mkdir(exist_ok=True)
    (project / "CMakeLists.txt").write_text(PROJECT.format(root=root, targets=" ".join(targets)))
    return subprocess.run(["cmake", "-S", str(project), "-B", str(project / "build")], capture_output=True, text=True)


def test_cann_product_targets(tmp_path):
    root = make_tree(tmp_path, INIS)
    proc = configure(tmp_path, root, list(EXPECTED) + ["Ascend910A", "ascend910"])
    assert proc.returncode == 0, proc.stdout + proc.stderr
    seen = {}
    for line in proc.stdout.splitlines():
        if "TARGET " in line:
            name, _, defs = line.split("TARGET ", 1)[1].partition(" ")
            seen[name] = defs
    for name, (soc, arch) in EXPECTED.items():
        assert name in seen, proc.stdout
        assert f"__NPU_ARCH__={arch}" in seen[name], (name, seen[name])
        assert f'ASC_TWIN_CPU_SOC="{soc}"' in seen[name], (name, seen[name])
        assert "ASCENDC_CPU_DEBUG=1" in seen[name]
    # CANN's ascend910 group (NpuArch 1001) is not modelled.
    assert seen["Ascend910A"] == "none" and seen["ascend910"] == "none"


def test_ini_without_npu_arch_is_one_clear_error(tmp_path):
    broken = tmp_path / "Ascend910B1.ini"
    broken.write_text("[version]\nSoC_version=Ascend910B1\n")
    root = make_tree(tmp_path, [broken])
    proc = configure(tmp_path, root, ["Ascend910B1"])
    assert proc.returncode != 0
    message = " ".join(proc.stderr.split())  # CMake wraps long messages
    assert "tikicpulib: " in message and "Ascend910B1.ini has no NpuArch= line" in message, proc.stderr
