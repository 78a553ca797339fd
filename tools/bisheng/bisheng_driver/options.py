"""Parse the bisheng command line (the GCC/clang-style subset CANN users type)."""

import re
import shlex
from dataclasses import dataclass, field
from typing import Optional

from .arch import NpuArch, resolve_legacy_arch, resolve_npu_arch
from .errors import BishengError
from .languages import needs_device_pass

ACCEPTED_STDS = ("c++17", "c++20", "gnu++17", "gnu++20", "c++1z", "c++2a", "gnu++1z", "gnu++2a")
ACCEPTED_LANGS = ("asc", "cce", "c++", "c", "none")
# Any C++ standard clang knows, for plain C++ sources (plain.py); Ascend C sources need ACCEPTED_STDS.
CXX_STD_PATTERN = r"(c|gnu)\+\+(98|03|0x|11|1y|14|1z|17|2a|20|2b|23|26)"
# C standards, for C sources (plain.py), which bisheng compiles as a C compiler does.
C_STD_PATTERN = r"(c|gnu)(89|90|99|9x|11|1x|17|18|2x|23)|iso9899:(1990|199409|1999|2011|2017|2018)"
OPT_LEVELS = ("-O0", "-O1", "-O2", "-O3", "-Os", "-Oz")
DEBUG_FLAGS = ("-g", "-g0", "-g1", "-g2", "-g3", "-ggdb")
# Options that take a value, joined (-Idir) or separate (-I dir). Passed to clang as given.
PATH_OPTIONS = ("-I", "-isystem", "-iquote", "-idirafter", "-include")
MACRO_OPTIONS = ("-D", "-U")
# Accepted for compatibility; they steer the NPU back end, which has no meaning here.
NOOP_FLAGS = (
    "--cce-auto-sync",
    "--cce-auto-sync=on",
    "--cce-auto-sync=off",
    "-fPIC",
    "-fpic",
    "--cce-aicore-lang",
    "--asc-aicore-lang",
    "--cce-aicore-only",
    "-fPIE",
    "-fpie",
)
# Options of CANN's bisheng that steer the NPU back end (performance, simulator, sanitizers):
# accepted with a one-line note, since they cannot change what runs on the CPU twin.
NOTED_PREFIXES = ("--cce-", "--asc-", "--run-mode", "--enable-simt", "--sanitizer", "--npu-soc", "--cce-simd-vf-fusion")
NOTED_WITH_VALUE = ("-mllvm", "-Xaicore-start", "-Xaicore-end")
# Sources by extension; anything else is a linker input (objects, archives, shared libraries).
SOURCE_EXTENSIONS = (".asc", ".cpp", ".cc", ".cxx", ".cce", ".C", ".c++", ".cu", ".c")
LINK_INPUT_PATTERN = r"\.(o|a|so|lo)(\.[0-9]+)*$"
LINK_PASSTHROUGH = ("-pthread", "-rdynamic", "-static-libstdc++", "-static-libgcc", "-no-pie", "-pie")


@dataclass
class Options:
    source: Optional[str] = None
    output: Optional[str] = None
    compile_only: bool = False
    arch: Optional[NpuArch] = None
    arch_spelling: Optional[str] = None  # the arch option as typed, for messages
    core_macro: Optional[str] = None  # e.g. __DAV_C220_VEC__ for legacy spellings
    language: Optional[str] = None
    std: str = "c++17"
    c_std: Optional[str] = None  # -std= for C sources (-std=gnu11, ...)
    opt_level: str = "-O2"
    debug_flag: Optional[str] = None
    preprocessor_flags: list = field(default_factory=list)  # -I/-D/... in command-line order
    warning_flags: list = field(default_factory=list)
    dep_file: Optional[str] = None
    dep_mode: Optional[str] = None  # "-MD" or "-MMD"
    dep_targets: list = field(default_factory=list)  # (-MT|-MQ, target)
    dep_phony: bool = False  # -MP
    verbose: bool = False
    show_times: bool = False  # --time: per-phase wall times on stderr
    show_version: bool = False
    # twin extensions (kernel cache key, see cache_key.py)
    twin_cache_key: Optional[str] = None  # --twin-cache-key=FILE: write the key report
    twin_soc: Optional[str] = None  # --twin-soc=SOC: the SoC, part of the key
    twin_key_only: bool = False  # --twin-cache-key-only: report the key, compile nothing
    twin_aclrtlaunch_dir: Optional[str] = None  # --twin-aclrtlaunch-dir=DIR: write aclrtlaunch_<k>.h
    # whole-driver mode (several inputs, linking)
    inputs: list = field(default_factory=list)  # (path, language or None) in order
    link_flags: list = field(default_factory=list)  # -L/-l/-Wl,/-shared/... and objects, in order
    shared: bool = False  # -shared: link a shared library
    make_lib: bool = False  # -lib: archive the objects into a static library
    rdc: bool = False  # -dc: relocatable device code, device-linked by the link
    extra_flags: list = field(default_factory=list)  # -f... code generation flags passed to clang
    notes: list = field(default_factory=list)  # "accepted, no effect" notes, printed once

    # What parse_args guarantees once it returns for a build (not for --version): a compile has a
    # source, every build an output, a source with a device pass an NPU architecture. The passes
    # read them through these, typed without None; None here is a driver defect, named as such.
    @property
    def source_path(self) -> str:
        if self.source is None:
            raise BishengError("internal error: no source file to compile")
        return self.source

    @property
    def output_path(self) -> str:
        if self.output is None:
            raise BishengError("internal error: no output file")
        return self.output

    @property
    def publish_path(self) -> str:
        """The file a compile publishes first: the key report under --twin-cache-key-only, else the output."""
        path = self.twin_cache_key if self.twin_key_only else self.output
        if path is None:
            raise BishengError("internal error: no output file")
        return path

    @property
    def npu_arch(self) -> NpuArch:
        if self.arch is None:
            raise BishengError("internal error: no NPU architecture for the device pass")
        return self.arch


def _unsupported(arg: str, why: str = "") -> BishengError:
    return BishengError(f"unsupported option '{arg}'" + (f": {why}" if why else ""))


def _set_arch(opts: Options, arch: NpuArch, spelling: str, core_macro: Optional[str]) -> None:
    if opts.arch is not None and opts.arch != arch:
        raise BishengError(f"conflicting NPU architectures '{opts.arch_spelling}' and '{spelling}'")
    opts.arch, opts.arch_spelling, opts.core_macro = arch, spelling, core_macro


def expand_response_files(argv: list, depth: int = 0) -> list:
    """Replace each `@FILE` by the arguments it holds (shell-quoted, like clang)."""
    out = []
    for arg in argv:
        if not arg.startswith("@") or len(arg) == 1:
            out.append(arg)
            continue
        path = arg[1:]
        if depth > 8:
            raise BishengError(f"response file '{path}' nests too deeply")
        try:
            with open(path, encoding="utf-8") as f:
                text = f.read()
        except OSError as e:
            raise BishengError(f"cannot read response file '{path}': {e.strerror}")
        try:
            words = shlex.split(text, comments=False)
        except ValueError as e:
            raise BishengError(f"malformed response file '{path}': {e}")
        out += expand_response_files(words, depth + 1)
    return out


def parse_args(argv: list) -> Options:
    opts = Options()
    argv = expand_response_files(argv)
    i = 0

    def value_of(arg: str, name: str) -> str:
        """Value of `name` given as `name=V`, `nameV` or `name V`."""
        nonlocal i
        rest = arg[len(name) :]
        if rest.startswith("="):
            rest = rest[1:]
        if rest:
            return rest
        if i + 1 >= len(argv):
            raise BishengError(f"missing argument to '{name}'")
        i += 1
        return argv[i]

    while i < len(argv):
        arg = argv[i]
        if arg == "--version":
            opts.show_version = True
        elif arg == "-v":
            opts.verbose = True
        elif arg == "--time":
            opts.show_times = True
        elif arg == "-c":
            opts.compile_only = True
        elif arg.startswith("-o"):
            opts.output = value_of(arg, "-o")
        elif arg.startswith("--npu-arch"):
            name = value_of(arg, "--npu-arch")
            _set_arch(opts, resolve_npu_arch(name), f"--npu-arch={name}", None)
        elif arg.startswith("--cce-aicore-arch"):
            name = value_of(arg, "--cce-aicore-arch")
            arch, macro = resolve_legacy_arch(name)
            _set_arch(opts, arch, f"--cce-aicore-arch={name}", macro)
        elif arg.startswith("--twin-aclrtlaunch-dir"):
            opts.twin_aclrtlaunch_dir = value_of(arg, "--twin-aclrtlaunch-dir")
        elif arg == "--twin-cache-key-only":
            opts.twin_key_only = True
        elif arg.startswith("--twin-cache-key"):
            opts.twin_cache_key = value_of(arg, "--twin-cache-key")
        elif arg.startswith("--twin-soc"):
            opts.twin_soc = value_of(arg, "--twin-soc")
        elif arg.startswith("-x"):
            lang = value_of(arg, "-x")
            if lang not in ACCEPTED_LANGS:
                raise BishengError(f"unsupported language '{lang}' in '-x {lang}'; known: {', '.join(ACCEPTED_LANGS)}")
            opts.language = None if lang == "none" else lang
        elif arg.startswith("-std="):
            std = arg[len("-std=") :]
            if re.fullmatch(C_STD_PATTERN, std):
                opts.c_std = std
            elif std not in ACCEPTED_STDS and not re.fullmatch(CXX_STD_PATTERN, std):
                raise BishengError(
                    f"unsupported language standard '{std}'; Ascend C needs one of: {', '.join(ACCEPTED_STDS)}"
                )
            else:
                opts.std = std
        elif arg in OPT_LEVELS:
            opts.opt_level = arg
        elif arg == "-O":
            opts.opt_level = "-O1"
        elif arg in DEBUG_FLAGS:
            opts.debug_flag = None if arg == "-g0" else arg
        elif arg in NOOP_FLAGS:
            pass
        elif arg in ("-MD", "-MMD"):
            opts.dep_mode = arg
        elif arg == "-MP":
            opts.dep_phony = True
        elif arg.startswith("-MF"):
            opts.dep_file = value_of(arg, "-MF")
        elif arg.startswith("-MT") or arg.startswith("-MQ"):
            kind = arg[:3]
            opts.dep_targets.append((kind, value_of(arg, kind)))
        elif arg.startswith("-Wl,") or arg in LINK_PASSTHROUGH:
            opts.link_flags.append(arg)
        elif arg == "-shared":
            opts.shared = True
        elif arg == "-lib":
            opts.make_lib = True
        elif arg == "-dc":
            opts.compile_only = opts.rdc = True  # -c with relocatable device code (rdc.py)
        elif arg.startswith("-L"):
            opts.link_flags += ["-L", value_of(arg, "-L")]
        elif arg.startswith("-l"):
            opts.link_flags.append("-l" + value_of(arg, "-l"))
        elif arg in NOTED_WITH_VALUE:
            if i + 1 >= len(argv):
                raise BishengError(f"missing argument to '{arg}'")
            opts.notes.append(f"{arg} {argv[i + 1]}")
            i += 1
        elif arg.startswith(NOTED_PREFIXES):
            opts.notes.append(arg)
        elif arg.startswith(("-Wa,", "-Wp,")):
            raise _unsupported(arg, "bisheng does not run the assembler or preprocessor separately")
        elif arg == "-w" or (arg.startswith("-W") and len(arg) > 2) or arg in ("-pedantic", "-pedantic-errors"):
            opts.warning_flags.append(arg)
        elif any(arg.startswith(p) for p in MACRO_OPTIONS):
            name = arg[:2]
            opts.preprocessor_flags += [name, value_of(arg, name)]
        elif any(arg.startswith(p) for p in PATH_OPTIONS):
            name = next(p for p in sorted(PATH_OPTIONS, key=len, reverse=True) if arg.startswith(p))
            opts.preprocessor_flags += [name, value_of(arg, name)]
        elif arg.startswith("-f") and len(arg) > 2:
            opts.extra_flags.append(arg)  # code generation flags: clang judges them
        elif arg.startswith("-") and arg != "-":
            raise _unsupported(arg)
        elif re.search(LINK_INPUT_PATTERN, arg) and not arg.endswith(SOURCE_EXTENSIONS):
            opts.link_flags.append(arg)  # objects and libraries, also after -x asc
        elif opts.language is not None or arg.endswith(SOURCE_EXTENSIONS):
            opts.inputs.append((arg, opts.language))
        else:
            opts.link_flags.append(arg)  # object, archive or shared library
        i += 1

    if opts.show_version:
        return opts
    if not opts.inputs and not opts.link_flags:
        raise BishengError("no input file")
    if opts.compile_only and not opts.inputs:
        raise BishengError("no source file to compile")
    if opts.compile_only and len(opts.inputs) > 1 and opts.output is not None:
        names = ", ".join(f"'{p}'" for p, _ in opts.inputs)
        raise BishengError(f"cannot write one output '{opts.output}' for more than one input file ({names}) with -c")
    if opts.make_lib and (opts.compile_only or opts.shared):
        raise BishengError(f"-lib cannot be combined with {'-c' if opts.compile_only else '-shared'}")
    if opts.rdc and (opts.twin_cache_key or opts.twin_aclrtlaunch_dir):
        raise BishengError(
            "-dc objects have no finished device binary: --twin-cache-key and --twin-aclrtlaunch-dir need -c"
        )
    opts.source = opts.inputs[0][0] if opts.inputs else None
    device = [p for p, lang in opts.inputs if needs_device_pass(p, lang, opts)]
    if device and opts.std not in ACCEPTED_STDS:
        raise BishengError(
            f"unsupported language standard '{opts.std}'; Ascend C needs one of: {', '.join(ACCEPTED_STDS)}"
        )
    if device and opts.arch is None:
        raise BishengError(
            f"no NPU architecture given for '{device[0]}': pass --npu-arch=dav-XXXX (e.g. --npu-arch=dav-2201)"
        )
    if opts.twin_key_only and opts.twin_cache_key is None:
        raise BishengError("--twin-cache-key-only needs --twin-cache-key=FILE")
    if opts.twin_cache_key is not None:
        check_soc(opts.twin_soc)
    if opts.dep_file is not None and opts.dep_mode is None:
        opts.dep_mode = "-MD"  # clang: -MF alone does nothing; a user passing it wants the file
    if opts.twin_cache_key is not None and (len(opts.inputs) != 1 or not opts.compile_only):
        raise BishengError("--twin-cache-key needs -c and exactly one source file")
    if opts.compile_only and opts.output is None:
        opts.output = default_object_name(opts.source_path)
    if not opts.compile_only and opts.output is None:
        opts.output = "a.a" if opts.make_lib else "a.out"
    return opts


def default_object_name(source: str) -> str:
    base = source.rsplit("/", 1)[-1]
    return (base.rsplit(".", 1)[0] if "." in base else base) + ".o"


SOC_PATTERN = re.compile(r"^[A-Za-z0-9_.-]+$")


def check_soc(soc: Optional[str]) -> str:
    if not soc:
        raise BishengError(
            "--twin-cache-key needs --twin-soc=<SoC> (e.g. --twin-soc=Ascend910B1): "
            "the SoC is part of the kernel cache key"
        )
    if not SOC_PATTERN.match(soc):
        raise BishengError(f"invalid SoC name '{soc}' in '--twin-soc={soc}'")
    return soc
