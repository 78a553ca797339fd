"""The compile pipeline: check + discover, build the device binary, wrap it. Its tools run
through runner.py with the flags of flags.py; its files are published by publish.py and the
--twin-cache-key report is written by key_file.py."""

import functools
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from typing import Optional

from . import codegen, device_binary, device_cache, host_redecl, object_cache, pch, rdc
from .depfile import format_deps, parse_deps
from .errors import BishengError
from .flags import host_flags, include_flags, kernel_attrs, language_flags, prefix_maps, prelude
from .key_file import report_key_only, scan_deps, write_key_report
from .options import Options
from .param_info import ParamInfo, read_param_sizes
from .prefix import PrefixCheck
from .publish import WORKDIR_PREFIX, check_parent, check_paths, publish, sweep_dead_workdirs
from .runner import Run
from .timing import PHASES
from .toolchain import ABI_HEADER, ENTRY_HEADER, ResourceDirs, Tools

GENERATED_NAME = "<bisheng: generated kernel entries>"
REGISTRATION_SUFFIX = ".register.o"


def _prefix_eligible(opts: Options, res: ResourceDirs) -> bool:
    """prefix.py's rules for this command line (clang's search order for quoted/angle includes)."""
    flags = opts.preprocessor_flags
    pairs = list(zip(flags[::2], flags[1::2]))
    if any(option == "-include" for option, _ in pairs):
        return False
    dirs = {kind: [v for o, v in pairs if o == kind] for kind in ("-iquote", "-I", "-isystem", "-idirafter")}
    twin = [res.asc_include, res.abi_include]
    angle = dirs["-I"] + dirs["-isystem"] + twin + list(res.host_includes) + dirs["-idirafter"]
    return PrefixCheck(opts.source_path, dirs["-iquote"] + angle, angle, twin, res.host_includes).eligible()


def _pass_prefix(
    kind: str, base_cmd: list, opts: Options, tools: Tools, res: ResourceDirs, workdir: str, run: "Run"
) -> "pch.Prefix":
    """The prefix header of a pass whose clang command starts with base_cmd (no input, no
    output): precompiled through the PCH cache when there is one, except with debug info,
    which clang writes differently for declarations that come from a PCH (the bytes must not
    depend on the cache)."""
    if opts.debug_flag:
        return pch.prepare_text_only(kind, workdir)

    def build(header: str, out: str) -> bool:
        lang = ["-x", "c++-header"] if kind == pch.DEVICE else ["-Xclang", "-emit-pch"]
        cmd = base_cmd + lang + ["-Xclang", "-fno-pch-timestamp", "-c", header, "-o", out]
        return (
            run(
                cmd,
                f"PCH build ({kind})",
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            ).returncode
            == 0
        )

    from .cache_key import compiler_identity

    key_fields = [compiler_identity(tools), *base_cmd, pch.tree_digest([res.asc_include, res.abi_include])]
    return pch.prepare(kind, workdir, key_fields, build)


def _run_prefixed(run: "Run", cmd: list, phase: str, prefix: Optional["pch.Prefix"], kind: str, workdir: str) -> tuple:
    """Runs a pass; a PCH that clang refuses (a system header changed under it) is discarded
    and the pass runs again with the text prefix. Returns (process, the prefix used)."""
    if prefix is not None and not prefix.pch:
        cmd = _with_prefix_flags(cmd, prefix)  # an earlier run of this pass fell back to the text prefix
    proc = run(cmd, phase, stdin=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if proc.returncode != 0 and prefix is not None and prefix.pch and pch.refused_pch(proc.stderr):
        pch.discard(prefix)
        text = pch.prepare_text_only(kind, workdir)
        proc, prefix = run(_with_prefix_flags(cmd, text), phase, stdin=subprocess.DEVNULL, stderr=subprocess.PIPE), text
    return proc, prefix


def _with_prefix_flags(cmd: list, prefix: "pch.Prefix") -> list:
    """cmd with its `-include-pch PCH` (if any) replaced by `prefix`'s own flags."""
    if "-include-pch" not in cmd:
        return cmd
    at = cmd.index("-include-pch")
    return cmd[:at] + prefix.flags() + cmd[at + 2 :]


def _host_pass(opts: Options, tools: Tools, res: ResourceDirs, workdir: str, run: Run, use_prefix: bool) -> tuple:
    """Pass 1: the user's file as written, compiled by clang in CUDA host mode. All user
    diagnostics come from here, first and unfiltered, with the user's own file:line; the
    depfile lists the user's headers; the object holds the host code and the kernels' stubs."""
    host_obj = os.path.join(workdir, "host_code.o")
    flags = host_flags(opts, tools, res)
    prefix = _pass_prefix(pch.HOST, [tools.clang] + flags, opts, tools, res, workdir, run) if use_prefix else None
    head = (prefix.flags() if prefix else prelude(res)) + kernel_attrs(res)
    cmd = [tools.clang] + flags + head + opts.warning_flags + prefix_maps(res, workdir)
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
    proc, prefix = _run_prefixed(run, cmd + ["-c", opts.source, "-o", host_obj], "host pass", prefix, pch.HOST, workdir)
    proc, prefix = _retry_redeclarations(opts, run, cmd, host_obj, proc, prefix, workdir)
    text = pch.hide_prefix_paths(proc.stderr.decode("utf-8", errors="replace").replace(" when compiling for host", ""))
    sys.stderr.write(text)
    sys.stderr.flush()
    if proc.returncode != 0:
        raise BishengError(f"compilation of '{opts.source}' failed", proc.returncode)
    return host_obj, prefix


def _retry_redeclarations(opts: Options, run: Run, cmd: list, host_obj: str, proc, prefix, workdir: str) -> tuple:
    """The host pass again, from a copy whose later declarations of functions declared before
    the first kernel agree with the first ones (host_redecl.py), while clang names such
    clashes in the source. Returns the last (process, prefix)."""
    positions: list = []
    copy, source_text = None, None
    for _ in range(host_redecl.MAX_TRIES):
        if proc.returncode == 0:
            break
        found = host_redecl.clashes(proc.stderr.decode("utf-8", errors="replace"), opts.source_path)
        if not found or set(found) <= set(positions):
            break
        positions = sorted(set(positions) | set(found))
        if source_text is None:
            source_text = host_redecl.read_source(opts.source_path)
        text = host_redecl.rewrite(source_text, positions)
        if text is None:
            break
        copy = host_redecl.write_copy(opts.source_path, text, workdir)
        retry = cmd + host_redecl.quote_dir_flags(opts.source_path) + ["-c", copy, "-o", host_obj]
        proc, prefix = _run_prefixed(run, retry, "host pass (redeclarations)", prefix, pch.HOST, workdir)
    if copy is not None and proc.returncode == 0 and "-MF" in cmd:
        host_redecl.restore_depfile(cmd[cmd.index("-MF") + 1], copy, opts.source_path)
    return proc, prefix


# A speculative device pass (a thread) keeps its diagnostics until the host pass has spoken.
_held = threading.local()


def _relay_diagnostics(stderr: bytes, opts: Options, wrapper: str) -> None:
    text = pch.hide_prefix_paths(stderr.decode("utf-8", errors="replace"))
    text = text.replace(wrapper, GENERATED_NAME).replace(os.path.abspath(opts.source_path), opts.source_path)
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
    return _device_source_text(
        opts.source,
        device_cache.source_digest(opts.source_path),
        tuple(kernels),
        whole,
        tuple(d for d in deps if d != opts.source),
        roots,
        complete,
    )


@functools.lru_cache(maxsize=8)  # the key and the pass ask for the same text
def _device_source_text(
    source: str, digest: str, kernels: tuple, whole: bool, headers: tuple, roots: tuple, complete: bool
) -> Optional[str]:
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
            dropped = 0  # a header vanished: the whole file
    if not dropped and "<<<" not in text:
        return None
    return f"#line 1 {codegen.c_string(os.path.abspath(source))}\n" + blank_launch_configs(text)


def _compile_device_object(
    opts: Options,
    tools: Tools,
    res: ResourceDirs,
    workdir: str,
    kernels: list,
    run: Run,
    use_prefix: bool,
    deps: list,
    with_meta: bool = True,
    whole: bool = False,
) -> tuple:
    """Pass 2: the kernels, their entries and everything they call, as plain C++ in one
    relocatable object (device_binary.py links it; what host code is left is dropped there by
    --gc-sections). Returns (device.o, parameter sizes, whether the whole file was compiled)."""
    wrapper = os.path.join(workdir, "entries.cpp")

    def write_wrapper(source_path: str) -> None:
        from .kernel_types import kernel_types

        with open(opts.source_path, "rb") as f:
            types = kernel_types(f.read().decode("utf-8", errors="surrogateescape"))
        with open(wrapper, "w", encoding="utf-8") as f:
            f.write(codegen.entries_source(source_path, opts.npu_arch, kernels, with_meta, types))

    # -w: pass 1 already showed the user's warnings (and applied -Werror) once.
    lang = language_flags(opts)
    base = (
        [tools.clang]
        + lang[:1]
        + lang[3:]
        + ["-D__ASC_TWIN_DEVICE_PASS__=1"]
        + include_flags(opts, res)
        + ["-w", "-fvisibility=hidden", "-fvisibility-inlines-hidden", "-ffunction-sections", "-fdata-sections"]
    )
    prefix = _pass_prefix(pch.DEVICE, base, opts, tools, res, workdir, run) if use_prefix else None
    maps = prefix_maps(res, workdir)
    device_obj = os.path.join(workdir, "device.o")

    def compile_cmd(language: str, source: str, head: list, quote_dirs: tuple = ()) -> list:
        return (
            base[:1] + list(quote_dirs) + base[1:] + ["-x", language] + head + maps + ["-c", source, "-o", device_obj]
        )

    source = os.path.abspath(opts.source_path)
    text = device_source_text(opts, kernels, whole, deps, res)
    quote_dirs: tuple = ()
    if text is not None:
        # A copy, alone in its directory, so its quoted includes find the user's headers
        # through -iquote (searched first, as the source's own directory was) and nothing else.
        copy_dir = os.path.join(workdir, DEVICE_SOURCE_DIR)
        os.makedirs(copy_dir, exist_ok=True)
        source = os.path.join(copy_dir, os.path.basename(opts.source_path))
        with open(source, "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write(text)
        quote_dirs = ("-iquote", os.path.dirname(os.path.abspath(opts.source_path)))
    write_wrapper(source)
    proc, prefix = _run_prefixed(
        run,
        compile_cmd("c++", wrapper, prefix.flags() if prefix else [], quote_dirs),
        "device compile",
        prefix,
        pch.DEVICE,
        workdir,
    )
    if proc.returncode != 0 and text is not None:
        # Launches spelled through a header's macro, or a body the kernels need: the whole
        # file, preprocessed, with the `<<<...>>>` of host launches blanked (pass 1 proved the
        # file valid; this text has no comments or macros left).
        write_wrapper(os.path.abspath(opts.source_path))
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
        proc = run(
            compile_cmd("c++-cpp-output", pre, head), "device compile", stdin=subprocess.DEVNULL, stderr=subprocess.PIPE
        )
        _relay_diagnostics(proc.stderr.replace(pre.encode(), wrapper.encode()), opts, wrapper)
        text = None  # what was compiled is the whole file
    else:
        _relay_diagnostics(proc.stderr, opts, wrapper)
    if proc.returncode != 0:
        raise BishengError(f"compilation of the kernel entries for '{opts.source}' failed", proc.returncode)
    sizes = read_param_sizes(tools, workdir, device_obj, len(kernels), run) if kernels else []
    return device_obj, sizes, whole or text is None


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
                    continue  # unchanged: keep the timestamp, so nothing rebuilds
        except OSError:
            pass
        tmp = path + f".{os.getpid()}.tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)


def _verify_embedded(tools: Tools, workdir: str, host_obj: str, device_so: str, run: Run) -> None:
    # The contract users rely on: objcopy extracts exactly the device binary, i.e. the section
    # holds its bytes (read from the section table, as llvm-objcopy -O binary --only-section does).
    from .elf_file import ElfFile

    with PHASES.measure("embedded binary check"):
        embedded = ElfFile(host_obj).section_bytes(codegen.AICORE_SECTION)
        with open(device_so, "rb") as f:
            if embedded != f.read():
                raise BishengError(
                    f"internal error: {codegen.AICORE_SECTION} of the host object does not match the device binary"
                )


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
    if opts.dep_mode == "-MD":  # -MMD leaves out system headers, like clang
        for root, header in ((res.asc_include, ENTRY_HEADER), (res.abi_include, ABI_HEADER)):
            path = os.path.join(root, header)
            if path not in deps:
                deps.append(path)
    targets = [t for _, t in opts.dep_targets] or [opts.output]
    final = os.path.join(workdir, "final.d")
    with open(final, "w", encoding="utf-8") as f:
        f.write(format_deps(targets, deps, opts.dep_phony))
    return final


def _build_device_binary(
    opts: Options, tools: Tools, res: ResourceDirs, workdir: str, kernels: list, run: Run, use_prefix: bool, deps: list
) -> tuple:
    """(device.so, parameter infos, whether the whole file was compiled): the device pass and
    the device link. A device text without a body the kernels need fails that link (-z defs):
    then the whole file is compiled."""
    wrapper = os.path.join(workdir, "entries.cpp")
    whole = False
    while True:
        device_obj, infos, whole = _compile_device_object(
            opts, tools, res, workdir, kernels, run, use_prefix, deps, whole=whole
        )
        held: list = []
        relay = (lambda err: _relay_diagnostics(err, opts, wrapper)) if whole else held.append
        try:
            device_so = device_binary.link(
                tools, workdir, [device_obj], [k.name for k in kernels], run, f"'{opts.source}'", relay
            )
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
        digest = device_cache.source_digest(opts.source_path) if text is None else device_cache.text_digest(text)
        keys[whole] = device_cache.key_of(identity, tree, opts, digest, deps, kernels)
    return keys


def _device_key(opts: Options, tools: Tools, res: ResourceDirs, deps: list, kernels: list) -> Optional[dict]:
    """The device cache keys, or None: no cache, or the host pass listed no system headers (-MMD)."""
    if opts.dep_mode == "-MMD" or device_cache.directory() is None:
        return None
    try:
        return _device_keys(opts, tools, res, deps, kernels)
    except OSError:
        return None  # a header vanished since the host pass: compile, do not guess


class _SpeculativeDevice:
    """The device pass and link for the kernels the last compile of this source found, run on a
    thread beside the host pass (clang runs in its own process, so the two use two cores). Taken
    only when the host pass succeeds and lists the same kernels; else cancelled (its clang
    killed) and the device pass runs as usual, after the host pass. Its diagnostics are held
    and shown after the host pass's, as without it."""

    def __init__(
        self, opts: Options, tools: Tools, res: ResourceDirs, workdir: str, kernels: list, use_prefix: bool, deps: list
    ) -> None:
        self.kernels, self.deps = kernels, deps
        self.texts: list = []  # its diagnostics, held until the host pass has spoken
        self.result: Optional[tuple] = None
        self.error: Optional[BaseException] = None
        self.run = Run(False, cancellable=True)
        self.thread = threading.Thread(target=self._main, args=(opts, tools, res, workdir, use_prefix), daemon=True)
        self.thread.start()

    def _main(self, opts, tools, res, workdir, use_prefix) -> None:
        _held.texts = self.texts
        try:
            self.result = _build_device_binary(opts, tools, res, workdir, self.kernels, self.run, use_prefix, self.deps)
        except BaseException as e:  # handed to the main thread by take()
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


def _speculate(
    opts: Options, tools: Tools, res: ResourceDirs, workdir: str, use_prefix: bool, last: Optional[tuple]
) -> Optional[_SpeculativeDevice]:
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
        pass  # a header of the last compile is gone: the kernels may still be the same
    return _SpeculativeDevice(opts, tools, res, workdir, kernels, use_prefix, deps)


def _object_key_half(opts: Options, tools: Tools, res: ResourceDirs, separate: bool) -> Optional[str]:
    if not object_cache.eligible(opts) or object_cache.directory() is None:
        return None
    from .cache_key import compiler_identity

    return object_cache.first_half(
        compiler_identity(tools),
        pch.tree_digest([res.asc_include, res.abi_include]),
        opts,
        res,
        device_cache.source_digest(opts.source_path),
        separate,
    )


def _object_key(opts: Options, half: str, deps: list) -> Optional[str]:
    """The whole key from the headers `deps` (clang's list), or None for a source that spells
    a clock macro."""
    headers = tuple(sorted({d for d in deps if d != opts.source}))
    digest = device_cache.headers_digest(headers, opts.source)
    if object_cache.spells_a_clock_macro(opts.source_path, list(headers), digest):
        return None
    return object_cache.full_key(half, digest)


def _cached_objects(
    opts: Options, tools: Tools, res: ResourceDirs, workdir: str, run: Run, objects: Optional[list]
) -> Optional[list]:
    """The kernel names when the object cache served this compile's objects (object_cache.py),
    else None. Asks clang for the headers only when the source and flags are those of a cached
    compile (after an edit nothing is spent here)."""
    half = _object_key_half(opts, tools, res, objects is not None)
    if half is None or not object_cache.has_first_half(half):
        return None
    try:
        with PHASES.measure("object cache (dependency scan, look-up)"):
            key = _object_key(opts, half, scan_deps(opts, tools, res, workdir, run, report=False))
            got = object_cache.load(key, [opts.output_path, opts.output_path + REGISTRATION_SUFFIX]) if key else None
    except (BishengError, OSError):
        return None  # the compile itself will say what is wrong
    if got is None:
        return None
    kernels, written = got
    if objects is not None:
        objects += written
    return kernels


def _store_objects(
    opts: Options, tools: Tools, res: ResourceDirs, separate: bool, deps: list, written: list, kernel_names: list
) -> None:
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
        pass  # a cache that cannot be filled only costs time


class _Background:
    """fn() on a thread; result() joins it and returns its value or raises its exception."""

    def __init__(self, fn) -> None:
        self._value = None
        self._error: Optional[BaseException] = None
        self._thread = threading.Thread(target=self._main, args=(fn,), daemon=True)
        self._thread.start()

    def _main(self, fn) -> None:
        try:
            self._value = fn()
        except BaseException as e:  # handed to the caller by result()
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

    check_paths(opts)
    run = Run(opts.verbose)
    # Temporaries live beside what is published (same file system: rename is atomic).
    out_dir = os.path.dirname(os.path.abspath(opts.publish_path))
    sweep_dead_workdirs(out_dir)
    try:
        workdir = tempfile.mkdtemp(prefix=f"{WORKDIR_PREFIX}{os.getpid()}-", dir=out_dir)
    except OSError as e:
        raise BishengError(f"cannot write '{opts.output}': {e.strerror} (directory '{out_dir}')")
    spec = None
    separate, registration = objects is not None, None
    try:
        if opts.twin_key_only:
            report_key_only(opts, tools, res, workdir, run)
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
        if opts.rdc:  # -dc: the device object travels in the host object to the link
            device_obj, infos, _ = _compile_device_object(
                opts, tools, res, workdir, kernels, run, use_prefix, [], with_meta=False, whole=True
            )
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
            taken = (
                spec.take(
                    kernels,
                    lambda guessed: (
                        device_source_text(opts, kernels, False, guessed, res)
                        == device_source_text(opts, kernels, False, host_deps, res)
                    ),
                )
                if spec and not hit
                else None
            )
            if hit:
                device_so, infos = hit
            else:
                device_so, infos, whole = taken or _build_device_binary(
                    opts, tools, res, workdir, kernels, run, use_prefix, host_deps
                )
                # stored under the key of the text it was compiled from
                device_key = device_keys[whole] if device_keys else None
                if device_key:
                    with PHASES.measure("device cache (store)"):
                        device_cache.store(device_key, device_so, infos)
            if device_key:
                device_cache.remember(opts, kernels, host_deps)
            kernels = device_binary.export_local_stubs(tools, workdir, host_obj, device_so, kernels, run)
            reg_cached = bool(hit) and device_key is not None and device_cache.load_registration(device_key, workdir)
            merged = device_binary.registration_object(
                tools, res, workdir, [] if separate else [host_obj], device_so, kernels, infos, run, compiled=reg_cached
            )
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
        dep_target, key_target = opts.dep_file, opts.twin_cache_key
        if depfile:
            if dep_target is None:  # (clang would name it after the object; this driver needs -MF)
                raise BishengError(f"{opts.dep_mode} without -MF FILE: pass the depfile's name with -MF")
            check_parent(dep_target, "depfile")
        key_report = None
        if key_target:
            if opts.dep_mode == "-MMD":  # pass 1 left out system headers; the key needs them all
                deps = scan_deps(opts, tools, res, workdir, run)
            else:
                deps = _host_deps(opts, workdir, host_prefix)
            key_report = write_key_report(opts, tools, res, workdir, deps)
            check_parent(key_target, "kernel cache key file")
        # Output last, so a failure never leaves a new OUT beside a stale depfile or key.
        if depfile and dep_target:
            publish(depfile, dep_target)
        if key_report and key_target:
            publish(key_report, key_target)
        output = opts.output_path
        if registration:
            publish(registration, output + REGISTRATION_SUFFIX)
        publish(host_obj, output)
        written = [output] + ([output + REGISTRATION_SUFFIX] if registration else [])
        if objects is not None:
            objects += written
        if object_cache.eligible(opts) and not opts.rdc:
            _store_objects(
                opts,
                tools,
                res,
                objects is not None,
                _host_deps(opts, workdir, host_prefix),
                written,
                [k.name for k in kernels],
            )
        return [k.name for k in kernels]
    finally:
        if spec is not None:
            spec.abandon()  # nothing may still write into workdir
        shutil.rmtree(workdir, ignore_errors=True)
