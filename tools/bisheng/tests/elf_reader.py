"""A small ELF64 little-endian reader for the tests: sections and dynamic symbols,
independent of the LLVM tools the driver itself uses."""

import struct
from dataclasses import dataclass

SHF_ALLOC = 0x2
SHF_WRITE = 0x1
SHF_EXECINSTR = 0x4
ET_REL, ET_DYN = 1, 3
EM_X86_64 = 62
STB_GLOBAL, STB_WEAK = 1, 2
STV_DEFAULT = 0
SHN_UNDEF = 0


@dataclass
class Section:
    name: str
    type: int
    flags: int
    offset: int
    size: int
    data: bytes


@dataclass
class Symbol:
    name: str
    bind: int
    type: int
    visibility: int
    shndx: int


class Elf:
    def __init__(self, data: bytes) -> None:
        if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
            raise ValueError("not an ELF64 little-endian file")
        self.data = data
        (self.e_type, self.e_machine, _, _, _, shoff, _, _, _, _,
         shentsize, shnum, shstrndx) = struct.unpack_from("<HHIQQQIHHHHHH", data, 16)
        raw = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize) for i in range(shnum)]
        names = raw[shstrndx]
        strtab = data[names[4]:names[4] + names[5]]
        self.sections = []
        for (name_off, sh_type, flags, _, offset, size, *_rest) in raw:
            name = strtab[name_off:strtab.index(b"\0", name_off)].decode()
            body = b"" if sh_type == 8 else data[offset:offset + size]   # SHT_NOBITS
            self.sections.append(Section(name, sh_type, flags, offset, size, body))

    def section(self, name: str) -> Section:
        matches = [s for s in self.sections if s.name == name]
        if len(matches) != 1:
            raise KeyError(f"{len(matches)} sections named {name}")
        return matches[0]

    def dynamic_symbols(self) -> list:
        dynsym, dynstr = self.section(".dynsym").data, self.section(".dynstr").data
        out = []
        for off in range(24, len(dynsym), 24):   # entry 0 is the null symbol
            name_off, info, other, shndx, _, _ = struct.unpack_from("<IBBHQQ", dynsym, off)
            name = dynstr[name_off:dynstr.index(b"\0", name_off)].decode()
            out.append(Symbol(name, info >> 4, info & 0xF, other & 0x3, shndx))
        return out

    def exported_symbols(self) -> set:
        """Defined, default-visibility global/weak dynamic symbols."""
        return {s.name for s in self.dynamic_symbols()
                if s.bind in (STB_GLOBAL, STB_WEAK) and s.visibility == STV_DEFAULT
                and s.shndx != SHN_UNDEF}


def meta_lines(device_binary: bytes) -> list:
    """The `.ascend.meta` key=value lines, read as the runtime reads them."""
    text = Elf(device_binary).section(".ascend.meta").data.split(b"\0", 1)[0].decode()
    return [line for line in text.split("\n") if line]
