"""The compile pipeline: check + discover, build the device binary, wrap it."""

import os
import shlex
import struct
import shutil
import subprocess
import sys
import tempfile
import functools
import threading
from dataclasses import dataclass
import time
from typing import Optional

from . import codegen
from .cache_key import clang_resource_dir
from .depfile import format_deps, parse_deps
from .errors import BishengError
from .options import Options
from . import device_binary, device_cache, object_cache, pch, rdc
from .prefix import PrefixCheck
from .timing import PHASES
from .toolchain import ABI_HEADER, ENTRY_HEADER, ResourceDirs, Tools

PRELUDE_HEADER = os.path.join("asc_twin", "host_prelude.h")
KERNEL_ATTRS_HEADER = os.path.join("asc_twin", "host_kernel_attrs.h")

GENERATED_NAME = "<bisheng: generated kernel entries>"
# Stable spellings for paths that vary between machines and sandboxes, so that
# debug info and __FILE__ do not depend on where things were built.
MAPPED_WORKDIR = "bisheng-gen"
MAPPED_ASC_INCLUDE = "/asc-twin/asc/include"
MAPPED_ABI_INCLUDE = "/asc-twin/abi/include"


class _Run:
    """Runs tools, echoing each command under -v. A runner made with cancellable=True (the
    speculative device pass) can be cancelled: its running tool is killed, later ones fail."""

    def __init__(self, verbose: bool, cancellable: bool = False) -> None:
        self.verbose = verbose
        self.cancelled = threading.Event() if cancellable else None
        self._live = []

    def __call__(self, cmd: list, phase: str, **kwargs) -> subprocess.CompletedProcess:
        if self.verbose:
            print(" " + shlex.join(cmd), file=sys.stderr, flush=True)
        try:
            with PHASES.measure(phase):
                if self.cancelled is None:
                    return subprocess.run(cmd, **kwargs)
                if self.cancelled.is_set():
                    raise BishengError("cancelled")
                with subprocess.Popen(cmd, **kwargs) as proc:
                    self._live.append(proc)
                    out, err = proc.communicate()
                    self._live.remove(proc)
                return subprocess.CompletedProcess(cmd, proc.returncode, out, err)
        except OSError as e:
            raise BishengError(f"cannot run {cmd[0]}: {e.strerror}")

    def cancel(self) -> None:
        self.cancelled.set()
        for proc in list(self._live):
            proc.kill()


# libstdc++ ABI of CANN's C++ libraries (the twin's, ge_twin/abi_config.h): the host pass's default.
CANN_CXX11_ABI = 0


def _language_flags(opts: Options) -> list:
    """Flags of the device pass (plain C++, as before the whole-driver mode)."""
    arch = opts.arch
    # --driver-mode=g++: C++ semantics (and libstdc++ at link) whatever the clang binary is called.
    flags = ["--driver-mode=g++", "-x", "c++", f"-std={opts.std}", opts.opt_level, "-fPIC",
             f"-D__NPU_ARCH__={arch.number}", f"-D__CCE_AICORE__={arch.cce_aicore}"]
    if opts.core_macro:
        flags.append(f"-D{opts.core_macro}=1")
    if opts.debug_flag:
        flags.append(opts.debug_flag)
    flags.append(f"-D_GLIBCXX_USE_CXX11_ABI={CANN_CXX11_ABI}")  # as the host pass (see _host_flags)
    return flags + list(opts.extra_flags)


def _host_flags(opts: Options, tools: Tools, res: ResourceDirs) -> list:
    """Flags of the host pass: clang's CUDA host mode, so that it parses `k<<<...>>>(...)`
    (see asc_twin/host_prelude.h); the same macros and standard as the device pass."""
    arch = opts.arch
    flags = ["--driver-mode=g++", "-x", "cuda", "--cuda-host-only", "-nocudainc", "-nocudalib",
             "-Wno-unknown-cuda-version", "-Xclang", "-fcuda-allow-variadic-functions",
             f"-std={opts.std}", opts.opt_level, "-fPIC",
             f"-D__NPU_ARCH__={arch.number}", f"-D__CCE_AICORE__={arch.cce_aicore}"]
    if opts.core_macro:
        flags.append(f"-D{opts.core_macro}=1")
    if opts.debug_flag:
        flags.append(opts.debug_flag)
    # CANN's host libraries (graph_base, register, tiling_api) use libstdc++'s old ABI, and a
    # CANN sample's host code that calls them builds with bisheng's defaults; the user's own
    # -D_GLIBCXX_USE_CXX11_ABI (in extra_flags, later) still wins.
    flags.append(f"-D_GLIBCXX_USE_CXX11_ABI={CANN_CXX11_ABI}")
    flags += list(opts.extra_flags)
    flags += _include_flags(opts, res)
    # CUDA mode puts clang's cuda_wrappers/ (<algorithm>, <cmath>, <complex>, <new> rewritten for
    # CUDA's runtime macros) in front of the C++ library; kernel code including them would not
    # parse. Drop the builtin include dirs and add the plain resource headers back after the
    # system ones (nothing there shadows a libstdc++/glibc header that needs to win).
    resource = clang_resource_dir(tools)
    if resource:
        flags += ["-nobuiltininc", "-idirafter", os.path.join(resource, "include")]
    return flags


def _prelude(res: ResourceDirs) -> list:
    return ["-include", os.path.join(res.asc_include, PRELUDE_HEADER)]


def _kernel_attrs(res: ResourceDirs) -> list:
    """Forced after the prelude or the prefix: never part of a PCH (see the header)."""
    return ["-include", os.path.join(res.asc_include, KERNEL_ATTRS_HEADER)]


def _prefix_eligible(opts: Options, res: ResourceDirs) -> bool:
    """prefix.py's rules for this command line (clang's search order for quoted/angle includes)."""
    flags = opts.preprocessor_flags
    pairs = list(zip(flags[::2], flags[1::2]))
    if any(option == "-include" for option, _ in pairs):
        return False
    dirs = {kind: [v for o, v in pairs if o == kind] for kind in ("-iquote", "-I", "-isystem", "-idirafter")}
    twin = [res.asc_include, res.abi_include]
    angle = dirs["-I"] + dirs["-isystem"] + twin + list(res.host_includes) + dirs["-idirafter"]
    return PrefixCheck(opts.source, dirs["-iquote"] + angle, angle, twin, res.host_includes).eligible()


def _pass_prefix(kind: str, base_cmd: list, opts: Options, tools: Tools, res: ResourceDirs, workdir: str,
                 run: "_Run") -> "pch.Prefix":
    """The prefix header of a pass whose clang command starts with base_cmd (no input, no
    output): precompiled through the PCH cache when there is one, except with debug info,
    which clang writes differently for declarations that come from a PCH (the bytes must not
    depend on the cache)."""
    if opts.debug_flag:
        return pch.prepare_text_only(kind, workdir)
    def build(header: str, out: str) -> bool:
        lang = ["-x", "c++-header"] if kind == pch.DEVICE else ["-Xclang", "-emit-pch"]
        cmd = base_cmd + lang + ["-Xclang", "-fno-pch-timestamp", "-c", header, "-o", out]
        return run(cmd, f"PCH build ({kind})", stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL).returncode == 0
    from .cache_key import compiler_identity
    key_fields = [compiler_identity(tools), *base_cmd, pch.tree_digest([res.asc_include, res.abi_include])]
    return pch.prepare(kind, workdir, key_fields, build)


def _run_prefixed(run: "_Run", cmd: list, phase: str, prefix: Optional["pch.Prefix"], kind: str,
                  workdir: str) -> tuple:
    """Runs a pass; a PCH that clang refuses (a system header changed under it) is discarded
    and the pass runs again with the text prefix. Returns (process, the prefix used)."""
    proc = run(cmd, phase, stdin=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if proc.returncode != 0 and prefix is not None and prefix.pch and pch.refused_pch(proc.stderr):
        pch.discard(prefix)
        text = pch.prepare_text_only(kind, workdir)
        at = cmd.index("-include-pch")
        cmd = cmd[:at] + text.flags() + cmd[at + 2:]
        proc, prefix = run(cmd, phase, stdin=subprocess.DEVNULL, stderr=subprocess.PIPE), text
    return proc, prefix


def _include_flags(opts: Options, res: ResourceDirs) -> list:
    flags = list(opts.preprocessor_flags) + ["-isystem", res.asc_include]
    if res.abi_include != res.asc_include:
        flags += ["-isystem", res.abi_include]
    for d in res.host_includes:
        flags += ["-isystem", d]
    return flags


def _prefix_maps(res: ResourceDirs, workdir: str) -> list:
    maps = [(workdir, MAPPED_WORKDIR), (res.asc_include, MAPPED_ASC_INCLUDE)]
    if res.abi_include != res.asc_include:
        maps.append((res.abi_include, MAPPED_ABI_INCLUDE))
    maps.append((os.getcwd(), "."))
    return [f"-ffile-prefix-map={src}={dst}" for src, dst in maps]


def _check_paths(opts: Options) -> None:
    if not os.path.exists(opts.source):
        raise BishengError(f"no such file: '{opts.source}'")
    if not os.path.isfile(opts.source):
        raise BishengError(f"not a regular file: '{opts.source}'")
    if not os.access(opts.source, os.R_OK):
        raise BishengError(f"cannot read '{opts.source}': permission denied")
    written = opts.twin_cache_key if opts.twin_key_only else opts.output
    out_dir = os.path.dirname(os.path.abspath(written))
    if not os.path.isdir(out_dir):
        raise BishengError(f"cannot write '{written}': directory '{out_dir}' does not exist")


def _host_pass(opts: Options, tools: Tools, res: ResourceDirs, workdir: str, run: _Run,
               use_prefix: bool) -> tuple:
    """Pass 1: the user's file as written, compiled by clang in CUDA host mode. All user
    diagnostics come from here, first and unfiltered, with the user's own file:line; the
    depfile lists the user's headers; the object holds the host code and the kernels' stubs."""
    host_obj = os.path.join(workdir, "host_code.o")
    flags = _host_flags(opts, tools, res)
    prefix = _pass_prefix(pch.HOST, [tools.clang] + flags, opts, tools, res, workdir, run) if use_prefix else None
    head = (prefix.flags() if prefix else _prelude(res)) + _kernel_attrs(res)
    cmd = [tools.clang] + flags + head + opts.warning_flags + _prefix_maps(res, workdir)
    # The cache key needs every header read, system ones included (-MD), even without a depfile.
    # So do the device cache's key and the device text (device_source.py): it costs clang next
    # to nothing.
    dep_mode = opts.dep_mode or "-MD"
    if dep_mode:
        cmd += [dep_mode, "-MF", os.path.join(workdir, "deps.d")]
        targets = opts.dep_targets or [("-MT", opts.output)]
        for kind, target in targets:
            cmd += [kind, target]
    if sys.stderr.isatty():
        cmd.append("-fcolor-diagnostics")
    cmd += ["-c", opts.source, "-o", host_obj]
    proc, prefix = _run_prefixed(run, cmd, "host pass", prefix, pch.HOST, workdir)
    text = pch.hide_prefix_paths(proc.stderr.decode("utf-8", errors="replace").replace(" when compiling for host", ""))
    sys.stderr.write(text)
    sys.stderr.flush()
    if proc.returncode != 0:
        raise BishengError(f"compilation of '{opts.source}' failed", proc.returncode)
    return host_obj, prefix


# A speculative device pass (a thread) keeps its diagnostics until the host pass has spoken.
_held = threading.local()


def _relay_diagnostics(stderr: bytes, opts: Options, wrapper: str) -> None:
    text = pch.hide_prefix_paths(stderr.decode("utf-8", errors="replace"))
    text = text.replace(wrapper, GENERATED_NAME).replace(os.path.abspath(opts.source), opts.source)
    if getattr(_held, "texts", None) is not None:
        _held.texts.append(text)
        return
    sys.stderr.write(text)
    sys.stderr.flush()


DEVICE_SOURCE_DIR = "device_source"


def device_source_text(opts: Options, kernels: list, whole: bool, deps: list, res: ResourceDirs) -> Optional[str]:
    """What the device pass compiles in place of the user's file: launches blanked and (unless
    `whole`) host-only functions dropped (device_source.py), after a `#line` that keeps
    __FILE__ and diagnostics the user's; None when that is the file as it stands. The device
    cache keys the binary by this text. deps: the host pass's headers (the source first)."""
    roots = tuple(dict.fromkeys([res.asc_include, res.abi_include]))
    # with -MMD the host pass listed no system headers: no name can be shown absent from them
    complete = opts.dep_mode != "-MMD"
    return _device_source_text(opts.source, device_cache.source_digest(opts.source), tuple(kernels), whole,
                               tuple(d for d in deps if d != opts.source), roots, complete)


@functools.lru_cache(maxsize=8)     # the key and the pass ask for the same text
def _device_source_text(source: str, digest: str, kernels: tuple, whole: bool, headers: tuple,
                        roots: tuple, complete: bool) -> Optional[str]:
    from .device_source import device_text, mentioned_in
    from .launch_syntax import blank_launch_configs
    with open(source, "rb") as f:
        text = f.read().decode("utf-8", errors="surrogateescape")

    def mentioned_elsewhere(names: set) -> set:
        if not complete:
            return set(names)
        # every header the pass reads: the host pass's, and the twin tree (the entries TU's own)
        def scan() -> list:
            twin = [os.path.join(d, n) for root in roots for d, _, files in sorted(os.walk(root)) for n in files]
            return sorted(mentioned_in(list(headers) + twin, names))
        fields = [pch.tree_digest(list(roots)), device_cache.headers_digest(headers, source)]
        return set(pch.remembered("header-names", fields + sorted(names), scan))

    dropped = 0
    if not whole:
        try:
            text, dropped = device_text(text, [k.spelled for k in kernels], mentioned_elsewhere)
        except OSError:
            dropped = 0       # a header vanished: the whole file
    if not dropped and "<<<" not in text:
        return None
    return f"#line 1 {codegen.c_string(os.path.abspath(source))}\n" + blank_launch_configs(text)


def _compile_device_object(opts: Options, tools: Tools, res: ResourceDirs, workdir: str,
                           kernels: list, run: _Run, use_prefix: bool, deps: list, with_meta: bool = True,
                           whole: bool = False) -> tuple:
    """Pass 2: the kernels, their entries and everything they call, as plain C++ in one
    relocatable object (device_binary.py links it; what host code is left is dropped there by
    --gc-sections). Returns (device.o, parameter sizes, whether the whole file was compiled)."""
    wrapper = os.path.join(workdir, "entries.cpp")

    def write_wrapper(source_path: str) -> None:
        with open(wrapper, "w", encoding="utf-8") as f:
            f.write(codegen.entries_source(source_path, opts.arch, kernels, with_meta))

    # -w: pass 1 already showed the user's warnings (and applied -Werror) once.
    lang = _language_flags(opts)
    base = ([tools.clang] + lang[:1] + lang[3:] + ["-D__ASC_TWIN_DEVICE_PASS__=1"] + _include_flags(opts, res)
            + ["-w", "-fvisibility=hidden", "-fvisibility-inlines-hidden", "-ffunction-sections", "-fdata-sections"])
    prefix = _pass_prefix(pch.DEVICE, base, opts, tools, res, workdir, run) if use_prefix else None
    maps = _prefix_maps(res, workdir)
    device_obj = os.path.join(workdir, "device.o")

    def compile_cmd(language: str, source: str, head: list, quote_dirs: tuple = ()) -> list:
        return base[:1] + list(quote_dirs) + base[1:] + ["-x", language] + head + maps + ["-c", source, "-o", device_obj]

    source = os.path.abspath(opts.source)
    text = device_source_text(opts, kernels, whole, deps, res)
    quote_dirs = ()
    if text is not None:
        # A copy, alone in its directory, so its quoted includes find the user's headers
        # through -iquote (searched first, as the source's own directory was) and nothing else.
        copy_dir = os.path.join(workdir, DEVICE_SOURCE_DIR)
        os.makedirs(copy_dir, exist_ok=True)
        source = os.path.join(copy_dir, os.path.basename(opts.source))
        with open(source, "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write(text)
        quote_dirs = ("-iquote", os.path.dirname(os.path.abspath(opts.source)))
    write_wrapper(source)
    proc, prefix = _run_prefixed(run, compile_cmd("c++", wrapper, prefix.flags() if prefix else [], quote_dirs),
                                 "device compile", prefix, pch.DEVICE, workdir)
    if proc.returncode != 0 and text is not None:
        # Launches spelled through a header's macro, or a body the kernels need: the whole
        # file, preprocessed, with the `<<<...>>>` of host launches blanked (pass 1 proved the
        # file valid; this text has no comments or macros left).
        write_wrapper(os.path.abspath(opts.source))
        pre = os.path.join(workdir, "entries.ii")
        cmd = base + ["-x", "c++"] + (prefix.flags() if prefix else []) + maps + ["-E", wrapper, "-o", pre]
        proc, prefix = _run_prefixed(run, cmd, "device preprocess", prefix, pch.DEVICE, workdir)
        _relay_diagnostics(proc.stderr, opts, wrapper)
        if proc.returncode != 0:
            raise BishengError(f"compilation of the kernel entries for '{opts.source}' failed", proc.returncode)
        from .launch_syntax import blank_launch_configs
        with open(pre, encoding="utf-8", errors="surrogateescape") as f:
            pre_text = f.read()
        with open(pre, "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write(blank_launch_configs(pre_text))
        # a text prefix is part of the preprocessed output; a PCH is not
        head = prefix.flags() if prefix and prefix.pch else []
        proc = run(compile_cmd("c++-cpp-output", pre, head), "device compile", stdin=subprocess.DEVNULL,
                   stderr=subprocess.PIPE)
        _relay_diagnostics(proc.stderr.replace(pre.encode(), wrapper.encode()), opts, wrapper)
        text = None       # what was compiled is the whole file
    else:
        _relay_diagnostics(proc.stderr, opts, wrapper)
    if proc.returncode != 0:
        raise BishengError(f"compilation of the kernel entries for '{opts.source}' failed",
                           proc.returncode)
    sizes = _read_param_sizes(tools, workdir, device_obj, len(kernels), run) if kernels else []
    return device_obj, sizes, whole or text is None


@dataclass(frozen=True)
class ParamInfo:
    """The parameters of one kernel: sizeof and kind (see ParamSizeRecord in kernel_entry.h)."""
    sizes: list
    kinds: list


def _read_param_sizes(tools: Tools, workdir: str, device_obj: str, count: int, run: _Run) -> list:
    dump = os.path.join(workdir, "param_sizes.bin")
    proc = run(phase="objcopy (param sizes)", cmd=[tools.objcopy, f"--dump-section={codegen.PARAM_SIZES_SECTION}={dump}",
                f"--remove-section={codegen.PARAM_SIZES_SECTION}", device_obj], stdin=subprocess.DEVNULL,
               stderr=subprocess.PIPE)
    if proc.returncode != 0:
        raise BishengError("internal error: cannot read the kernels' parameter sizes: "
                           + proc.stderr.decode(errors="replace").strip())
    with open(dump, "rb") as f:
        data = f.read()
    words = struct.unpack(f"<{len(data) // 4}I", data)
    per = codegen.PARAM_RECORD_WORDS
    if len(words) != per * count:
        raise BishengError("internal error: parameter size records do not match the kernels")
    out = []
    for i in range(count):
        n = words[i * per]
        out.append(ParamInfo(list(words[i * per + 1:i * per + 1 + n]),
                             list(words[i * per + 64:i * per + 64 + n])))
    return out


def _write_launch_headers(directory: str, kernels: list, infos: list) -> None:
    """--twin-aclrtlaunch-dir: CANN's generated `aclrtlaunch_<kernel>.h` for every kernel with a
    plain name (its `aclrtlaunch_<kernel>` is defined in the object)."""
    os.makedirs(directory, exist_ok=True)
    for kernel, info in zip(kernels, infos):
        if kernel.name != kernel.spelled or kernel.local:
            continue
        path = os.path.join(directory, f"aclrtlaunch_{kernel.name}.h")
        text = codegen.aclrtlaunch_header(kernel.name, info)
        try:
            with open(path, encoding="utf-8") as f:
                if f.read() == text:
                    continue      # unchanged: keep the timestamp, so nothing rebuilds
        except OSError:
            pass
        tmp = path + f".{os.getpid()}.tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)


def _verify_embedded(tools: Tools, workdir: str, host_obj: str, device_so: str, run: _Run) -> None:
    # The contract users rely on: objcopy extracts exactly the device binary, i.e. the section
    # holds its bytes (read from the section table, as llvm-objcopy -O binary --only-section does).
    from .elf_file import ElfFile
    with PHASES.measure("embedded binary check"):
        embedded = ElfFile(host_obj).section_bytes(codegen.AICORE_SECTION)
        with open(device_so, "rb") as f:
            if embedded != f.read():
                raise BishengError(f"internal error: {codegen.AICORE_SECTION} of the host object "
                                   "does not match the device binary")


def _scan_deps(opts: Options, tools: Tools, res: ResourceDirs, workdir: str, run: _Run, report: bool = True) -> list:
    """Every file the preprocessor reads for the source (clang -M): no parse, no code.
    report=False: a failure is not shown (the compile that follows shows it)."""
    deps_path = os.path.join(workdir, "scan.d")
    cmd = ([tools.clang] + _host_flags(opts, tools, res) + _prelude(res) + _kernel_attrs(res)
           + ["-w", "-M", "-MF", deps_path, "-MT", "scan", opts.source])
    proc = run(cmd, "dependency scan", stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if proc.returncode != 0:
        if report:
            sys.stderr.buffer.write(proc.stderr)
            sys.stderr.flush()
        raise BishengError(f"dependency scan of '{opts.source}' failed", proc.returncode)
    with open(deps_path, encoding="utf-8") as f:
        return parse_deps(f.read())


def _write_key_report(opts: Options, tools: Tools, res: ResourceDirs, workdir: str,
                      deps: list) -> str:
    from .cache_key import key_report
    path = os.path.join(workdir, "key.json")
    with open(path, "w", encoding="utf-8") as f:
        f.write(key_report(opts, tools, res, deps))
    return path


def _report_key_only(opts: Options, tools: Tools, res: ResourceDirs, workdir: str, run: _Run) -> None:
    report = _write_key_report(opts, tools, res, workdir, _scan_deps(opts, tools, res, workdir, run))
    _publish(report, opts.twin_cache_key)


def _host_deps(opts: Options, workdir: str, prefix: Optional["pch.Prefix"]) -> list:
    """The host pass's depfile prerequisites as clang lists them without a prefix: the source
    first, no prefix header or PCH (a PCH's own headers are listed by clang)."""
    with open(os.path.join(workdir, "deps.d"), encoding="utf-8") as f:
        deps = parse_deps(f.read())
    if prefix is not None:
        noise = prefix.depfile_noise()
        deps = [d for d in deps if d not in noise]
        if opts.source in deps:
            deps.remove(opts.source)
            deps.insert(0, opts.source)
    return deps


def _finish_depfile(opts: Options, res: ResourceDirs, workdir: str, prefix: Optional["pch.Prefix"]) -> str:
    deps = _host_deps(opts, workdir, prefix)
    if opts.dep_mode == "-MD":   # -MMD leaves out system headers, like clang
        for root, header in ((res.asc_include, ENTRY_HEADER), (res.abi_include, ABI_HEADER)):
            path = os.path.join(root, header)
            if path not in deps:
                deps.append(path)
    targets = [t for _, t in opts.dep_targets] or [opts.output]
    final = os.path.join(workdir, "final.d")
    with open(final, "w", encoding="utf-8") as f:
        f.write(format_deps(targets, deps, opts.dep_phony))
    return final


def _check_parent(path: str, what: str) -> None:
    if not os.path.isdir(os.path.dirname(os.path.abspath(path))):
        raise BishengError(f"cannot write {what} '{path}': no such directory")


def _publish(src: str, dest: str) -> None:
    """Move a finished file into place atomically (temp file in dest's dir + rename)."""
    dest_dir = os.path.dirname(os.path.abspath(dest))
    fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(dest)}.", suffix=".tmp", dir=dest_dir)
    try:
        with os.fdopen(fd, "wb") as out, open(src, "rb") as inp:
            shutil.copyfileobj(inp, out)
        os.chmod(tmp, 0o644)
        os.replace(tmp, dest)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


WORKDIR_PREFIX = ".bisheng-"
REGISTRATION_SUFFIX = ".register.o"


def _sweep_dead_workdirs(out_dir: str) -> None:
    """Removes work directories of compiles that were killed (their pid is gone, a minute old):
    a SIGKILL leaves no chance to clean up, and each holds about a megabyte."""
    try:
        names = os.listdir(out_dir)
    except OSError:
        return
    cutoff = time.time() - 60
    for name in names:
        if not name.startswith(WORKDIR_PREFIX):
            continue
        pid_text = name[len(WORKDIR_PREFIX):].split("-", 1)[0]
        if not pid_text.isdigit():
            continue
        path = os.path.join(out_dir, name)
        try:
            if os.lstat(path).st_mtime > cutoff:
                continue
            os.kill(int(pid_text), 0)
            continue  # its compile is still running
        except ProcessLookupError:
            shutil.rmtree(path, ignore_errors=True)
        except OSError:
            continue


def _build_device_binary(opts: Options, tools: Tools, res: ResourceDirs, workdir: str, kernels: list,
                         run: _Run, use_prefix: bool, deps: list) -> tuple:
    """(device.so, parameter infos, whether the whole file was compiled): the device pass and
    the device link. A device text without a body the kernels need fails that link (-z defs):
    then the whole file is compiled."""
    wrapper = os.path.join(workdir, "entries.cpp")
    whole = False
    while True:
        device_obj, infos, whole = _compile_device_object(opts, tools, res, workdir, kernels, run, use_prefix,
                                                          deps, whole=whole)
        held = []
        relay = (lambda err: _relay_diagnostics(err, opts, wrapper)) if whole else held.append
        try:
            device_so = device_binary.link(tools, workdir, [device_obj], [k.name for k in kernels], run,
                                           f"'{opts.source}'", relay)
        except BishengError:
            if whole:
                raise
            whole = True
            continue
        for err in held:
            _relay_diagnostics(err, opts, wrapper)
        return device_so, infos, whole


def _device_keys(opts: Options, tools: Tools, res: ResourceDirs, deps: list, kernels: list) -> dict:
    """{whole: key}: the device cache keys of the device text without host bodies (False) and
    of the whole file (True); each keyed by the text its device pass compiles."""
    from .cache_key import compiler_identity
    identity = compiler_identity(tools)
    tree = pch.tree_digest([res.asc_include, res.abi_include])
    keys = {}
    for whole in (False, True):
        text = device_source_text(opts, kernels, whole, deps, res)
        digest = device_cache.source_digest(opts.source) if text is None else device_cache.text_digest(text)
        keys[whole] = device_cache.key_of(identity, tree, opts, digest, deps, kernels)
    return keys


def _device_key(opts: Options, tools: Tools, res: ResourceDirs, deps: list, kernels: list) -> Optional[dict]:
    """The device cache keys, or None: no cache, or the host pass listed no system headers (-MMD)."""
    if opts.dep_mode == "-MMD" or device_cache.directory() is None:
        return None
    try:
        return _device_keys(opts, tools, res, deps, kernels)
    except OSError:
        return None       # a header vanished since the host pass: compile, do not guess


class _SpeculativeDevice:
    """The device pass and link for the kernels the last compile of this source found, run on a
    thread beside the host pass (clang runs in its own process, so the two use two cores). Taken
    only when the host pass succeeds and lists the same kernels; else cancelled (its clang
    killed) and the device pass runs as usual, after the host pass. Its diagnostics are held
    and shown after the host pass's, as without it."""

    def __init__(self, opts: Options, tools: Tools, res: ResourceDirs, workdir: str, kernels: list,
                 use_prefix: bool, deps: list) -> None:
        self.kernels, self.deps, self.result, self.error, self.texts = kernels, deps, None, None, []
        self.run = _Run(False, cancellable=True)
        self.thread = threading.Thread(target=self._main, args=(opts, tools, res, workdir, use_prefix), daemon=True)
        self.thread.start()

    def _main(self, opts, tools, res, workdir, use_prefix) -> None:
        _held.texts = self.texts
        try:
            self.result = _build_device_binary(opts, tools, res, workdir, self.kernels, self.run, use_prefix,
                                               self.deps)
        except BaseException as e:      # handed to the main thread by take()
            self.error = e

    def take(self, kernels: list, same_text) -> Optional[tuple]:
        """(device.so, infos, whole) when the guess was right, else None (and cancelled).
        same_text(deps): the device text from the last compile's headers is this compile's."""
        if kernels != self.kernels or not same_text(self.deps):
            self.abandon()
            return None
        with PHASES.measure("device pass (waiting for the concurrent one)"):
            self.thread.join()
        for text in self.texts:
            sys.stderr.write(text)
        sys.stderr.flush()
        if self.error is not None:
            raise self.error
        return self.result

    def abandon(self) -> None:
        self.run.cancel()
        self.thread.join()


def _speculate(opts: Options, tools: Tools, res: ResourceDirs, workdir: str, use_prefix: bool,
               last: Optional[tuple]) -> Optional[_SpeculativeDevice]:
    """Starts the device pass now when the last compile of this source is known and the device
    binary it predicts is not cached (the usual edit-compile-run step). Not under -v, whose
    command echo stays in order, nor on one CPU."""
    if opts.verbose or len(os.sched_getaffinity(0)) < 2 or device_cache.directory() is None:
        return None
    if not last or not last[0]:
        return None
    kernels, deps = last
    try:
        if any(device_cache.has(key) for key in _device_keys(opts, tools, res, deps, kernels).values()):
            return None
    except OSError:
        pass               # a header of the last compile is gone: the kernels may still be the same
    return _SpeculativeDevice(opts, tools, res, workdir, kernels, use_prefix, deps)


def _object_key_half(opts: Options, tools: Tools, res: ResourceDirs, separate: bool) -> Optional[str]:
    if not object_cache.eligible(opts) or object_cache.directory() is None:
        return None
    from .cache_key import compiler_identity
    return object_cache.first_half(compiler_identity(tools), pch.tree_digest([res.asc_include, res.abi_include]),
                                   opts, res, device_cache.source_digest(opts.source), separate)


def _object_key(opts: Options, half: str, deps: list) -> Optional[str]:
    """The whole key from the headers `deps` (clang's list), or None for a source that spells
    a clock macro."""
    headers = tuple(sorted({d for d in deps if d != opts.source}))
    digest = device_cache.headers_digest(headers, opts.source)
    if object_cache.spells_a_clock_macro(opts.source, list(headers), digest):
        return None
    return object_cache.full_key(half, digest)


def _cached_objects(opts: Options, tools: Tools, res: ResourceDirs, workdir: str, run: _Run,
                    objects: Optional[list]) -> Optional[list]:
    """The kernel names when the object cache served this compile's objects (object_cache.py),
    else None. Asks clang for the headers only when the source and flags are those of a cached
    compile (after an edit nothing is spent here)."""
    half = _object_key_half(opts, tools, res, objects is not None)
    if half is None or not object_cache.has_first_half(half):
        return None
    try:
        with PHASES.measure("object cache (dependency scan, look-up)"):
            key = _object_key(opts, half, _scan_deps(opts, tools, res, workdir, run, report=False))
            got = object_cache.load(key, [opts.output, opts.output + REGISTRATION_SUFFIX]) if key else None
    except (BishengError, OSError):
        return None           # the compile itself will say what is wrong
    if got is None:
        return None
    kernels, written = got
    if objects is not None:
        objects += written
    return kernels


def _store_objects(opts: Options, tools: Tools, res: ResourceDirs, separate: bool, deps: list,
                   written: list, kernel_names: list) -> None:
    """Records the objects just published under the headers the host pass read (the same
    list, as a set, as the dependency scan of a later look-up gives)."""
    half = _object_key_half(opts, tools, res, separate)
    if half is None:
        return
    try:
        with PHASES.measure("object cache (store)"):
            key = _object_key(opts, half, deps)
            if key:
                object_cache.store(half, key, written, kernel_names)
    except OSError:
        pass          # a cache that cannot be filled only costs time


class _Background:
    """fn() on a thread; result() joins it and returns its value or raises its exception."""

    def __init__(self, fn) -> None:
        self._value, self._error = None, None
        self._thread = threading.Thread(target=self._main, args=(fn,), daemon=True)
        self._thread.start()

    def _main(self, fn) -> None:
        try:
            self._value = fn()
        except BaseException as e:      # handed to the caller by result()
            self._error = e

    def result(self):
        self._thread.join()
        if self._error is not None:
            raise self._error
        return self._value


def compile_kernel(opts: Options, tools: Tools, res: ResourceDirs, objects: Optional[list] = None) -> list:
    """Build opts.output (a host object) from opts.source; returns the kernel names. objects:
    for a link that follows at once, the registration object is not merged into OUT but
    published beside it (OUT + REGISTRATION_SUFFIX) and appended to this list after OUT (the
    merge costs a linker run; the program is the same)."""
    from .host_kernels import HostKernel, kernels_of
    _check_paths(opts)
    run = _Run(opts.verbose)
    # Temporaries live beside what is published (same file system: rename is atomic).
    out_dir = os.path.dirname(os.path.abspath(opts.twin_cache_key if opts.twin_key_only else opts.output))
    _sweep_dead_workdirs(out_dir)
    try:
        workdir = tempfile.mkdtemp(prefix=f"{WORKDIR_PREFIX}{os.getpid()}-", dir=out_dir)
    except OSError as e:
        raise BishengError(f"cannot write '{opts.output}': {e.strerror} (directory '{out_dir}')")
    spec = None
    separate, registration = objects is not None, None
    try:
        if opts.twin_key_only:
            _report_key_only(opts, tools, res, workdir, run)
            return []
        cached = _cached_objects(opts, tools, res, workdir, run, objects)
        if cached is not None:
            return cached
        use_prefix = _prefix_eligible(opts, res)
        # what the last compile of this source found (device_cache.remember), if known
        last = None if opts.rdc else device_cache.last(opts, HostKernel)
        # The host pass starts first; what the driver has to work out meanwhile (whether to
        # guess the device pass, the digests of the last compile's headers, which the device
        # cache key needs again) runs beside it.
        host = _Background(lambda: _host_pass(opts, tools, res, workdir, run, use_prefix))
        try:
            spec = None if opts.rdc else _speculate(opts, tools, res, workdir, use_prefix, last)
        finally:
            host_obj, host_prefix = host.result()
        with PHASES.measure("kernel list (symbol table, llvm-cxxfilt)"):
            kernels = kernels_of(host_obj, tools.nm, tools.cxxfilt, last[0] if last else None)
        infos = []
        if opts.rdc:     # -dc: the device object travels in the host object to the link
            device_obj, infos, _ = _compile_device_object(opts, tools, res, workdir, kernels, run, use_prefix,
                                                          [], with_meta=False, whole=True)
            kernels = device_binary.export_local_stubs(tools, workdir, host_obj, device_obj, kernels, run)
            host_obj = rdc.attach(tools, workdir, host_obj, device_obj, opts.arch, kernels, infos, run)
        elif kernels:
            host_deps = _host_deps(opts, workdir, host_prefix)
            with PHASES.measure("device cache (key, look-up)"):
                device_keys = _device_key(opts, tools, res, host_deps, kernels)
                hit, device_key = None, None
                for key in (device_keys or {}).values():
                    hit, device_key = device_cache.load(key, workdir, ParamInfo), key
                    if hit:
                        break
            taken = spec.take(kernels, lambda guessed: device_source_text(opts, kernels, False, guessed, res)
                              == device_source_text(opts, kernels, False, host_deps, res)) if spec and not hit else None
            if hit:
                device_so, infos = hit
            else:
                device_so, infos, whole = taken or _build_device_binary(opts, tools, res, workdir, kernels, run,
                                                                        use_prefix, host_deps)
                # stored under the key of the text it was compiled from
                device_key = device_keys[whole] if device_keys else None
                if device_key:
                    with PHASES.measure("device cache (store)"):
                        device_cache.store(device_key, device_so, infos)
            if device_key:
                device_cache.remember(opts, kernels, host_deps)
            kernels = device_binary.export_local_stubs(tools, workdir, host_obj, device_so, kernels, run)
            reg_cached = bool(hit) and device_cache.load_registration(device_key, workdir)
            merged = device_binary.registration_object(tools, res, workdir, [] if separate else [host_obj], device_so,
                                                       kernels, infos, run, compiled=reg_cached)
            if device_key and not reg_cached:
                device_cache.store_registration(device_key, os.path.join(workdir, "register.o"))
            _verify_embedded(tools, workdir, merged, device_so, run)
            if separate:
                registration = merged
            else:
                host_obj = merged
        if opts.twin_aclrtlaunch_dir:
            _write_launch_headers(opts.twin_aclrtlaunch_dir, kernels, infos)
        depfile = _finish_depfile(opts, res, workdir, host_prefix) if opts.dep_mode else None
        if depfile:
            _check_parent(opts.dep_file, "depfile")
        key_report = None
        if opts.twin_cache_key:
            if opts.dep_mode == "-MMD":   # pass 1 left out system headers; the key needs them all
                deps = _scan_deps(opts, tools, res, workdir, run)
            else:
                deps = _host_deps(opts, workdir, host_prefix)
            key_report = _write_key_report(opts, tools, res, workdir, deps)
            _check_parent(opts.twin_cache_key, "kernel cache key file")
        # Output last, so a failure never leaves a new OUT beside a stale depfile or key.
        if depfile:
            _publish(depfile, opts.dep_file)
        if key_report:
            _publish(key_report, opts.twin_cache_key)
        if registration:
            _publish(registration, opts.output + REGISTRATION_SUFFIX)
        _publish(host_obj, opts.output)
        written = [opts.output] + ([opts.output + REGISTRATION_SUFFIX] if registration else [])
        if objects is not None:
            objects += written
        if object_cache.eligible(opts) and not opts.rdc:
            _store_objects(opts, tools, res, objects is not None, _host_deps(opts, workdir, host_prefix), written,
                           [k.name for k in kernels])
        return [k.name for k in kernels]
    finally:
        if spec is not None:
            spec.abandon()     # nothing may still write into workdir
        shutil.rmtree(workdir, ignore_errors=True)
