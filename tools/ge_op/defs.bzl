"""ge_custom_op: one call declares everything a GE custom operator is made of in Bazel.

    load("//tools/ge_op:defs.bzl", "ge_custom_op")

    ge_custom_op(
        name = "leaky_relu_custom",
        op_types = ["LeakyReluCustom"],
        kernel = "kernel/leaky_relu_custom.asc",
        kernel_hdrs = ["kernel/leaky_relu_tiling.h"],
        proto_srcs = ["proto/leaky_relu_custom.cc"],     # or proto_lib = "<label of a lib*.so>"
        proto_hdrs = ["proto/leaky_relu_custom.h"],
        plugin_srcs = ["python/plugin/leaky_relu_custom_holder.py"],
        es_module = "leaky",
    )

Targets (N = name, M = es_module):

| target | what |
|---|---|
| `N_kernel` | `ascendc_kernel` of `kernel` for the build's SoC (AscendcKernelInfo) |
| `N_kernel_cache_key` | its `<N>_kernel.cache_key` (the key the holder's JIT computes) |
| `N/libcust_opapi.so` | the OPP proto library of `proto_srcs` (`ge_op_proto_library`; not with `proto_lib`) |
| `N_proto_headers` | `cc_library` of `proto_hdrs` for C++ graph builders (`#include "<basename>"`) |
| `N_opp_root` | the OPP root directory (`<root>/libcust_opapi.so`) |
| `N_plugin` | `py_library` of the holder (deps `//tools/ascendc_jit`, `//twin/python:ge`; the kernel as data) |
| `N_opp` | `OppInfo`: OPP root + plugin dir + plugin files + `N_kernel`; `atc_om(ops = [":N_opp"])` |
| `es_M_code` | gen_esb's output under `es/` (`es_generated_code`) |
| `es_M` | `py_library` of the generated Python API (+ `es_py_srcs`), `imports = ["es"]` |
| `es_M_cc` | `cc_library` of the generated C++ API (`#include "es_M_ops.h"`) |
| `N_soc` | `N_soc.txt`: the SoC of this build, for tests |
| `N_runtime` | everything a clean-environment run needs: OppInfo files, ES Python, `N_soc`, `//twin:cann_home` |

The plugin directory (the second ASCEND_CUSTOM_OPP_PATH entry) is the one directory holding
`plugin_srcs`; holders find the kernel source relative to themselves (it is in the plugin's
data and in OppInfo.plugin_files, so atc's sandbox has it too).
"""

load("@rules_cc//cc:defs.bzl", "cc_library")
load("@rules_python//python:defs.bzl", "py_binary", "py_library")
load("//tools/bazel:pytest.bzl", "pytest_test")
load("//tools/bisheng:defs.bzl", "ascendc_kernel")
load("//tools/bisheng:soc.bzl", "for_socs")
load("//twin/es:defs.bzl", "es_generated_code")
load(":atc_om.bzl", "atc_om")
load(":opp.bzl", "ge_op_info", "ge_op_proto_library", "opp_root", "soc_file")

def _dirname(path):
    return path.rpartition("/")[0]

def _plugin_dir(name, plugin_srcs):
    dirs = {_dirname(src): True for src in plugin_srcs}
    if len(dirs) != 1 or any([src.startswith(":") or src.startswith("//") for src in plugin_srcs]):
        fail("ge_custom_op '%s': plugin_srcs must be files of this package in one directory, got %s" % (name, plugin_srcs))
    pkg = native.package_name()
    sub = dirs.keys()[0]
    return pkg + "/" + sub if sub else pkg

def ge_custom_op(
        name,
        op_types,
        kernel,
        plugin_srcs,
        es_module,
        kernel_hdrs = [],
        kernel_copts = [],
        proto_srcs = [],
        proto_hdrs = [],
        proto_lib = None,
        es_py_srcs = [],
        run = None,
        online_test = None,
        online_test_srcs = [],
        online_test_deps = [],
        air = None,
        om_socs = [],
        visibility = None):
    """Declares the targets listed in this file's docstring for one custom operator."""
    if not op_types:
        fail("ge_custom_op '%s': op_types must name the operators the proto library registers" % name)
    if bool(proto_srcs) == bool(proto_lib):
        fail("ge_custom_op '%s': give either proto_srcs (a library is declared) or proto_lib (an existing one)" % name)

    ascendc_kernel(
        name = name + "_kernel",
        src = kernel,
        hdrs = kernel_hdrs,
        copts = kernel_copts,
        visibility = visibility,
    )
    native.filegroup(
        name = name + "_kernel_cache_key",
        srcs = [":" + name + "_kernel"],
        output_group = "cache_key",
        visibility = visibility,
    )

    if proto_srcs:
        proto_lib = ":" + name + "/libcust_opapi.so"
        ge_op_proto_library(
            name = name + "/libcust_opapi.so",
            srcs = proto_srcs,
            hdrs = proto_hdrs,
            visibility = visibility,
        )
    if proto_hdrs:
        cc_library(
            name = name + "_proto_headers",
            hdrs = proto_hdrs,
            includes = {_dirname(h) or ".": True for h in proto_hdrs}.keys(),
            deps = ["//twin/graph"],
            visibility = visibility,
        )
    opp_root(
        name = name + "_opp_root",
        libs = [proto_lib],
        visibility = visibility,
    )

    py_library(
        name = name + "_plugin",
        srcs = plugin_srcs,
        data = [kernel] + kernel_hdrs,
        deps = [
            "//tools/ascendc_jit",
            "//twin/python:ge",
        ],
        visibility = visibility,
    )
    ge_op_info(
        name = name + "_opp",
        opp_root = ":" + name + "_opp_root",
        plugin_dir = _plugin_dir(name, plugin_srcs),
        plugin_files = plugin_srcs + [kernel] + kernel_hdrs,
        kernels = [":" + name + "_kernel"],
        op_types = op_types,
        visibility = visibility,
    )

    # The ES API, generated as CANN's add_es_library does (twin/es/defs.bzl).
    es = "es_" + es_module
    es_generated_code(
        name = es + "_code",
        module = es_module,
        ops = op_types,
        out_dir = "es",
        proto_lib = proto_lib,
        visibility = visibility,
    )
    py_library(
        name = es,
        srcs = ["es/%s_ops.py" % es] + ["es/es_%s.py" % op for op in op_types] + es_py_srcs,
        imports = ["es"],
        deps = ["//twin/python:ge"],
        visibility = visibility,
    )
    cc_library(
        name = es + "_cc",
        srcs = ["es/es_%s.cpp" % op for op in op_types],
        hdrs = ["es/%s_ops.h" % es, "es/%s_ops_c.h" % es] +
               ["es/es_%s.h" % op for op in op_types] + ["es/es_%s_c.h" % op for op in op_types],
        includes = ["es"],
        deps = ["//twin/es:es_base"],
        visibility = visibility,
    )

    soc_file(name = name + "_soc", visibility = visibility)
    native.filegroup(
        name = name + "_runtime",
        srcs = [
            ":" + name + "_opp",
            ":" + name + "_soc",
            ":" + es,
            "//twin:cann_home",
        ],
        visibility = visibility,
    )
    _online_targets(name, run, online_test, online_test_srcs, online_test_deps, plugin_srcs, visibility)
    _offline_targets(name, air, om_socs, visibility)

def _online_targets(name, run, online_test, online_test_srcs, online_test_deps, plugin_srcs, visibility):
    """Declares the operator's online-flow targets.

    `online` (bazel run: the operator's run script in the clean CANN-like environment) and
    `online_npu` (its pytest), both with the operator's runtime files."""
    if online_test and not run:
        fail("ge_custom_op '%s': online_test needs run (the script the test runs)" % name)
    if not run:
        return
    data = [run, ":" + name + "_runtime"]
    plugin_subdir = _plugin_dir(name, plugin_srcs)[len(native.package_name()):].lstrip("/")
    py_binary(
        name = "online",
        srcs = ["//tools/ge_op:online_main.py"],
        main = "//tools/ge_op:online_main.py",
        args = [native.package_name(), name, plugin_subdir, run],
        data = data,
        python_version = "PY3",
        deps = ["//tools/ge_op:ge_op_testing"],
        visibility = visibility,
    )
    if online_test:
        pytest_test(
            name = "online_npu",
            size = "medium",
            srcs = [online_test] + online_test_srcs,
            data = data,
            deps = ["//tools/ge_op:ge_op_testing"] + online_test_deps,
            visibility = visibility,
        )

def _offline_targets(name, air, om_socs, visibility):
    """Declares the operator's offline-flow targets.

    `N_om`: atc_om of `air` with this operator (its OppInfo seeds atc's kernel cache);
    `N_om_all_socs`: the same OM for each SoC of `om_socs`, in one build."""
    if om_socs and not air:
        fail("ge_custom_op '%s': om_socs needs air (the graph the OMs are built from)" % name)
    if not air:
        return
    atc_om(
        name = name + "_om",
        air = air,
        ops = [":" + name + "_opp"],
        visibility = visibility,
    )
    if om_socs:
        for_socs(
            name = name + "_om_all_socs",
            socs = om_socs,
            target = ":" + name + "_om",
            visibility = visibility,
        )
