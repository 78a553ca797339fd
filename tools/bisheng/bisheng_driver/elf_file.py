"""The section table and symbols of an x86-64 ELF file, read in-process (a tool run per
compile — llvm-nm for the kernel stubs, llvm-objcopy for the embedded-binary check — costs more
than reading the few kilobytes it needs). The driver's tests read its outputs with it too."""

import struct
from dataclasses import dataclass
from typing import List, Optional

from .errors import BishengError

ET_REL, ET_DYN = 1, 3
EM_X86_64 = 62
SHT_SYMTAB, SHT_NOBITS, SHT_DYNSYM = 2, 8, 11
SHF_WRITE, SHF_ALLOC, SHF_EXECINSTR = 0x1, 0x2, 0x4
STB_LOCAL, STB_GLOBAL, STB_WEAK = 0, 1, 2
STV_DEFAULT = 0
SHN_UNDEF, SHN_LORESERVE = 0, 0xFF00


@dataclass(frozen=True)
class Section:
    name: str
    type: int
    flags: int
    offset: int
    size: int
    link: int
    entsize: int


@dataclass(frozen=True)
class Symbol:
    name: str
    binding: int
    kind: int
    section: int  # index into the section table (SHN_UNDEF when undefined)
    visibility: int  # STV_DEFAULT, ...


class ElfFile:
    def __init__(self, path: str, data: Optional[bytes] = None) -> None:
        """The file at path, or data (bytes already read; path then only names them)."""
        if data is None:
            with open(path, "rb") as f:
                data = f.read()
        self.data = data
        if self.data[:4] != b"\x7fELF" or self.data[4] != 2 or self.data[5] != 1:
            raise BishengError(f"internal error: '{path}' is not a 64-bit little-endian ELF file")
        self.e_type, self.e_machine = struct.unpack_from("<HH", self.data, 0x10)
        (shoff,) = struct.unpack_from("<Q", self.data, 0x28)
        shentsize, shnum, shstrndx = struct.unpack_from("<HHH", self.data, 0x3A)
        raw = [struct.unpack_from("<IIQQQQIIQQ", self.data, shoff + i * shentsize) for i in range(shnum)]
        names_at = raw[shstrndx][4] if shnum else 0
        self.sections: List[Section] = [
            Section(self._cstr(names_at + r[0]), r[1], r[2], r[4], r[5], r[6], r[9]) for r in raw
        ]

    def _cstr(self, offset: int) -> str:
        return self.data[offset : self.data.index(b"\0", offset)].decode("utf-8", errors="replace")

    def section(self, name: str) -> Section:
        """The one section of that name; KeyError when there is none or more than one."""
        matches = [s for s in self.sections if s.name == name]
        if len(matches) != 1:
            raise KeyError(f"{len(matches)} sections named {name}")
        return matches[0]

    def section_bytes(self, name: str) -> Optional[bytes]:
        for s in self.sections:
            if s.name == name:
                return b"" if s.type == SHT_NOBITS else self.data[s.offset : s.offset + s.size]
        return None

    def symbols(self, table_type: int = SHT_SYMTAB) -> List[Symbol]:
        """The symbol table (or with SHT_DYNSYM the dynamic one) in file order; empty without one."""
        table = next((s for s in self.sections if s.type == table_type), None)
        if table is None or not table.entsize:
            return []
        strings = self.sections[table.link].offset
        out = []
        for k in range(1, table.size // table.entsize):  # entry 0 is the null symbol
            st_name, st_info, st_other, st_shndx = struct.unpack_from(
                "<IBBH", self.data, table.offset + k * table.entsize
            )
            out.append(Symbol(self._cstr(strings + st_name), st_info >> 4, st_info & 0xF, st_shndx, st_other & 0x3))
        return out

    def exported_symbols(self) -> set:
        """Names of the defined, default-visibility global or weak dynamic symbols."""
        return {
            s.name
            for s in self.symbols(SHT_DYNSYM)
            if s.binding in (STB_GLOBAL, STB_WEAK) and s.visibility == STV_DEFAULT and s.section != SHN_UNDEF
        }

    def defined_code_symbols(self) -> List[Symbol]:
        """Symbols defined in executable sections (llvm-nm's T, t, W), in file order."""
        return [
            s
            for s in self.symbols()
            if SHN_UNDEF < s.section < SHN_LORESERVE
            and self.sections[s.section].flags & SHF_EXECINSTR
            and s.binding in (STB_LOCAL, STB_GLOBAL, STB_WEAK)
        ]
