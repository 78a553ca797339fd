"""The one reader of the twin's .ini files, for Python: SoC platform configs (<SoC>.ini) read by
ge, the runtime's table generator and bisheng's build rules. ini_file.cc is the C++ reader of the
same format; the format and its errors are described in twin/platform/README.md.
"""

from pathlib import Path
from typing import Dict, Union

Sections = Dict[str, Dict[str, str]]


class IniError(ValueError):
    """A file that cannot be read or is malformed; the message is one line naming it."""


def _shown(line: str) -> str:
    text = "".join("?" if ord(c) < 0x20 else c for c in line[:60])
    return text + "..." if len(line) > 60 else text


def parse_ini(text: str, source: str) -> Sections:
    """section -> key -> value; keys before any [section] line belong to the section ""."""
    sections: Sections = {}
    section = ""
    for number, raw in enumerate(text.split("\n"), start=1):
        where = f"{source}:{number}: "
        line = raw.strip(" \t\r")
        if not line or line[0] in ";#":
            continue
        if line[0] == "[":
            if line[-1] != "]":
                raise IniError(f"{where}section header '{_shown(line)}' does not end with ']'")
            section = line[1:-1].strip(" \t\r")
            if not section:
                raise IniError(f"{where}empty section name")
            if section in sections:
                raise IniError(f"{where}section [{section}] appears twice")
            sections[section] = {}
            continue
        key, eq, value = line.partition("=")
        if not eq:
            raise IniError(f"{where}expected '[section]' or 'key=value', got '{_shown(line)}'")
        key = key.strip(" \t\r")
        if not key:
            raise IniError(f"{where}'{_shown(line)}' has no key before '='")
        keys = sections.setdefault(section, {})
        if key in keys:
            raise IniError(f"{where}key '{key}' appears twice in " + (f"[{section}]" if section else "the file"))
        keys[key] = value.strip(" \t\r")
    return sections


def read_ini(path: Union[str, Path]) -> Sections:
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise IniError(f"cannot read '{path}': {exc.strerror}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise IniError(f"{path}: not UTF-8 (byte {exc.start})") from None
    return parse_ini(text, str(path))
