"""The section table and symbols of an x86-64 ELF file, read in-process (a tool run per
compile — llvm-nm for the kernel stubs, llvm-objcopy for the embedded-binary check — costs more
than reading the few kilobytes it needs)."""

import struct
from dataclasses import dataclass
from typing import List, Optional

from .errors import BishengError

SHT_SYMTAB, SHT_NOBITS = 2, 8
SHF_EXECINSTR = 0x4
STB_LOCAL, STB_GLOBAL, STB_WEAK = 0, 1, 2
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
    section: int     # index into the section table (SHN_UNDEF when undefined)


class ElfFile:
    def __init__(self, path: str) -> None:
        with open(path, "rb") as f:
            self.data = f.read()
        if self.data[:4] != b"\x7fELF" or self.data[4] != 2 or self.data[5] != 1:
            raise BishengError(f"internal error: '{path}' is not a 64-bit little-endian ELF file")
        shoff, = struct.unpack_from("<Q", self.data, 0x28)
        shentsize, shnum, shstrndx = struct.unpack_from("<HHH", self.data, 0x3A)
        raw = [struct.unpack_from("<IIQQQQIIQQ", self.data, shoff + i * shentsize) for i in range(shnum)]
        names_at = raw[shstrndx][4] if shnum else 0
        self.sections: List[Section] = [
            Section(self._cstr(names_at + r[0]), r[1], r[2], r[4], r[5], r[6], r[9]) for r in raw]

    def _cstr(self, offset: int) -> str:
        return self.data[offset:self.data.index(b"\0", offset)].decode("utf-8", errors="replace")

    def section_bytes(self, name: str) -> Optional[bytes]:
        for s in self.sections:
            if s.name == name:
                return b"" if s.type == SHT_NOBITS else self.data[s.offset:s.offset + s.size]
        return None

    def symbols(self) -> List[Symbol]:
        """The symbol table in file order (empty without one)."""
        table = next((s for s in self.sections if s.type == SHT_SYMTAB), None)
        if table is None or not table.entsize:
            return []
        strings = self.sections[table.link].offset
        out = []
        for k in range(1, table.size // table.entsize):      # entry 0 is the null symbol
            st_name, st_info, _, st_shndx = struct.unpack_from("<IBBH", self.data, table.offset + k * table.entsize)
            out.append(Symbol(self._cstr(strings + st_name), st_info >> 4, st_info & 0xF, st_shndx))
        return out

    def defined_code_symbols(self) -> List[Symbol]:
        """Symbols defined in executable sections (llvm-nm's T, t, W), in file order."""
        return [s for s in self.symbols()
                if SHN_UNDEF < s.section < SHN_LORESERVE and self.sections[s.section].flags & SHF_EXECINSTR
                and s.binding in (STB_LOCAL, STB_GLOBAL, STB_WEAK)]
