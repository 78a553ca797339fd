"""Outputs of the ascendc_kernel Bazel rule (paths come from the BUILD file's env).

Run by the Bazel target :ascendc_kernel_test only (hence not named test_*.py: a plain
`pytest tools/bisheng/tests` has no rule outputs to read)."""

import os
import sys

# Helpers live beside the tests (Bazel imports this file as a package module).
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from device_meta import elf_of, meta_lines

from bisheng_driver.elf_file import EM_X86_64, ET_DYN


def read(env_name: str) -> bytes:
    """A rule output named by the BUILD file as a runfiles-relative path."""
    path = os.path.join(os.environ["TEST_SRCDIR"], os.environ["TEST_WORKSPACE"], os.environ[env_name])
    with open(path, "rb") as f:
        return f.read()


def test_default_soc_kernel_is_a_device_binary_for_the_configured_arch():
    device = read("ADD_KERNEL")
    elf = elf_of(device)
    assert (elf.e_type, elf.e_machine) == (ET_DYN, EM_X86_64)
    arch = os.environ["EXPECTED_NPU_ARCH"]
    assert meta_lines(device) == [
        "abi=3",
        f"npu_arch={arch}",
        f"npu_arch_flag=dav-{arch}",
        "kernel=add_custom",
        "kernel=scale_shift",
    ]
    assert elf.exported_symbols() == {
        "__asc_twin_info_add_custom",
        "__asc_twin_entry_add_custom",
        "__asc_twin_info_scale_shift",
        "__asc_twin_entry_scale_shift",
    }


def test_aicore_o_is_exactly_the_host_objects_section():
    assert elf_of(read("ADD_KERNEL_HOST")).section_bytes(".aicore_binary") == read("ADD_KERNEL")


def test_soc_attribute_overrides_the_define():
    assert meta_lines(read("ADD_KERNEL_310P"))[1:3] == ["npu_arch=2002", "npu_arch_flag=dav-2002"]


def test_meta_output_is_the_binarys_meta_section():
    meta = read("ADD_KERNEL_META")
    assert meta == elf_of(read("ADD_KERNEL")).section_bytes(".ascend.meta")
    assert meta.split(b"\0", 1)[0].decode().splitlines()[-2:] == ["kernel=add_custom", "kernel=scale_shift"]


def test_cache_key_output_is_the_key_for_the_soc_and_arch():
    import json

    arch = int(os.environ["EXPECTED_NPU_ARCH"])
    report = json.loads(read("ADD_KERNEL_CACHE_KEY"))
    assert report["scheme"] == "asc-twin-kernel-key/1" and len(report["key"]) == 64
    assert report["npu_arch"] == arch and report["flags"][0] == f"--npu-arch=dav-{arch}"
    assert "-Wall" not in report["flags"]  # copts that only change diagnostics are not in the key
    assert {"add_tiling.h", "kernel_operator.h"} <= {h["name"] for h in report["headers"]}
    # nothing in it names the sandbox: the same report from any output base or machine
    text = read("ADD_KERNEL_CACHE_KEY").decode()
    assert "sandbox" not in text and "execroot" not in text
    pinned = json.loads(read("ADD_KERNEL_310P_CACHE_KEY"))
    assert (pinned["soc"], pinned["npu_arch"]) == ("Ascend310P3", 2002)
    assert pinned["source_sha256"] == report["source_sha256"]
    assert (pinned["key"] == report["key"]) == (report["soc"] == "Ascend310P3")
