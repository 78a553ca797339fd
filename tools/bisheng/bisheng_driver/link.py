"""The whole driver: compile every source (compile.py), then link executables or shared
libraries against the twin runtime, as CANN's bisheng links against ascendcl."""

import dataclasses
import os
import shutil
import subprocess
import sys
import tempfile

from . import rdc
from .compile import compile_kernel
from .errors import BishengError
from .languages import needs_device_pass
from .linker_line import linker_command
from .options import Options, default_object_name
from .plain import compile_plain
from .publish import publish
from .runner import Run
from .toolchain import ResourceDirs, Tools

# What bisheng links by default (CANN: ascendc_runtime ... ascendcl): the launch shim and ACL.
DEFAULT_LIBS = ("ascendc_runtime", "ascendcl")


def _source_options(opts: Options, source: str, language, output: str) -> Options:
    return dataclasses.replace(opts, source=source, language=language, output=output, inputs=[(source, language)])


def _compile_all(opts: Options, tools: Tools, res: ResourceDirs, objdir=None, for_link: bool = False) -> list:
    """The objects of every source. for_link: they are linked at once (not archived), so a
    kernel source's registration may stay a separate object (compile_kernel)."""
    objects: list = []
    for index, (source, language) in enumerate(opts.inputs):
        if objdir is None:
            output = opts.output if opts.output and len(opts.inputs) == 1 else default_object_name(source)
        else:
            output = os.path.join(objdir, f"{index}_{default_object_name(source)}")
        one = _source_options(opts, source, language, output)
        if needs_device_pass(source, language, opts):
            if for_link:
                compile_kernel(one, tools, res, objects)
                continue
            compile_kernel(one, tools, res)
        else:
            compile_plain(one, tools, res)
        objects.append(output)
    return objects


def _has_runtime(res: ResourceDirs) -> bool:
    return bool(res.lib_dir) and all(os.path.exists(os.path.join(res.lib_dir, f"lib{n}.so")) for n in DEFAULT_LIBS)


def _lib_dir(res: ResourceDirs) -> str:
    lib = res.lib_dir
    if not _has_runtime(res):
        where = f"'{lib}'" if lib else "no library directory"
        raise BishengError(
            f"cannot link: libascendcl.so and libascendc_runtime.so not found ({where}); "
            "use the installed tree (source set_env.sh / set ASCEND_HOME_PATH) or BISHENG_TWIN_LIB_DIR"
        )
    return lib


def _relay_link_errors(stderr: str, output: str) -> None:
    """One line: the linker's own errors, without lld's `>>>` details or clang's summary."""
    errors = []
    for line in stderr.splitlines():
        stripped = line.strip()
        if " error: " in stripped and not stripped.startswith(("clang", "bisheng")):
            errors.append(stripped.split(" error: ", 1)[1])
    if not errors:
        sys.stderr.write(stderr)
    more = f" (and {len(errors) - 3} more)" if len(errors) > 3 else ""
    raise BishengError(f"linking '{output}' failed" + (": " + "; ".join(errors[:3]) + more if errors else ""))


def _link(opts: Options, tools: Tools, res: ResourceDirs, objects: list, workdir: str, run: Run) -> str:
    # A link with no NPU architecture is a plain C/C++ link (bisheng as a project's C/C++
    # compiler): the twin runtime is added when the tree has it, never required.
    plain = opts.arch is None and not _has_runtime(res)
    lib = None if plain else _lib_dir(res)
    out = os.path.join(workdir, "linked.out")
    cmd = [tools.clang, "--driver-mode=g++", "-fuse-ld=lld", f"--ld-path={tools.lld}"]
    if opts.shared:
        cmd += ["-shared", "-fPIC"]
    cmd += objects + list(opts.link_flags)
    if lib:
        cmd += ["-L", lib] + [f"-l{n}" for n in DEFAULT_LIBS] + [f"-Wl,-rpath,{lib}"]
    cmd += ["-lpthread", "-ldl"]
    cmd += ["-o", out] + (["-v"] if opts.verbose else [])  # -v: clang shows its linker line (CMake reads it)
    # the linker's own command when clang's is known (linker_line.py); clang under -v
    direct = None if opts.verbose else linker_command(cmd, objects + [out])
    proc = run(direct or cmd, "link", stdin=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if proc.returncode != 0:
        _relay_link_errors(proc.stderr.decode("utf-8", errors="replace"), opts.output_path)
    if opts.verbose:
        sys.stderr.write(proc.stderr.decode("utf-8", errors="replace"))
    return out


def _archive(opts: Options, tools: Tools, objects: list, workdir: str, run: Run) -> str:
    """-lib: the compiled sources and the object inputs in one static library (each object
    registers its own kernels, so the archive serves any program that links it)."""
    extra = [f for f in opts.link_flags if f.endswith((".o", ".lo"))]
    rest = [f for f in opts.link_flags if f not in extra]
    if rest:
        raise BishengError(f"-lib archives sources and objects only; cannot archive '{rest[0]}'")
    out = os.path.join(workdir, "lib.a")
    proc = run([tools.ar, "rcsD", out] + objects + extra, "archive", stdin=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if proc.returncode != 0:
        raise BishengError(f"archiving '{opts.output}' failed: {proc.stderr.decode(errors='replace').strip()}")
    return out


def build(opts: Options, tools: Tools, res: ResourceDirs) -> None:
    if opts.compile_only:
        _compile_all(opts, tools, res)
        return
    out_dir = os.path.dirname(os.path.abspath(opts.output_path))
    if not os.path.isdir(out_dir):
        raise BishengError(f"cannot write '{opts.output}': directory '{out_dir}' does not exist")
    try:
        workdir = tempfile.mkdtemp(prefix=".bisheng-link-", dir=out_dir)
    except OSError as e:
        raise BishengError(f"cannot write '{opts.output}': {e.strerror} (directory '{out_dir}')")
    try:
        objects = _compile_all(
            dataclasses.replace(opts, dep_mode=None, dep_file=None), tools, res, workdir, for_link=not opts.make_lib
        )
        if opts.make_lib:
            publish(_archive(opts, tools, objects, workdir, Run(opts.verbose)), opts.output_path)
            return
        run = Run(opts.verbose)
        # -dc objects (compiled here or given): their device code is linked into one binary now
        given = [f for f in opts.link_flags if f.endswith((".o", ".lo")) and os.path.isfile(f)]
        found = rdc.collect(tools, workdir, objects + given, run)
        if found:
            objects = objects + [rdc.device_link(tools, res, workdir, found, run)]
        linked = _link(opts, tools, res, objects, workdir, run)
        publish(linked, opts.output_path)
        os.chmod(opts.output_path, 0o755)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
