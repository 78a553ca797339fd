"""What GE needs to find a custom operator, as Bazel values.

    opp_root(name, libs)                      a CANN custom OPP root: <root>/libcust_opapi.so
    ge_op_proto_library(name, srcs, hdrs)     an OPP proto library (REG_OP + IMPL_OP), lib*.so
    ge_op_info(name, opp_root, plugin_dir, plugin_files, kernels, op_types)
                                              -> OppInfo: everything atc_om / a test needs
    soc_file(name)                            <name>.txt holding the build's SoC

`ge_custom_op` (defs.bzl) declares all of these for one operator; atc_om (//offline:defs.bzl)
takes OppInfo targets in `ops`.
"""

load("@rules_cc//cc:defs.bzl", "cc_binary")
load("//tools/bisheng:defs.bzl", "AscendcKernelInfo")
load("//tools/bisheng:soc.bzl", "SOC_ATTRS", "selected_soc")

OppInfo = provider(
    doc = "A custom operator as GE sees it: the OPP root of its proto library, its Python plugin " +
          "directory (the two ASCEND_CUSTOM_OPP_PATH entries) and its Bazel-built kernels.",
    fields = {
        "opp_root": "File (directory): holds libcust_opapi.so",
        "plugin_dir": "string: workspace-relative directory of the compile holder(s)",
        "plugin_files": "depset of File: the plugin directory's files and what they read (kernel sources)",
        "kernels": "list of AscendcKernelInfo: kernels built for this configuration's SoC (seed atc's cache)",
        "op_types": "list of string: the operator types the proto library registers",
    },
)

def _opp_root_impl(ctx):
    root = ctx.actions.declare_directory(ctx.label.name)
    ctx.actions.run_shell(
        outputs = [root],
        inputs = ctx.files.libs,
        command = 'set -eu; out="$1"; shift; mkdir -p "$out"; for f in "$@"; do cp -L "$f" "$out/"; done',
        arguments = [root.path] + [f.path for f in ctx.files.libs],
        mnemonic = "OppRoot",
        progress_message = "Laying out custom OPP root %s" % root.short_path,
    )
    return [DefaultInfo(files = depset([root]), runfiles = ctx.runfiles(files = [root]))]

opp_root = rule(
    implementation = _opp_root_impl,
    doc = "A custom OPP root holding proto libraries at its top (CANN's 'new .so delivery' form).",
    attrs = {"libs": attr.label_list(allow_files = [".so"], mandatory = True)},
)

# Why these flags: CANN builds op proto libraries with hidden visibility (only the registrations,
# run from static constructors, matter) and OP_PROTO_LIB selects the library side of op headers.
PROTO_COPTS = ["-DOP_PROTO_LIB", "-fvisibility=hidden"]

def ge_op_proto_library(name, srcs, hdrs = [], deps = [], copts = [], **kwargs):
    """The OPP proto library of REG_OP prototypes + IMPL_OP inference.

    A shared object that links
    libgraph/libgraph_base/libopp_registry dynamically (//twin/graph), so it registers into the
    process's one copy of each registry. `name` is its file name: lib<...>.so."""
    base = name.rpartition("/")[2]
    if not (base.startswith("lib") and base.endswith(".so")):
        fail("ge_op_proto_library '%s': the name is the library's file name and must be lib<...>.so" % name)
    cc_binary(
        name = name,
        srcs = srcs + hdrs,
        copts = PROTO_COPTS + copts,
        linkshared = True,
        deps = ["//twin/graph"] + deps,
        **kwargs
    )

def _ge_op_info_impl(ctx):
    plugin_dir = ctx.attr.plugin_dir.strip("/")
    if ctx.attr.plugin_dir.startswith("/") or ".." in plugin_dir.split("/"):
        fail("plugin_dir '%s' of %s must be a workspace-relative directory" % (ctx.attr.plugin_dir, ctx.label))
    if not [f for f in ctx.files.plugin_files if f.short_path.rpartition("/")[0] == plugin_dir]:
        fail("plugin_dir '%s' of %s holds none of plugin_files" % (plugin_dir, ctx.label))
    files = depset([ctx.file.opp_root] + ctx.files.plugin_files)
    return [
        OppInfo(
            opp_root = ctx.file.opp_root,
            plugin_dir = plugin_dir,
            plugin_files = depset(ctx.files.plugin_files),
            kernels = [k[AscendcKernelInfo] for k in ctx.attr.kernels],
            op_types = ctx.attr.op_types,
        ),
        DefaultInfo(files = files, runfiles = ctx.runfiles(transitive_files = files)),
    ]

ge_op_info = rule(
    implementation = _ge_op_info_impl,
    doc = "OppInfo of one operator (its files are also the target's files and runfiles).",
    attrs = {
        "opp_root": attr.label(mandatory = True, allow_single_file = True),
        "plugin_dir": attr.string(mandatory = True, doc = "Workspace-relative Python plugin directory"),
        "plugin_files": attr.label_list(allow_files = True, mandatory = True),
        "kernels": attr.label_list(providers = [AscendcKernelInfo]),
        "op_types": attr.string_list(),
    },
    provides = [OppInfo],
)

def _soc_file_impl(ctx):
    out = ctx.actions.declare_file(ctx.label.name + ".txt")
    ctx.actions.write(out, selected_soc(ctx) + "\n")
    return [DefaultInfo(files = depset([out]), runfiles = ctx.runfiles(files = [out]))]

soc_file = rule(
    implementation = _soc_file_impl,
    doc = "<name>.txt: the SoC this build targets (tools/bisheng/soc.bzl), for tests to read at run time.",
    attrs = SOC_ATTRS,
)
