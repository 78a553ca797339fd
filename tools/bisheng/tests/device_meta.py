"""The `.ascend.meta` lines of a device binary, for the tests (ELF read by the driver's own
reader, bisheng_driver.elf_file)."""

from bisheng_driver.elf_file import ElfFile


def elf_of(data: bytes, what: str = "test output") -> ElfFile:
    """An ELF file already read into memory (what names it in errors)."""
    return ElfFile(what, data)


def meta_lines(device_binary: bytes) -> list:
    """The `.ascend.meta` key=value lines, read as the runtime reads them."""
    text = elf_of(device_binary, "device binary").section_bytes(".ascend.meta").split(b"\0", 1)[0].decode()
    return [line for line in text.split("\n") if line]
