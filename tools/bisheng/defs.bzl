"""Bazel rules for Ascend C kernels built by bisheng (ascend-twin).

    load("//tools/bisheng:defs.bzl", "ascendc_kernel")
    ascendc_kernel(name = "add_custom", src = "add_custom.asc", hdrs = ["tiling.h"])

produces `add_custom.aicore.o` (the raw device binary) through declared, sandboxed actions:
  1. soc_params:   twin/platform/<SoC>.ini            -> <name>.arch.params (--npu-arch=dav-NNNN)
  2. bisheng:      src + hdrs + @<name>.arch.params   -> <name>.host.o
  3. llvm-objcopy: -O binary --only-section=.aicore_binary <name>.host.o -> <name>.aicore.o
  4. llvm-objcopy: -O binary --only-section=.ascend.meta <name>.aicore.o -> <name>.meta
     (the `abi=/npu_arch=/npu_arch_flag=/kernel=` lines, for tools that want the kernel names)
Step 2 also writes <name>.cache_key (bisheng --twin-cache-key): the kernel cache key of
<name>.aicore.o, the same key the JIT builds of compile holders use (README "Kernel cache key").
The SoC is `soc` if given, else the build setting //tools/bisheng:soc, else `--define soc=...`,
else Ascend910B1 (soc.bzl).
"""

load(":soc.bzl", "SOC_ATTRS", "selected_soc")
load(":soc_table.bzl", "DEFAULT_SOC", "SOC_NPU_ARCH", "npu_arch_flag")
load(":toolchain.bzl", "BISHENG_TOOLCHAIN_TYPE", "bisheng_tools")

AscendcKernelInfo = provider(
    doc = "A kernel compiled by bisheng for one SoC.",
    fields = {
        "aicore": "File: the device binary (ELF shared object, see asc_twin/aicore_abi.h)",
        "host_object": "File: bisheng's host relocatable object holding it in .aicore_binary",
        "meta": "File: the device binary's .ascend.meta text (kernel=<name> lines; NUL-terminated)",
        "cache_key": "File: JSON report of the kernel cache key of `aicore` (field `key`)",
        "src": "File: the kernel source",
        "soc": "string: SoC the kernel was built for, e.g. 'Ascend910B1'",
        "npu_arch": "int: its NpuArch / __NPU_ARCH__, e.g. 2201",
        "npu_arch_flag": "string: the --npu-arch given to bisheng, e.g. 'dav-2201'",
    },
)

def _select_soc(ctx):
    soc = selected_soc(ctx, "ascendc_kernel %s" % ctx.label)
    for f in ctx.files.platform_configs:
        if f.basename == soc + ".ini":
            return soc, f
    fail("SoC '%s' has no platform config %s.ini among %s" % (soc, soc, ctx.attr.platform_configs))

def _ascendc_kernel_impl(ctx):
    soc, ini = _select_soc(ctx)
    npu_arch = SOC_NPU_ARCH[soc]
    name = ctx.label.name
    no_env = {}  # nothing from the caller's environment reaches the actions

    params = ctx.actions.declare_file(name + ".arch.params")
    ctx.actions.run(
        executable = ctx.executable._soc_params,
        arguments = [soc, ini.path, str(npu_arch), params.path],
        inputs = [ini],
        outputs = [params],
        mnemonic = "AscendcSocParams",
        progress_message = "Reading SoC config %s for %s" % (soc, ctx.label),
        use_default_shell_env = False,
        env = no_env,
    )

    host_object = ctx.actions.declare_file(name + ".host.o")
    args = ctx.actions.args()
    args.add("@" + params.path)
    args.add("-c", ctx.file.src)
    args.add("-o", host_object)
    cache_key = ctx.actions.declare_file(name + ".cache_key")
    args.add("--twin-cache-key=" + cache_key.path)
    args.add("--twin-soc=" + soc)
    args.add_all(["-iquote", ".", "-iquote", ctx.bin_dir.path])
    args.add_all(ctx.attr.defines, format_each = "-D%s")
    args.add_all(ctx.attr.copts)
    tools = bisheng_tools(ctx)
    objcopy = tools.objcopy
    ctx.actions.run(
        executable = tools.bisheng,
        arguments = [args],
        inputs = depset([ctx.file.src, params] + ctx.files.hdrs, transitive = [tools.tool_files]),
        outputs = [host_object, cache_key],
        mnemonic = "BiSheng",
        progress_message = "Compiling Ascend C kernel %s for %s" % (ctx.file.src.short_path, soc),
        use_default_shell_env = False,
        env = tools.env,
    )

    aicore = ctx.actions.declare_file(name + ".aicore.o")
    ctx.actions.run(
        executable = objcopy,
        arguments = ["-O", "binary", "--only-section=.aicore_binary", host_object.path, aicore.path],
        inputs = [host_object],
        outputs = [aicore],
        mnemonic = "AscendcExtract",
        progress_message = "Extracting device binary %s" % aicore.short_path,
        use_default_shell_env = False,
        env = no_env,
    )

    meta = ctx.actions.declare_file(name + ".meta")
    ctx.actions.run(
        executable = objcopy,
        arguments = ["-O", "binary", "--only-section=.ascend.meta", aicore.path, meta.path],
        inputs = [aicore],
        outputs = [meta],
        mnemonic = "AscendcMeta",
        progress_message = "Extracting kernel list %s" % meta.short_path,
        use_default_shell_env = False,
        env = no_env,
    )

    return [
        DefaultInfo(files = depset([aicore]), runfiles = ctx.runfiles(files = [aicore])),
        OutputGroupInfo(
            host_object = depset([host_object]),
            meta = depset([meta]),
            cache_key = depset([cache_key]),
        ),
        AscendcKernelInfo(
            aicore = aicore,
            host_object = host_object,
            meta = meta,
            cache_key = cache_key,
            src = ctx.file.src,
            soc = soc,
            npu_arch = npu_arch,
            npu_arch_flag = npu_arch_flag(npu_arch),
        ),
    ]

_ascendc_kernel = rule(
    implementation = _ascendc_kernel_impl,
    attrs = dict(SOC_ATTRS, **{
        "src": attr.label(allow_single_file = [".asc", ".cpp", ".cc", ".cce"], mandatory = True),
        "hdrs": attr.label_list(allow_files = True),
        "copts": attr.string_list(),
        "defines": attr.string_list(),
        "soc": attr.string(doc = "SoC to build for; default: //tools/bisheng:soc, --define soc=..., else " + DEFAULT_SOC),
        "platform_configs": attr.label_list(
            allow_files = [".ini"],
            default = ["//twin/platform:configs"],
        ),
        "_soc_params": attr.label(default = "//tools/bisheng:soc_params", executable = True, cfg = "exec"),
    }),
    toolchains = [BISHENG_TOOLCHAIN_TYPE],
    provides = [AscendcKernelInfo],
)

def ascendc_kernel(name, src, hdrs = [], copts = [], defines = [], soc = None, **kwargs):
    """An Ascend C kernel compiled by bisheng.

    Outputs `<name>.aicore.o` plus `<name>.host.o` (output group `host_object`), `<name>.meta` (`meta`), `<name>.cache_key` (`cache_key`)
    and the AscendcKernelInfo provider."""
    _ascendc_kernel(
        name = name,
        src = src,
        hdrs = hdrs,
        copts = copts,
        defines = defines,
        soc = soc or "",
        **kwargs
    )

# ---- ascendc_binary / ascendc_test: single-file programs (host main + kernels + <<<>>>) ----

def _ascendc_binary_impl(ctx):
    soc, ini = _select_soc(ctx)
    npu_arch = SOC_NPU_ARCH[soc]
    name = ctx.label.name

    # bisheng links against one library directory: lay the two runtime libraries out in one.
    libs = []
    for lib_name, target in [("libascendcl.so", ctx.file._libascendcl), ("libascendc_runtime.so", ctx.file._libascendc_runtime)]:
        link = ctx.actions.declare_file("%s.ascend_libs/%s" % (name, lib_name))
        ctx.actions.symlink(output = link, target_file = target)
        libs.append(link)

    program = ctx.actions.declare_file(name + ".bin")
    args = ctx.actions.args()
    args.add("--npu-arch=" + npu_arch_flag(npu_arch))
    args.add("-x", "asc")
    args.add_all(ctx.files.srcs)
    args.add("-o", program)
    args.add_all(["-iquote", ".", "-iquote", ctx.bin_dir.path])
    args.add_all(ctx.attr.defines, format_each = "-D%s")
    args.add_all(ctx.attr.copts)
    args.add_all(ctx.attr.linkopts)
    tools = bisheng_tools(ctx)
    ctx.actions.run(
        executable = tools.bisheng,
        arguments = [args],
        inputs = depset(
            ctx.files.srcs + ctx.files.hdrs + libs + [ctx.file._libascendcl, ctx.file._libascendc_runtime],
            transitive = [tools.tool_files],
        ),
        outputs = [program],
        mnemonic = "BiShengLink",
        progress_message = "Building Ascend C program %s for %s" % (ctx.label, soc),
        use_default_shell_env = False,
        env = dict(tools.env, BISHENG_TWIN_LIB_DIR = libs[0].dirname, PATH = "/usr/bin:/bin"),
    )

    # The launcher: the program with the twin runtime's libraries from the runfiles, on the SoC
    # the program was built for.
    launcher = ctx.actions.declare_file(name)
    ws = ctx.workspace_name
    ctx.actions.write(
        output = launcher,
        is_executable = True,
        content = """#!/bin/bash
# Generated by ascendc_binary (ascend-twin): runs {prog} with the twin runtime from the runfiles.
root="${{TEST_SRCDIR:-${{RUNFILES_DIR:-$0.runfiles}}}}/{ws}"
export LD_LIBRARY_PATH="$root/{acl_dir}:$root/{launch_dir}${{LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}}"
export ASCEND_TWIN_SOC_VERSION="${{ASCEND_TWIN_SOC_VERSION:-{soc}}}"
export ASCEND_TWIN_PLATFORM_DIR="${{ASCEND_TWIN_PLATFORM_DIR:-$root/{ini_dir}}}"
exec "$root/{prog}" "$@"
""".format(
            ws = ws,
            prog = program.short_path,
            acl_dir = ctx.file._libascendcl.short_path.rpartition("/")[0],
            launch_dir = ctx.file._libascendc_runtime.short_path.rpartition("/")[0],
            soc = soc,
            ini_dir = ini.short_path.rpartition("/")[0],
        ),
    )
    runfiles = ctx.runfiles(files = [program, ctx.file._libascendcl, ctx.file._libascendc_runtime] +
                                    ctx.files.platform_configs + ctx.files.data)
    return [DefaultInfo(executable = launcher, files = depset([launcher, program]), runfiles = runfiles)]

_BINARY_ATTRS = dict(SOC_ATTRS, **{
    "srcs": attr.label_list(allow_files = [".asc", ".cpp", ".cc", ".cce", ".o", ".a"], mandatory = True),
    "hdrs": attr.label_list(allow_files = True),
    "copts": attr.string_list(),
    "linkopts": attr.string_list(),
    "defines": attr.string_list(),
    "data": attr.label_list(allow_files = True),
    "soc": attr.string(doc = "SoC to build for; default: //tools/bisheng:soc, --define soc=..., else " + DEFAULT_SOC),
    "platform_configs": attr.label_list(allow_files = [".ini"], default = ["//twin/platform:configs"]),
    "_libascendcl": attr.label(default = "//twin/runtime:libascendcl.so", allow_single_file = True),
    "_libascendc_runtime": attr.label(default = "//twin/runtime/launch:libascendc_runtime.so", allow_single_file = True),
})

_ascendc_binary = rule(
    implementation = _ascendc_binary_impl,
    attrs = _BINARY_ATTRS,
    executable = True,
    toolchains = [BISHENG_TOOLCHAIN_TYPE],
)
_ascendc_test = rule(
    implementation = _ascendc_binary_impl,
    attrs = _BINARY_ATTRS,
    test = True,
    toolchains = [BISHENG_TOOLCHAIN_TYPE],
)

def ascendc_binary(name, srcs, soc = None, **kwargs):
    """A program built by bisheng from .asc files.

    `bisheng -x asc srcs... -o <name>.bin` (host code, kernels and <<<>>>
    launches in .asc files; .o/.a inputs linked too); `bazel run` it: the launcher `<name>`
    finds the twin runtime in the runfiles. SoC: as for ascendc_kernel (soc.bzl)."""
    _ascendc_binary(name = name, srcs = srcs, soc = soc or "", **kwargs)

def ascendc_test(name, srcs, soc = None, **kwargs):
    """ascendc_binary as a test: passes when the program exits 0 (args/env as for any test)."""
    _ascendc_test(name = name, srcs = srcs, soc = soc or "", **kwargs)
