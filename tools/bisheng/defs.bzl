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
The SoC is `soc` if given, else `--define soc=...`, else Ascend910B1.
"""

load(":soc_table.bzl", "DEFAULT_SOC", "SOC_NPU_ARCH", "npu_arch_flag")

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
    soc = ctx.attr.soc or ctx.var.get("soc", DEFAULT_SOC)
    if soc not in SOC_NPU_ARCH:
        fail("unknown SoC '%s' for ascendc_kernel %s (from %s); known: %s" % (
            soc,
            ctx.label,
            "soc = ..." if ctx.attr.soc else "--define soc=...",
            ", ".join(sorted(SOC_NPU_ARCH.keys())),
        ))
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
    clang = ctx.file._clang_driver
    lld = ctx.file._lld_driver
    objcopy = ctx.file._objcopy
    ctx.actions.run(
        executable = ctx.executable._bisheng,
        arguments = [args],
        inputs = depset(
            [ctx.file.src, params] + ctx.files.hdrs,
            transitive = [depset(ctx.files._clang + ctx.files._lld + ctx.files._objcopy_files)],
        ),
        outputs = [host_object, cache_key],
        mnemonic = "BiSheng",
        progress_message = "Compiling Ascend C kernel %s for %s" % (ctx.file.src.short_path, soc),
        use_default_shell_env = False,
        env = {
            "BISHENG_CLANG": clang.path,
            "BISHENG_LLD": lld.path,
            "BISHENG_OBJCOPY": objcopy.path,
        },
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
    attrs = {
        "src": attr.label(allow_single_file = [".asc", ".cpp", ".cc", ".cce"], mandatory = True),
        "hdrs": attr.label_list(allow_files = True),
        "copts": attr.string_list(),
        "defines": attr.string_list(),
        "soc": attr.string(doc = "SoC to build for; default: --define soc=..., else " + DEFAULT_SOC),
        "platform_configs": attr.label_list(
            allow_files = [".ini"],
            default = ["//twin/platform:configs"],
        ),
        "_bisheng": attr.label(default = "//tools/bisheng:bisheng", executable = True, cfg = "exec"),
        "_soc_params": attr.label(default = "//tools/bisheng:soc_params", executable = True, cfg = "exec"),
        "_clang": attr.label(default = "@llvm_toolchain//:clang", cfg = "exec"),
        "_clang_driver": attr.label(default = "@llvm_toolchain//:bin/clang", allow_single_file = True, cfg = "exec"),
        "_lld": attr.label(default = "@llvm_toolchain//:lld", cfg = "exec"),
        "_lld_driver": attr.label(default = "@llvm_toolchain//:bin/ld.lld", allow_single_file = True, cfg = "exec"),
        "_objcopy_files": attr.label(default = "@llvm_toolchain//:objcopy", cfg = "exec"),
        "_objcopy": attr.label(
            default = "@llvm_toolchain//:bin/llvm-objcopy",
            allow_single_file = True,
            executable = True,
            cfg = "exec",
        ),
    },
    provides = [AscendcKernelInfo],
)

def ascendc_kernel(name, src, hdrs = [], copts = [], defines = [], soc = None, **kwargs):
    """An Ascend C kernel compiled by bisheng: `<name>.aicore.o` plus `<name>.host.o`
    (output group `host_object`), `<name>.meta` (`meta`), `<name>.cache_key` (`cache_key`)
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
