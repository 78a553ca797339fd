"""The twin's shared libraries use CANN's C++ ABI (_GLIBCXX_USE_CXX11_ABI=0).

A symbol compiled with the new ABI mentions cxx11: std::__cxx11::basic_string in its mangled
name ("NSt7__cxx1112basic_string...") or the [abi:cxx11] tag ("B5cxx11"). CANN users' code
cannot link such a symbol, so no dynamic symbol — exported or imported — may have one.
"""

import os
import re
import subprocess

import pytest

RUNFILES = os.environ["RUNFILES_DIR"]
WORKSPACE = os.path.join(RUNFILES, "ascend_twin")
READELF = os.path.join(RUNFILES, "llvm_toolchain", "bin", "llvm-readelf")


def _listed(name):
    with open(os.path.join(WORKSPACE, "tests", "abi", name)) as f:
        return [line.strip() for line in f if line.strip()]


LIBRARIES = _listed("shared_libraries.txt")
HEADERS = _listed("public_headers.txt")


def _readelf(*args):
    result = subprocess.run([READELF, "--wide", *args], capture_output=True, text=True)
    assert result.returncode == 0, f"llvm-readelf {' '.join(args)} failed: {result.stderr.strip()}"
    return result.stdout


def dynamic_symbols(path):
    """(name, defined) for every dynamic symbol."""
    symbols = []
    for line in _readelf("--dyn-syms", path).splitlines():
        cols = line.split()
        # Num: Value Size Type Bind Vis Ndx Name
        if len(cols) >= 8 and cols[0].rstrip(":").isdigit():
            symbols.append((cols[7].split("@")[0], cols[6] != "UND"))
    return symbols


@pytest.mark.parametrize("library", LIBRARIES)
def test_no_symbol_uses_the_cxx11_abi(library):
    symbols = dynamic_symbols(os.path.join(WORKSPACE, library))
    assert any(defined for _, defined in symbols), f"{library} exports nothing: wrong file?"
    exported = [name for name, defined in symbols if defined and "cxx11" in name]
    imported = [name for name, defined in symbols if not defined and "cxx11" in name]
    assert not exported, f"{library} exports {len(exported)} new-ABI symbols, e.g. {exported[:5]}"
    assert not imported, f"{library} imports {len(imported)} new-ABI symbols, e.g. {imported[:5]}"


@pytest.mark.parametrize("library", LIBRARIES)
def test_no_prebuilt_new_abi_cxx_library_is_needed(library):
    needed = re.findall(
        r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", _readelf("--dynamic", os.path.join(WORKSPACE, library))
    )
    assert needed, f"{library}: no NEEDED entries parsed"
    bad = [n for n in needed if n.startswith(("libprotobuf", "libgtest", "libgmock"))]
    assert not bad, f"{library} needs {bad}, built with the new libstdc++ ABI"


def test_public_headers_do_not_name_google():
    # CANN builds define google=ascend_private; a public header using `google` would break there.
    assert HEADERS
    offenders = []
    for header in HEADERS:
        with open(os.path.join(WORKSPACE, header), encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                if re.search(r"\bgoogle\b", line):
                    offenders.append(f"{header}:{number}: {line.strip()}")
    assert not offenders, "\n".join(offenders)
