"""`bisheng -dc`: relocatable device code, linked across objects when the program is linked.

With -dc a compile keeps its device code relocatable: the host object carries the device
object (section .aicore_rdc) and an index of its kernels (section .aicore_rdc_kernels, JSON:
arch, and per kernel its stub symbol, device name and parameter sizes) instead of a finished
device binary and its registration. A kernel may then call __aicore__ functions defined in
another -dc object. When bisheng links (no -c), it finds those sections in the objects it
links, links all device objects into one device binary (the "device link", like nvcc -rdc),
and adds one host object that embeds and registers it. Objects linked by another linker, or
inside archives, are not device-linked (their kernels are not registered).
"""

import json
import os
import subprocess

from . import codegen, device_binary
from .errors import BishengError

RDC_SECTION = ".aicore_rdc"
INDEX_SECTION = ".aicore_rdc_kernels"


def attach(tools, workdir: str, host_obj: str, device_obj: str, arch, kernels: list, infos: list, run) -> str:
    """The -dc output: host_obj plus the two sections (not loaded at run time)."""
    index = {
        "arch": arch.flag,
        "kernels": [
            {"stub": k.stub, "name": k.name, "spelled": k.spelled, "local": k.local, "sizes": i.sizes, "kinds": i.kinds}
            for k, i in zip(kernels, infos)
        ],
    }
    index_path = os.path.join(workdir, "rdc_index.json")
    with open(index_path, "w", encoding="utf-8") as f:
        json.dump(index, f, sort_keys=True)
    out = os.path.join(workdir, "host_rdc.o")
    proc = run(
        [
            tools.objcopy,
            f"--add-section={RDC_SECTION}={device_obj}",
            f"--add-section={INDEX_SECTION}={index_path}",
            host_obj,
            out,
        ],
        "objcopy (-dc sections)",
        stdin=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    if proc.returncode != 0:
        raise BishengError(
            "internal error: cannot attach the relocatable device code: " + proc.stderr.decode(errors="replace").strip()
        )
    return out


def _dump(tools, obj: str, section: str, dest: str, run) -> bool:
    proc = run(
        [tools.objcopy, f"--dump-section={section}={dest}", obj, dest + ".scratch"],
        "objcopy (-dc scan)",
        stdin=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    return proc.returncode == 0


def _names_section(obj: str, section: str) -> bool:
    """False only when `obj` cannot hold the section: its name is nowhere in the file (an ELF
    keeps section names in .shstrtab). Unreadable files go on to objcopy, which reports them."""
    try:
        with open(obj, "rb") as f:
            return section.encode() in f.read()
    except OSError:
        return True


def collect(tools, workdir: str, objects: list, run) -> list:
    """(device object path, index, object) of every -dc object among `objects`."""
    found = []
    for n, obj in enumerate(objects):
        if not _names_section(obj, INDEX_SECTION):
            continue  # no -dc object: spare the link an objcopy run per object
        index_path = os.path.join(workdir, f"rdc_{n}.json")
        if not _dump(tools, obj, INDEX_SECTION, index_path, run):
            continue  # not a -dc object (the section is missing)
        device_obj = os.path.join(workdir, f"rdc_{n}.o")
        if not _dump(tools, obj, RDC_SECTION, device_obj, run):
            raise BishengError(f"'{obj}' has a -dc kernel index but no device code (section {RDC_SECTION})")
        with open(index_path, encoding="utf-8") as f:
            found.append((device_obj, json.load(f), obj))
    return found


def device_link(tools, res, workdir: str, found: list, run) -> str:
    """The host object that embeds and registers the device binary of all -dc objects."""
    from .arch import resolve_npu_arch
    from .host_kernels import HostKernel
    from .param_info import ParamInfo

    arches = {index["arch"] for _, index, _ in found}
    if len(arches) > 1:
        listing = ", ".join(f"'{obj}' ({index['arch']})" for _, index, obj in found)
        raise BishengError(f"-dc objects for different NPU architectures cannot be linked together: {listing}")
    arch = resolve_npu_arch(arches.pop())
    kernels, infos = [], []
    for _, index, _ in found:
        for k in index["kernels"]:
            kernels.append(HostKernel(k["stub"], k["name"], k["spelled"], k["name"], False, "", k["local"]))
            infos.append(ParamInfo(k["sizes"], k["kinds"]))
    names = [k.name for k in kernels]
    duplicates = sorted({n for n in names if names.count(n) > 1})
    if duplicates:
        raise BishengError(f"kernel '{duplicates[0]}' is defined in more than one -dc object")
    meta_src = os.path.join(workdir, "rdc_meta.cpp")
    with open(meta_src, "w", encoding="utf-8") as f:
        f.write(codegen.meta_definition(arch, names))
    meta_obj = os.path.join(workdir, "rdc_meta.o")
    proc = run(
        [tools.clang, "--driver-mode=g++", "-x", "c++", "-fPIC", "-c", meta_src, "-o", meta_obj],
        "device link",
        stdin=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    if proc.returncode != 0:
        raise BishengError("internal error: compiling the device binary's meta section failed")
    device_so = device_binary.link(tools, workdir, [d for d, _, _ in found] + [meta_obj], names, run, "the -dc objects")
    return device_binary.registration_object(tools, res, workdir, [], device_so, kernels, infos, run)
