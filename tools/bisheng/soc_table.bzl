"""SoC -> NpuArch for the SoCs twin/platform has a config for, generated from the .ini files
(@soc_facts, tools/bisheng/soc_facts.bzl, by twin/platform/ini/soc_ini.py): rules check a SoC at
analysis time (an unknown SoC fails before anything runs). Nothing here repeats a SoC fact."""

load("@soc_facts//:soc_facts.bzl", GENERATED_SOC_NPU_ARCH = "SOC_NPU_ARCH")

DEFAULT_SOC = "Ascend910B1"

# SoC -> NpuArch, generated from twin/platform/<SoC>.ini (soc_facts.bzl).
SOC_NPU_ARCH = GENERATED_SOC_NPU_ARCH

def npu_arch_flag(npu_arch):
    return "dav-%d" % npu_arch
