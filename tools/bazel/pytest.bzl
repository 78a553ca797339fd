"""pytest_test: a py_test whose main runs its sources through pytest."""

load("@rules_python//python:defs.bzl", "py_test")

def pytest_test(name, srcs, deps = [], args = [], data = [], **kwargs):
    """Runs `srcs` with pytest under the pinned interpreter.

    pytest's own report (with assertion rewriting and the failure diff) is the test log.
    """
    py_test(
        name = name,
        srcs = srcs + ["//tools/bazel:pytest_main.py"],
        main = "//tools/bazel:pytest_main.py",
        args = args + ["$(location %s)" % s for s in srcs],
        data = data,
        deps = deps,
        python_version = "PY3",
        srcs_version = "PY3",
        **kwargs
    )
