"""Pins the Python interpreter Bazel uses: the project's venv made by tools/bootstrap.sh.

Bazel's default Python toolchain runs whatever `python3` is first on PATH; tests need the
exact interpreter that has requirements.txt installed, so it is named explicitly here.
"""

def _python_venv_impl(rctx):
    venv = rctx.os.environ.get("ASCEND_TWIN_VENV", "")
    if not venv:
        home = rctx.os.environ.get("HOME", "/root")
        venv = home + "/.cache/ascend-twin/venv"
    python = venv + "/bin/python3"
    probe = rctx.execute([python, "-c", "import numpy, pytest, google.protobuf"])
    if probe.return_code != 0:
        fail("pinned Python %s is missing or lacks requirements.txt (%s): run tools/bootstrap.sh" %
             (python, probe.stderr.strip() or "not found"))
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

exports_files(["interpreter_path.txt"])
""".format(python = python))
    rctx.file("interpreter_path.txt", python + "\n")

python_venv = repository_rule(
    implementation = _python_venv_impl,
    environ = ["ASCEND_TWIN_VENV", "HOME"],
    local = True,
)
