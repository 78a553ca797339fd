"""cann_shared_library: one of the graph libraries CANN splits its graph code into.

    cann_shared_library(name = "libgraph_base.so", srcs = [...], deps = [...])

declares `<stem>_impl` (the objects: hidden visibility, -Wall -Wextra), the shared library
`name` (soname = name, -rpath $ORIGIN so an installed lib64/ resolves its siblings,
--no-undefined so the layering cannot hide a cycle) and `<stem>_shared`, the cc_import that
upper libraries and :graph link it through; <stem> is name without "lib" and ".so".
"""

load("@rules_cc//cc:defs.bzl", "cc_binary", "cc_import", "cc_library")

def cann_shared_library(name, srcs, deps, linkopts = [], visibility = None):
    """Declares `<stem>_impl`, the shared library `name` and `<stem>_shared` (see the file's docstring)."""
    if not (name.startswith("lib") and name.endswith(".so")):
        fail("cann_shared_library name must be lib<stem>.so, got " + name)
    stem = name[len("lib"):-len(".so")]
    cc_library(
        name = stem + "_impl",
        srcs = srcs,
        copts = [
            "-fvisibility=hidden",
            "-Wall",
            "-Wextra",
        ],
        linkopts = linkopts,
        visibility = ["//visibility:private"],
        deps = deps,
        alwayslink = True,
    )
    cc_binary(
        name = name,
        linkopts = [
            "-Wl,-soname," + name,
            "-Wl,-rpath,$$ORIGIN",
            "-Wl,--no-undefined",
        ],
        linkshared = True,
        visibility = visibility,
        deps = [":" + stem + "_impl"],
    )
    cc_import(
        name = stem + "_shared",
        shared_library = ":" + name,
        visibility = ["//visibility:private"],
    )
