"""The device binary from device objects, and the host object that embeds and registers it.

Used by a plain compile (one device object, compile.py) and by the device link of `-dc`
objects (several, rdc.py)."""

import dataclasses
import hashlib
import os
import re
import subprocess
import sys
from typing import Callable, Optional

from . import codegen, host_init
from .errors import BishengError
from .toolchain import ResourceDirs, Tools


def _relay(stderr: bytes, relay: Optional[Callable]) -> None:
    if relay is not None:
        relay(stderr)
    else:
        sys.stderr.buffer.write(stderr)
        sys.stderr.flush()


def _without_host_initialisers(tools: Tools, workdir: str, objects: list, run) -> tuple:
    """Copies of the device objects without their constructor/destructor tables (host_init.py):
    the initialiser functions and the host globals they alone reference are then unreferenced
    and dropped by --gc-sections, so the image has no DT_INIT_ARRAY. Returns (objects, the
    variables those initialisers write)."""
    out: list = []
    variables: list = []
    for n, obj in enumerate(objects):
        found = host_init.scan(obj)
        if not found.has_tables:
            out.append(obj)
            continue
        variables += found.variables
        stripped = os.path.join(workdir, f"device_noinit_{n}.o")
        cmd = [tools.objcopy, "--wildcard"]
        for prefix in host_init.INIT_TABLE_PREFIXES:
            cmd += [f"--remove-section={prefix}", f"--remove-section={prefix}.*"]
        proc = run(
            cmd + [obj, stripped], "objcopy (host initialisers)", stdin=subprocess.DEVNULL, stderr=subprocess.PIPE
        )
        if proc.returncode != 0:
            raise BishengError(
                "internal error: cannot drop the host initialisers from the device object: "
                + proc.stderr.decode(errors="replace").strip()
            )
        out.append(stripped)
    return out, list(dict.fromkeys(variables))


def _refuse_initialised_globals_in_kernels(tools: Tools, device_so: str, variables: list, what: str, run) -> None:
    """A variable written by a host initialiser that survived --gc-sections is used by device
    code: it would be zeroed storage there (CANN: device code cannot use host variables)."""
    proc = run(
        [tools.nm, "--defined-only", "--format=just-symbols", device_so],
        "llvm-nm (host globals)",
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    if proc.returncode != 0:
        raise BishengError(
            "internal error: cannot list the device binary's symbols: " + proc.stderr.decode(errors="replace").strip()
        )
    defined = set(proc.stdout.decode(errors="replace").split())
    used = [v for v in variables if v in defined]
    if not used:
        return
    names = [re.sub(r"\.\d+$", "", v) for v in used]  # clang's suffix for a renamed internal symbol
    if tools.cxxfilt:
        shown = run(
            [tools.cxxfilt],
            "llvm-cxxfilt (host globals)",
            input="\n".join(names).encode(),
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        if shown.returncode == 0:
            names = shown.stdout.decode(errors="replace").split("\n")[: len(used)]
    listing = ", ".join(f"'{n}'" for n in names)
    raise BishengError(
        f"device code in {what} uses host variable {listing}, which has a dynamic initializer "
        "(a constructor run at program start): it is not initialised on the AI core; make it "
        "constexpr, or pass the data to the kernel in global memory"
    )


def link(
    tools: Tools, workdir: str, objects: list, kernel_names: list, run, what: str, relay: Optional[Callable] = None
) -> str:
    """device.so exporting exactly the ABI symbols of kernel_names. -nostartfiles: no crti /
    crtbegin, so no DT_INIT/DT_FINI; no constructor tables from the objects either (see
    _without_host_initialisers), so no INIT_ARRAY/FINI_ARRAY (the runtime refuses images that would run
    code when loaded); --gc-sections drops the host code compiled along."""
    objects, initialised = _without_host_initialisers(tools, workdir, objects, run)
    exports = os.path.join(workdir, "exports.map")
    with open(exports, "w", encoding="utf-8") as f:
        f.write(codegen.version_script(kernel_names))
    device_so = os.path.join(workdir, "device.so")
    cmd = [
        tools.clang,
        "--driver-mode=g++",
        "-shared",
        "-nostartfiles",
        "-fPIC",
        "-fuse-ld=lld",
        f"--ld-path={tools.lld}",
        *objects,
        "-o",
        device_so,
        f"-Wl,--version-script={exports}",
        "-Wl,-z,defs",
        "-Wl,-z,now",
        "-Wl,--gc-sections",
        "-Wl,-z,noexecstack",
        "-Wl,--build-id=sha1",
        "-Wl,--hash-style=gnu",
    ]
    proc = run(cmd, "device link", stdin=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _relay(proc.stderr, relay)
    if proc.returncode != 0:
        raise BishengError(f"linking the device binary for {what} failed", proc.returncode)
    if initialised:
        _refuse_initialised_globals_in_kernels(tools, device_so, initialised, what, run)
    return device_so


def export_local_stubs(tools: Tools, workdir: str, host_code: str, tag_source: str, kernels: list, run) -> list:
    """Static and anonymous-namespace kernels have local stubs, which the registration object
    cannot name: give each a global name unique to its device code (sha256 of `tag_source`, so
    two objects with a `static` kernel of the same name still link), in host_code itself."""
    local = [k for k in kernels if k.local]
    if not local:
        return kernels
    with open(tag_source, "rb") as f:
        tag = hashlib.sha256(f.read()).hexdigest()[:16]
    renamed = {k.stub: f"{k.stub}.asc_twin.{tag}" for k in local}
    cmd = [tools.objcopy] + [f"--redefine-sym={old}={new}" for old, new in renamed.items()]
    cmd += [f"--globalize-symbol={old}" for old in renamed] + [host_code]  # matched before renaming
    proc = run(cmd, "objcopy (local kernels)", stdin=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if proc.returncode != 0:
        raise BishengError(
            "internal error: cannot export the stubs of static kernels: " + proc.stderr.decode(errors="replace").strip()
        )
    return [dataclasses.replace(k, stub=renamed[k.stub]) if k.local else k for k in kernels]


def registration_object(
    tools: Tools,
    res: ResourceDirs,
    workdir: str,
    host_objects: list,
    device_so: str,
    kernels: list,
    infos: list,
    run,
    compiled: bool = False,
) -> str:
    """host.o: the host objects merged (ld -r) with a generated TU that embeds device_so in
    .aicore_binary and registers its kernels from a static constructor. compiled: workdir holds
    that TU's register.o already (the device cache's, for the same device binary)."""
    reg = os.path.join(workdir, "register.cpp")
    with open(reg, "w", encoding="utf-8") as f:
        f.write(codegen.registration_source(device_so, kernels, infos))
    reg_obj = os.path.join(workdir, "register.o")
    cmd = [
        tools.clang,
        "--driver-mode=g++",
        "-x",
        "c++",
        "-std=c++17",
        "-O2",
        "-fPIC",
        "-g0",
        "-w",
        "-isystem",
        res.asc_include,
        "-c",
        reg,
        "-o",
        reg_obj,
    ]
    proc = None if compiled else run(cmd, "registration compile", stdin=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if proc is not None and proc.returncode != 0:
        sys.stderr.buffer.write(proc.stderr)
        raise BishengError("internal error: compiling the kernel registration failed", proc.returncode)
    if not host_objects:
        return reg_obj
    merged = os.path.join(workdir, "host.o")
    proc = run(
        [tools.lld, "-r", *host_objects, reg_obj, "-o", merged],
        "merge (ld -r)",
        stdin=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    if proc.returncode != 0:
        sys.stderr.buffer.write(proc.stderr)
        raise BishengError("internal error: merging the host object failed", proc.returncode)
    return merged
