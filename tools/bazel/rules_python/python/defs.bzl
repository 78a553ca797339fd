"""rules_python's public surface, forwarding to the Python rules built into Bazel 4.2.3."""

load("@bazel_tools//tools/python:toolchain.bzl", _py_runtime_pair = "py_runtime_pair")

py_binary = native.py_binary
py_library = native.py_library
py_runtime = native.py_runtime
py_test = native.py_test
py_runtime_pair = _py_runtime_pair
