"""libascendcl.so's initial-exec TLS is relocated to the variables it names.

gold (the toolchain's linker) writes the dynamic relocation of a *local* initial-exec TLS
variable in a shared library against the wrong dynamic symbol, so the address the loader computes
is the library's TLS base plus nothing: in-process, the block slot that kernel entries write
(launch.cc) then overlaid other thread-local variables of the runtime. Every R_X86_64_TPOFF64
relocation of the library must therefore name its symbol, and the block slot must be one of them.

Env: ASCENDCL_LIB (the built libascendcl.so).
"""

from __future__ import annotations

import os
import re
import subprocess

from acl_ctypes import resolve

SLOT = "__asc_twin_block_slot"


def readelf(*args: str) -> str:
    return subprocess.run(
        ["readelf", "-W", *args, resolve(os.environ["ASCENDCL_LIB"])], check=True, capture_output=True, text=True
    ).stdout


def tpoff_relocations() -> list[str]:
    return [line for line in readelf("-r").splitlines() if "R_X86_64_TPOFF64" in line]


def test_every_initial_exec_relocation_names_its_symbol() -> None:
    relocs = tpoff_relocations()
    assert relocs, "libascendcl.so has no initial-exec TLS relocation: where is the block slot?"
    for line in relocs:
        # offset, info, type, symbol value, symbol name + addend
        fields = line.split()
        assert len(fields) >= 6 and not fields[4].startswith("<"), f"TPOFF64 relocation against no symbol: {line}"


def test_the_block_slot_is_an_exported_tls_symbol_relocated_by_name() -> None:
    assert any(SLOT in line for line in tpoff_relocations()), f"no TPOFF64 relocation names {SLOT}"
    dynsym = [line for line in readelf("--dyn-syms").splitlines() if re.search(rf"\b{SLOT}\b", line)]
    assert dynsym and all(" TLS " in line and " GLOBAL " in line for line in dynsym), dynsym
