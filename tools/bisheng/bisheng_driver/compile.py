"""The compile pipeline: check + discover, build the device binary, wrap it."""

import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from typing import Optional

from . import codegen
from .depfile import format_deps, parse_deps
from .errors import BishengError
from .options import Options
from .toolchain import ABI_HEADER, ENTRY_HEADER, ResourceDirs, Tools

GENERATED_NAME = "<bisheng: generated kernel entries>"
# Stable spellings for paths that vary between machines and sandboxes, so that
# debug info and __FILE__ do not depend on where things were built.
MAPPED_WORKDIR = "bisheng-gen"
MAPPED_ASC_INCLUDE = "/asc-twin/asc/include"
MAPPED_ABI_INCLUDE = "/asc-twin/abi/include"


class _Run:
    """Runs tools, echoing each command under -v."""

    def __init__(self, verbose: bool) -> None:
        self.verbose = verbose

    def __call__(self, cmd: list, **kwargs) -> subprocess.CompletedProcess:
        if self.verbose:
            print(" " + shlex.join(cmd), file=sys.stderr, flush=True)
        try:
            return subprocess.run(cmd, **kwargs)
        except OSError as e:
            raise BishengError(f"cannot run {cmd[0]}: {e.strerror}")


def _language_flags(opts: Options) -> list:
    arch = opts.arch
    # --driver-mode=g++: C++ semantics (and libstdc++ at link) whatever the clang binary is called.
    flags = ["--driver-mode=g++", "-x", "c++", f"-std={opts.std}", opts.opt_level, "-fPIC",
             f"-D__NPU_ARCH__={arch.number}", f"-D__CCE_AICORE__={arch.cce_aicore}"]
    if opts.core_macro:
        flags.append(f"-D{opts.core_macro}=1")
    if opts.debug_flag:
        flags.append(opts.debug_flag)
    return flags


def _include_flags(opts: Options, res: ResourceDirs) -> list:
    flags = list(opts.preprocessor_flags) + ["-isystem", res.asc_include]
    if res.abi_include != res.asc_include:
        flags += ["-isystem", res.abi_include]
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


def _host_launch_error(opts: Options) -> Optional[BishengError]:
    """The error for a `k<<<...>>>(...)` host launch in the source, if it has one."""
    from .launch_syntax import find_host_launch
    with open(opts.source, encoding="utf-8", errors="replace") as f:
        found = find_host_launch(f.read())
    if not found:
        return None
    line, name = found
    return BishengError(
        f"{opts.source}:{line}: host launch '{name}<<<...>>>' is not supported by bisheng "
        "(ascend-twin), which compiles device code only; keep host code in its own file and "
        "launch through the runtime (ACLRT_LAUNCH_KERNEL / the custom-op holder)")


def _discover(opts: Options, tools: Tools, res: ResourceDirs, workdir: str, run: _Run) -> list:
    """Pass 1 on the user's file as written: diagnostics carry the user's paths,
    the depfile lists the user's headers, and the AST names the kernels."""
    from .discover import kernels_from_ast_dump

    cmd = [tools.clang] + _language_flags(opts) + _include_flags(opts, res) + opts.warning_flags
    # The cache key needs every header read, system ones included (-MD), even without a depfile.
    dep_mode = opts.dep_mode or ("-MD" if opts.twin_cache_key else None)
    if dep_mode:
        cmd += [dep_mode, "-MF", os.path.join(workdir, "deps.d")]
        targets = opts.dep_targets or [("-MT", opts.output)]
        for kind, target in targets:
            cmd += [kind, target]
    if sys.stderr.isatty():
        cmd.append("-fcolor-diagnostics")   # stderr is captured below
    cmd += ["-fsyntax-only", "-Xclang", "-ast-dump", opts.source]
    dump_path = os.path.join(workdir, "ast.txt")
    with open(dump_path, "wb") as dump:
        proc = run(cmd, stdout=dump, stdin=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if proc.returncode != 0:
        # A `<<<` launch in active code makes clang report parse errors that only confuse;
        # name the launch instead. (One in code the preprocessor drops compiles fine.)
        launch_error = _host_launch_error(opts)
        if launch_error:
            raise launch_error
        sys.stderr.buffer.write(proc.stderr)
        sys.stderr.flush()
        raise BishengError(f"compilation of '{opts.source}' failed", proc.returncode)
    sys.stderr.buffer.write(proc.stderr)    # warnings
    sys.stderr.flush()
    return kernels_from_ast_dump(dump_path, opts.source)


def _relay_diagnostics(stderr: bytes, opts: Options, wrapper: str) -> None:
    text = stderr.decode("utf-8", errors="replace")
    text = text.replace(wrapper, GENERATED_NAME).replace(os.path.abspath(opts.source), opts.source)
    sys.stderr.write(text)
    sys.stderr.flush()


def _build_device_binary(opts: Options, tools: Tools, res: ResourceDirs, workdir: str,
                         kernel_names: list, run: _Run) -> str:
    wrapper = os.path.join(workdir, "entries.cpp")
    with open(wrapper, "w", encoding="utf-8") as f:
        f.write(codegen.wrapper_source(os.path.abspath(opts.source), opts.arch, kernel_names))
    exports = os.path.join(workdir, "exports.map")
    with open(exports, "w", encoding="utf-8") as f:
        f.write(codegen.version_script(kernel_names))

    device_obj = os.path.join(workdir, "device.o")
    # -w: pass 1 already showed the user's warnings (and applied -Werror) once.
    cmd = ([tools.clang] + _language_flags(opts) + _include_flags(opts, res)
           + ["-w", "-fvisibility=hidden", "-fvisibility-inlines-hidden"]
           + _prefix_maps(res, workdir) + ["-c", wrapper, "-o", device_obj])
    proc = run(cmd, stdin=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _relay_diagnostics(proc.stderr, opts, wrapper)
    if proc.returncode != 0:
        raise BishengError(f"compilation of the kernel entries for '{opts.source}' failed",
                           proc.returncode)

    device_so = os.path.join(workdir, "device.so")
    # -nostartfiles: no crti/crtbegin, so the image has no DT_INIT/DT_FINI/INIT_ARRAY/FINI_ARRAY;
    # the runtime refuses images that would run code when loaded (twin/runtime/device).
    cmd = [tools.clang, "--driver-mode=g++", "-shared", "-nostartfiles", "-fPIC", "-fuse-ld=lld",
           f"--ld-path={tools.lld}", device_obj, "-o", device_so,
           f"-Wl,--version-script={exports}", "-Wl,-z,defs", "-Wl,-z,now",
           "-Wl,-z,noexecstack", "-Wl,--build-id=sha1", "-Wl,--hash-style=gnu"]
    proc = run(cmd, stdin=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _relay_diagnostics(proc.stderr, opts, wrapper)
    if proc.returncode != 0:
        raise BishengError(f"linking the device binary for '{opts.source}' failed", proc.returncode)
    return device_so


def _wrap_host_object(tools: Tools, workdir: str, device_so: str, run: _Run) -> str:
    asm = os.path.join(workdir, "host.s")
    with open(asm, "w", encoding="utf-8") as f:
        f.write(codegen.host_object_asm(device_so))
    host_obj = os.path.join(workdir, "host.o")
    proc = run([tools.clang, "-c", "-x", "assembler", "-g0", asm, "-o", host_obj],
               stdin=subprocess.DEVNULL)
    if proc.returncode != 0:
        raise BishengError("assembling the host object failed", proc.returncode)
    # The contract users rely on: objcopy extracts exactly the device binary.
    extracted = os.path.join(workdir, "extracted.bin")
    proc = run([tools.objcopy, "-O", "binary", f"--only-section={codegen.AICORE_SECTION}",
                host_obj, extracted], stdin=subprocess.DEVNULL)
    if proc.returncode != 0:
        raise BishengError("llvm-objcopy could not read back the host object", proc.returncode)
    with open(extracted, "rb") as a, open(device_so, "rb") as b:
        if a.read() != b.read():
            raise BishengError(f"internal error: {codegen.AICORE_SECTION} of the host object "
                               "does not match the device binary")
    return host_obj


def _scan_deps(opts: Options, tools: Tools, res: ResourceDirs, workdir: str, run: _Run) -> list:
    """Every file the preprocessor reads for the source (clang -M): no parse, no code."""
    deps_path = os.path.join(workdir, "scan.d")
    cmd = ([tools.clang] + _language_flags(opts) + _include_flags(opts, res)
           + ["-w", "-M", "-MF", deps_path, "-MT", "scan", opts.source])
    proc = run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if proc.returncode != 0:
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


def _finish_depfile(opts: Options, res: ResourceDirs, workdir: str) -> str:
    with open(os.path.join(workdir, "deps.d"), encoding="utf-8") as f:
        deps = parse_deps(f.read())
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


def compile_kernel(opts: Options, tools: Tools, res: ResourceDirs) -> list:
    """Build opts.output; returns the kernel names."""
    _check_paths(opts)
    run = _Run(opts.verbose)
    # Temporaries live beside what is published (same file system: rename is atomic).
    out_dir = os.path.dirname(os.path.abspath(opts.twin_cache_key if opts.twin_key_only else opts.output))
    _sweep_dead_workdirs(out_dir)
    try:
        workdir = tempfile.mkdtemp(prefix=f"{WORKDIR_PREFIX}{os.getpid()}-", dir=out_dir)
    except OSError as e:
        raise BishengError(f"cannot write '{opts.output}': {e.strerror} (directory '{out_dir}')")
    try:
        if opts.twin_key_only:
            _report_key_only(opts, tools, res, workdir, run)
            return []
        kernels = _discover(opts, tools, res, workdir, run)
        names = [k.name for k in kernels]
        device_so = _build_device_binary(opts, tools, res, workdir, names, run)
        host_obj = _wrap_host_object(tools, workdir, device_so, run)
        depfile = _finish_depfile(opts, res, workdir) if opts.dep_mode else None
        if depfile:
            _check_parent(opts.dep_file, "depfile")
        key_report = None
        if opts.twin_cache_key:
            if opts.dep_mode == "-MMD":   # pass 1 left out system headers; the key needs them all
                deps = _scan_deps(opts, tools, res, workdir, run)
            else:
                with open(os.path.join(workdir, "deps.d"), encoding="utf-8") as f:
                    deps = parse_deps(f.read())
            key_report = _write_key_report(opts, tools, res, workdir, deps)
            _check_parent(opts.twin_cache_key, "kernel cache key file")
        # Output last, so a failure never leaves a new OUT beside a stale depfile or key.
        if depfile:
            _publish(depfile, opts.dep_file)
        if key_report:
            _publish(key_report, opts.twin_cache_key)
        _publish(host_obj, opts.output)
        return names
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
