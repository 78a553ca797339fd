"""ge_custom_op: one call declares everything a GE custom operator is made of in Bazel.

    load("//tools/ge_op:defs.bzl", "ge_custom_op", "ge_op_es", "ge_op_kernel", "ge_op_offline",
         "ge_op_online", "ge_op_proto")

    ge_custom_op(
        name = "leaky_relu_custom",
        op_types = ["LeakyReluCustom"],
        kernel = ge_op_kernel("kernel/leaky_relu_custom.asc", hdrs = ["kernel/leaky_relu_tiling.h"]),
        proto = ge_op_proto(srcs = ["proto/leaky_relu_custom.cc"], hdrs = ["proto/leaky_relu_custom.h"]),
        plugin_srcs = ["python/plugin/leaky_relu_custom_holder.py"],
        es = ge_op_es("leaky"),
        online = ge_op_online("run.py", test = "tests/test_online.py", short_names = True),
        offline = ge_op_offline(":model_air", socs = ["Ascend910B1", "Ascend310P3"]),
    )

Each part is a dict made by its ge_op_* function (which checks it): the kernel, the proto
library (`srcs` + `hdrs`, or `lib` = an existing lib*.so), the ES API, and optionally the online
and offline flows.

Targets (N = name, M = the ES module):

| target | what |
|---|---|
| `N_kernel` | `ascendc_kernel` of `kernel` for the build's SoC (AscendcKernelInfo) |
| `N_kernel_cache_key` | its `<N>_kernel.cache_key` (the key the holder's JIT computes) |
| `N/libcust_opapi.so` | the OPP proto library of `proto` `srcs` (`ge_op_proto_library`; not with `lib`) |
| `N_proto_headers` | `cc_library` of `proto_hdrs` for C++ graph builders (`#include "<basename>"`) |
| `N_opp_root` | the OPP root directory (`<root>/libcust_opapi.so`) |
| `N_plugin` | `py_library` of the holder (deps `//tools/ascendc_jit`, `//twin/python:ge`; the kernel as data) |
| `N_opp` | `OppInfo`: OPP root + plugin dir + plugin files + `N_kernel`; `atc_om(ops = [":N_opp"])` |
| `es_M_code` | gen_esb's output under `es/` (`es_generated_code`) |
| `es_M` | `py_library` of the generated Python API (+ `es` `py_srcs`), `imports = ["es"]` |
| `es_M_cc` | `cc_library` of the generated C++ API (`#include "es_M_ops.h"`) |
| `N_soc` | `N_soc.txt`: the SoC of this build, for tests |
| `N_runtime` | everything a clean-environment run needs: OppInfo files, ES Python, `N_soc`, `//twin:cann_home` |
| `N_online` | (`online`) `bazel run`: the run script in the clean CANN-like environment |
| `N_online_npu` | (`online` with `test`) its pytest |
| `N_om`, `N_om_all_socs` | (`offline`) atc_om of the AIR with this operator, and for each of `socs` |

With `short_names = True` the package also answers to `:online` (an alias) and `:online_npu`
(a test_suite):
one operator per package may claim them, so two operators can share a package.

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

def ge_op_kernel(src, hdrs = [], copts = []):
    """The Ascend C kernel: its source, the headers it includes, extra bisheng flags."""
    return {"src": src, "hdrs": hdrs, "copts": copts}

def ge_op_proto(srcs = [], hdrs = [], lib = None, tiling_lib = None):
    """The OPP proto library of an operator.

    Either `srcs` (+ `hdrs`) to declare one, or `lib`, an existing lib*.so (`hdrs` still give
    the N_proto_headers target). `tiling_lib`: the operator's host tiling library (CANN keeps
    op_host tiling in a library of its own, which links libregister), copied into the OPP root
    beside libcust_opapi.so; GE's proto discovery does not load it, the compile holder does.
    """
    if bool(srcs) == bool(lib):
        fail("ge_op_proto: give either srcs (a library is declared) or lib (an existing one)")
    return {"srcs": srcs, "hdrs": hdrs, "lib": lib, "tiling_lib": tiling_lib}

def ge_op_es(module, py_srcs = []):
    """The generated ES API: module M (es_M, es_M_cc) plus hand-written Python beside it."""
    return {"module": module, "py_srcs": py_srcs}

def ge_op_online(run, test = None, test_srcs = [], test_deps = [], short_names = False, run_data = []):
    """The online flow of an operator.

    `run` (a script of the package taking --soc) as N_online, and with `test` its pytest
    N_online_npu; short_names adds the aliases :online and :online_npu. `run_data`: files the
    script needs beside it (a module it imports from its own directory), in both targets' runfiles.
    """
    return {
        "run": run,
        "run_data": run_data,
        "short_names": short_names,
        "test": test,
        "test_deps": test_deps,
        "test_srcs": test_srcs,
    }

def ge_op_offline(air, socs = []):
    """The offline flow: the OM of `air` with this operator (N_om), and one per SoC of `socs`."""
    return {"air": air, "socs": socs}

def ge_custom_op(name, op_types, kernel, proto, plugin_srcs, es, online = None, offline = None, visibility = None):
    """Declares the targets listed in this file's docstring for one custom operator."""
    if not op_types:
        fail("ge_custom_op '%s': op_types must name the operators the proto library registers" % name)
    kernel_hdrs = kernel["hdrs"]
    proto_hdrs = proto["hdrs"]
    proto_lib = proto["lib"]
    kernel_src = kernel["src"]

    ascendc_kernel(
        name = name + "_kernel",
        src = kernel_src,
        hdrs = kernel_hdrs,
        copts = kernel["copts"],
        visibility = visibility,
    )
    native.filegroup(
        name = name + "_kernel_cache_key",
        srcs = [":" + name + "_kernel"],
        output_group = "cache_key",
        visibility = visibility,
    )

    if proto["srcs"]:
        proto_lib = ":" + name + "/libcust_opapi.so"
        ge_op_proto_library(
            name = name + "/libcust_opapi.so",
            srcs = proto["srcs"],
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
        libs = [proto_lib] + ([proto["tiling_lib"]] if proto.get("tiling_lib") else []),
        visibility = visibility,
    )

    py_library(
        name = name + "_plugin",
        srcs = plugin_srcs,
        data = [kernel_src] + kernel_hdrs,
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
        plugin_files = plugin_srcs + [kernel_src] + kernel_hdrs,
        kernels = [":" + name + "_kernel"],
        op_types = op_types,
        visibility = visibility,
    )

    # The ES API, generated as CANN's add_es_library does (twin/es/defs.bzl).
    es_module = es["module"]
    es_py_srcs = es["py_srcs"]
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
    if online:
        _online_targets(name, online, plugin_srcs, visibility)
    if offline:
        _offline_targets(name, offline["air"], offline["socs"], visibility)

def _online_targets(name, online, plugin_srcs, visibility):
    """Declares the operator's online-flow targets.

    `N_online` (bazel run: the operator's run script in the clean CANN-like environment) and
    `N_online_npu` (its pytest), both with the operator's runtime files; `online`/`online_npu`
    aliases with short_names.
    """
    run = online["run"]
    data = [run] + online["run_data"] + [":" + name + "_runtime"]
    plugin_subdir = _plugin_dir(name, plugin_srcs)[len(native.package_name()):].lstrip("/")
    py_binary(
        name = name + "_online",
        srcs = ["//tools/ge_op:online_main.py"],
        main = "//tools/ge_op:online_main.py",
        args = [native.package_name(), name, plugin_subdir, run],
        data = data,
        python_version = "PY3",
        deps = ["//tools/ge_op:ge_op_testing"],
        visibility = visibility,
    )
    if online["test"]:
        pytest_test(
            name = name + "_online_npu",
            size = "medium",
            srcs = [online["test"]] + online["test_srcs"],
            data = data,
            deps = ["//tools/ge_op:ge_op_testing"] + online["test_deps"],
            visibility = visibility,
        )
    if online["short_names"]:
        native.alias(name = "online", actual = ":" + name + "_online", visibility = visibility)
        if online["test"]:
            # a test_suite, not an alias: `bazel test` of an alias builds the test but runs nothing
            native.test_suite(name = "online_npu", tests = [":" + name + "_online_npu"], visibility = visibility)

def _offline_targets(name, air, om_socs, visibility):
    """Declares the operator's offline-flow targets.

    `N_om`: atc_om of `air` with this operator (its OppInfo seeds atc's kernel cache);
    `N_om_all_socs`: the same OM for each SoC of `socs`, in one build.
    """
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
