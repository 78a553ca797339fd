"""Pins the Python interpreter Bazel uses: the project's venv made by tools/bootstrap.sh.

Bazel's default Python toolchain runs whatever `python3` is first on PATH; tests need the
exact interpreter that has requirements.txt installed, so it is named explicitly here.
"""

_PROBE = """
import sys, numpy, pytest, google.protobuf, sysconfig
print("%d.%d" % sys.version_info[:2])
print(sysconfig.get_paths()["purelib"])
print(sysconfig.get_paths()["include"])
print(sysconfig.get_config_var("EXT_SUFFIX"))
"""

# What `import ge` / `import acl` / atc need beyond the standard library: these top-level
# entries of site-packages, plus the distributions' metadata (versions come from the venv).
_BUNDLED_SITE_PACKAGES = ["numpy", "numpy.libs", "google"]
_BUNDLED_DISTRIBUTIONS = ["numpy-", "protobuf-"]

def _python_venv_impl(rctx):
    # One machine-wide default (not under $HOME): the interpreter path is written into every
    # py_binary launcher, so it must be the same for every user sharing a remote cache.
    venv = rctx.os.environ.get("ASCEND_TWIN_VENV", "") or "/opt/ascend-twin-venv"
    python = venv + "/bin/python3"
    probe = rctx.execute([python, "-c", _PROBE])
    if probe.return_code != 0:
        fail("pinned Python %s is missing or lacks requirements.txt (%s): run tools/bootstrap.sh" %
             (python, probe.stderr.strip() or "not found"))
    version, site, include, ext_suffix = probe.stdout.strip().split("\n")
    if not rctx.path(include + "/Python.h").exists:
        fail("pinned Python %s has no C headers (%s/Python.h is missing): run tools/bootstrap.sh" % (python, include))

    # The interpreter's C headers, for the few extension modules of the twin's Python packages
    # (ge._compiler._shared_run); built for this interpreter, named with its EXT_SUFFIX.
    rctx.symlink(include, "include")
    rctx.file("defs.bzl", "PY_EXT_SUFFIX = %r\n" % ext_suffix)

    # The runtime Python packages the install tree carries (python/site-packages), so that
    # `source set_env.sh` + a CPython of the same minor version runs ge and atc with no venv.
    entries = list(_BUNDLED_SITE_PACKAGES)
    for child in rctx.path(site).readdir():
        if child.basename.endswith(".dist-info") and [d for d in _BUNDLED_DISTRIBUTIONS if child.basename.startswith(d)]:
            entries.append(child.basename)
    for entry in entries:
        rctx.symlink(site + "/" + entry, "site-packages/" + entry)
    rctx.file("python_version.txt", version + "\n")
    rctx.file("BUILD.bazel", """\
load("@rules_python//python:defs.bzl", "py_runtime", "py_runtime_pair")

package(default_visibility = ["//visibility:public"])

py_runtime(
    name = "python3_runtime",
    interpreter_path = "{python}",
    python_version = "PY3",
    # The launcher stub runs before the runtime is chosen; point it at the same interpreter.
    stub_shebang = "#!{python}",
)

py_runtime_pair(
    name = "runtime_pair",
    py3_runtime = ":python3_runtime",
)

toolchain(
    name = "toolchain",
    toolchain = ":runtime_pair",
    toolchain_type = "@bazel_tools//tools/python:toolchain_type",
)

exports_files(["interpreter_path.txt", "python_version.txt"])

cc_library(
    name = "python_headers",
    hdrs = glob(["include/**/*.h"]),
    includes = ["include"],
)

# numpy and protobuf as files (tests, caches and scripts left out), laid out by //twin:cann_home.
filegroup(
    name = "bundled_site_packages",
    srcs = glob(
        ["site-packages/**"],
        exclude = [
            "**/__pycache__/**",
            "**/tests/**",
            "site-packages/numpy/_pyinstaller/**",
            "site-packages/numpy/f2py/**",
            "site-packages/*.dist-info/RECORD",
            "site-packages/*.dist-info/INSTALLER",
            "site-packages/*.dist-info/REQUESTED",
            "site-packages/*.dist-info/direct_url.json",
        ],
    ),
)
""".format(python = python))
    rctx.file("interpreter_path.txt", python + "\n")

python_venv = repository_rule(
    implementation = _python_venv_impl,
    environ = ["ASCEND_TWIN_VENV"],
    local = True,
)
