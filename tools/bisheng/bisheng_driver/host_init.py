"""Host initialisers in a device object (an x86-64 ELF relocatable object).

The device pass compiles the whole source as C++, so a source with host globals that have
constructors (`#include <iostream>`'s ios_base::Init, `std::vector<float> g(16);`, a static
std::string) yields a device object with constructor tables (.init_array, ...). On CANN the
device pass keeps only device code: those initialisers must not reach the device binary. This
module finds the tables and the variables their code writes (read straight from the ELF, no
tool run), so that device_binary.py can drop the tables and refuse a kernel that uses such a
variable (it would see zeroed storage)."""

import struct
from dataclasses import dataclass

# Sections that make a loaded image run code: static constructors and destructors.
INIT_TABLE_PREFIXES = (".init_array", ".fini_array", ".preinit_array", ".ctors", ".dtors")

_SHT_SYMTAB, _SHT_RELA, _SHT_NOBITS = 2, 4, 8
_SHF_WRITE = 0x1
_STT_SECTION = 3
_SHN_LORESERVE = 0xFF00
# Zero-filled sections of one variable each (-fdata-sections), named after it: a variable with a
# dynamic initializer has no constant one, so its storage is zero-filled until the initialiser
# runs (a variable the initialisers only read, with a constant value, lives in .data).
_ZEROED_PREFIXES = (".bss.", ".tbss.")
# Not the user's variables: guard variables (_ZGV), and the C++ library's own in namespace std
# (<iostream>'s ios_base::Init object), which no kernel can name.
_NOT_USERS = ("_ZGV", "_ZSt", "_ZNSt")


@dataclass(frozen=True)
class HostInit:
    has_tables: bool  # the object has constructor/destructor tables
    variables: tuple  # symbols of the writable variables the initialiser code references


def _is_table(name: str) -> bool:
    return any(name == p or name.startswith(p + ".") for p in INIT_TABLE_PREFIXES)


def scan(path: str) -> HostInit:
    with open(path, "rb") as f:
        data = f.read()
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        return HostInit(False, ())  # not ELF64 little-endian: nothing we can say
    (shoff,) = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    sections = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize) for i in range(shnum)]
    names_at = sections[shstrndx][4]

    def cstr(offset: int) -> str:
        return data[offset : data.index(b"\0", offset)].decode("utf-8", errors="replace")

    names = [cstr(names_at + s[0]) for s in sections]
    tables = [i for i, n in enumerate(names) if _is_table(n)]
    if not tables:
        return HostInit(False, ())
    symtab = next((i for i, s in enumerate(sections) if s[1] == _SHT_SYMTAB), None)
    if symtab is None:
        return HostInit(True, ())
    _, _, _, _, sym_off, sym_size, strtab, _, _, sym_ent = sections[symtab]
    str_at = sections[strtab][4]
    symbols = []  # (name, type, section index)
    for k in range(sym_size // sym_ent):
        st_name, st_info, _, st_shndx = struct.unpack_from("<IBBH", data, sym_off + k * sym_ent)
        symbols.append((cstr(str_at + st_name), st_info & 0xF, st_shndx))

    def targets(section_index: int) -> set:
        """Sections referenced by the relocations that apply to section_index."""
        out = set()
        for _, sh_type, _, _, off, size, link, info, _, ent in sections:
            if sh_type != _SHT_RELA or info != section_index or link != symtab:
                continue
            for r in range(size // ent):
                (r_info,) = struct.unpack_from("<Q", data, off + r * ent + 8)
                shndx = symbols[r_info >> 32][2]
                if 0 < shndx < _SHN_LORESERVE:
                    out.add(shndx)
        return out

    init_code = set().union(*(targets(t) for t in tables))
    written = set().union(*(targets(c) for c in init_code)) if init_code else set()
    variables = []
    for idx in sorted(written):
        flags = sections[idx][2]
        sh_type, flags = sections[idx][1], sections[idx][2]
        if sh_type != _SHT_NOBITS or not flags & _SHF_WRITE or not names[idx].startswith(_ZEROED_PREFIXES):
            continue  # code, constants, or a shared .bss whose variables cannot be told apart
        for name, kind, shndx in symbols:
            if shndx == idx and kind != _STT_SECTION and name and not name.startswith(_NOT_USERS):
                variables.append(name)
    return HostInit(True, tuple(dict.fromkeys(variables)))
