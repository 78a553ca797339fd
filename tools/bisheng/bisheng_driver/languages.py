"""Which language a source is compiled as, and whether it goes through the kernel pipeline
(compile.py) or is a plain C/C++ compile (plain.py); option checking asks the same question."""

C_EXTENSIONS = (".c",)
DEVICE_LANGUAGES = ("asc", "cce")
DEVICE_EXTENSIONS = (".asc", ".cce", ".cu")


def language_of(source: str, language) -> str:
    """'c' for a C source, else 'c++' (kernels are decided elsewhere)."""
    if language is not None:
        return "c" if language == "c" else "c++"
    return "c" if source.endswith(C_EXTENSIONS) else "c++"


def needs_device_pass(source: str, language, opts) -> bool:
    """Whether a source goes through the kernel pipeline (compile.py): Ascend C sources always,
    other C++ sources when an NPU architecture is given; C sources never."""
    if language_of(source, language) == "c":
        return False
    if language in DEVICE_LANGUAGES or (language is None and source.endswith(DEVICE_EXTENSIONS)):
        return True
    return opts.arch is not None
