"""SoC -> NpuArch for the SoCs twin/platform has a config for.

The rule checks this table at analysis time (an unknown SoC fails before anything runs) and
soc_params.py checks it again against the ini's `[version] NpuArch` in the action, so the two
cannot drift apart silently. tests/test_soc_table.py also compares them.
"""

DEFAULT_SOC = "Ascend910B1"

SOC_NPU_ARCH = {
    "Ascend910B1": 2201,
    "Ascend910B2": 2201,
    "Ascend910B3": 2201,
    "Ascend910B4": 2201,
    "Ascend310P3": 2002,
    "Ascend310B1": 3002,
    "Ascend950PR_9599": 3510,
}

def npu_arch_flag(npu_arch):
    return "dav-%d" % npu_arch
