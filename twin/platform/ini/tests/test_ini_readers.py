"""The C++ (ini_file.cc, through ini_dump) and Python (ascend_ini) ini readers agree byte for
byte on what a file holds and on the one-line error for each malformed file."""

from __future__ import annotations

import os
import random
import subprocess
from pathlib import Path

import pytest

from ascend_ini import IniError, parse_ini, read_ini

INI_DUMP = os.environ["INI_DUMP"]
PLATFORM = Path(INI_DUMP).parent


def cpp_read(path: Path):
    """What the C++ reader returns: sections, or ("error", message)."""
    proc = subprocess.run([INI_DUMP, str(path)], capture_output=True, text=True)
    lines = proc.stdout.splitlines()
    if proc.returncode != 0:
        assert len(lines) == 1 and lines[0].startswith("error\t"), proc.stdout + proc.stderr
        return "error", lines[0][len("error\t") :]
    sections: dict = {}
    for line in lines:
        section, key, value = line.split("\t")
        sections.setdefault(section, {})[key] = value
    return sections


def py_read(path: Path):
    try:
        sections = read_ini(path)
    except IniError as exc:
        return "error", str(exc)
    return {name: keys for name, keys in sections.items() if keys}  # ini_dump prints keys only


def test_every_platform_config_reads_the_same() -> None:
    inis = sorted(PLATFORM.glob("*.ini"))
    assert len(inis) >= 7
    for ini in inis:
        sections = read_ini(ini)
        assert sections["version"]["SoC_version"] == ini.stem
        assert sections["version"]["NpuArch"].isdigit()
        assert cpp_read(ini) == py_read(ini), ini


def test_vendors_config_without_a_section(tmp_path: Path) -> None:
    path = tmp_path / "config.ini"
    path.write_text("# CANN writes no section header\nload_priority=customize, mdc\n")
    assert read_ini(path) == {"": {"load_priority": "customize, mdc"}}
    assert cpp_read(path) == py_read(path)


def _random_ini(rng: random.Random) -> str:
    lines = []
    for s in range(rng.randrange(0, 4)):
        lines.append(rng.choice(["", "; comment", "# note", "   "]))
        lines.append(f"{rng.choice(['', '  '])}[sec_{s}{rng.choice(['', ' x'])}]{rng.choice(['', ' '])}")
        for k in range(rng.randrange(0, 5)):
            value = "".join(rng.choice("abcXYZ019 ,.=-_/") for _ in range(rng.randrange(0, 12)))
            indent, space, end = rng.choice(["", " ", "\t"]), rng.choice(["", " "]), rng.choice(["", "\r"])
            lines.append(f"{indent}Key_{k}{space}={value}{end}")
    return "\n".join(lines) + rng.choice(["", "\n"])


def test_random_files_read_the_same(tmp_path: Path) -> None:
    seed = int(os.environ.get("GE_TWIN_TEST_SEED", random.randrange(2**32)))
    print(f"[seed] GE_TWIN_TEST_SEED={seed}")
    rng = random.Random(seed)
    path = tmp_path / "random.ini"
    for _ in range(150):
        text = _random_ini(rng)
        path.write_text(text)
        assert cpp_read(path) == py_read(path), text


@pytest.mark.parametrize(
    "text, line, message",
    [
        ("[version]\nNpuArch\n", 2, "expected '[section]' or 'key=value', got 'NpuArch'"),
        ("[version\nNpuArch=1\n", 1, "section header '[version' does not end with ']'"),
        ("[ ]\n", 1, "empty section name"),
        ("[a]\nk=1\n[a]\n", 3, "section [a] appears twice"),
        ("[a]\nk=1\nk = 2\n", 3, "key 'k' appears twice in [a]"),
        ("load_priority=a\nload_priority=b\n", 2, "key 'load_priority' appears twice in the file"),
        ("[a]\n = 3\n", 2, "'= 3' has no key before '='"),
        ("[a]\n" + "x" * 100 + "\n", 2, "expected '[section]' or 'key=value', got '" + "x" * 60 + "...'"),
    ],
)
def test_malformed_files_fail_with_the_same_line(tmp_path: Path, text: str, line: int, message: str) -> None:
    path = tmp_path / "bad.ini"
    path.write_text(text)
    expected = f"{path}:{line}: {message}"
    assert py_read(path) == ("error", expected)
    assert cpp_read(path) == ("error", expected)
    with pytest.raises(IniError):
        parse_ini(text, str(path))


def test_unreadable_and_non_utf8_files(tmp_path: Path) -> None:
    missing = tmp_path / "missing.ini"
    assert py_read(missing) == ("error", f"cannot read '{missing}': No such file or directory")
    assert cpp_read(missing) == py_read(missing)
    binary = tmp_path / "binary.ini"
    binary.write_bytes(b"[a]\nk=\xff\xfe\n")
    assert py_read(binary) == ("error", f"{binary}: not UTF-8 (byte 6)")
