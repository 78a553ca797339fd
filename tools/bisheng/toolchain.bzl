"""The bisheng toolchain: the driver and the LLVM tools it runs, resolved through Bazel's
toolchain mechanism (toolchain type //tools/bisheng:toolchain_type) instead of private
attributes on every rule, so another LLVM (or a real CANN bisheng) is one `register_toolchains`
away.

    bisheng_toolchain(name, bisheng, clang, clang_files, lld, lld_files, objcopy, objcopy_files)

Rules declare `toolchains = [BISHENG_TOOLCHAIN_TYPE]` and read `bisheng_tools(ctx)`.
"""

BISHENG_TOOLCHAIN_TYPE = "//tools/bisheng:toolchain_type"

def _bisheng_toolchain_impl(ctx):
    files = depset(transitive = [
        ctx.attr.clang_files.files,
        ctx.attr.lld_files.files,
        ctx.attr.objcopy_files.files,
    ])
    return [platform_common.ToolchainInfo(
        bisheng = ctx.attr.bisheng[DefaultInfo].files_to_run,
        objcopy = ctx.file.objcopy,
        tool_files = files,
        # How the driver finds its tools inside an action (nothing comes from the environment).
        env = {
            "BISHENG_CLANG": ctx.file.clang.path,
            "BISHENG_LLD": ctx.file.lld.path,
            "BISHENG_OBJCOPY": ctx.file.objcopy.path,
        },
    )]

bisheng_toolchain = rule(
    implementation = _bisheng_toolchain_impl,
    attrs = {
        "bisheng": attr.label(mandatory = True, executable = True, cfg = "exec"),
        "clang": attr.label(mandatory = True, allow_single_file = True, cfg = "exec"),
        "clang_files": attr.label(mandatory = True, cfg = "exec"),
        "lld": attr.label(mandatory = True, allow_single_file = True, cfg = "exec"),
        "lld_files": attr.label(mandatory = True, cfg = "exec"),
        "objcopy": attr.label(mandatory = True, allow_single_file = True, executable = True, cfg = "exec"),
        "objcopy_files": attr.label(mandatory = True, cfg = "exec"),
    },
)

def bisheng_tools(ctx):
    """The resolved toolchain of a rule that declared BISHENG_TOOLCHAIN_TYPE."""
    return ctx.toolchains[BISHENG_TOOLCHAIN_TYPE]
