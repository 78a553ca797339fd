"""ge.custom_op: Python custom operators for GE.

Public names resolve lazily through the module ``__getattr__`` (as in CANN), so importing
``ge.custom_op`` stays cheap for plugins that only need the decorators.
"""

import importlib

__all__ = [
    "BaseCustomOp",
    "EagerExecuteOp",
    "AnnotatedArgsContext",
    "AnnotatedKernelArgs",
    "AnnotatedKernelLaunchInfo",
    "EagerOpExecutionContext",
    "CompilePlatformInfo",
    "OpCompileContext",
    "InferMetaContext",
    "WorkspaceAddr",
    "clear_registered_op_impls",
    "get_declare_launch_args_ctx",
    "get_compile_ctx",
    "get_compile_platform_info",
    "get_execute_ctx",
    "get_registered_op_impl_by_descriptor_key",
    "get_registered_op_impl_dicts",
    "get_registered_op_impls",
    "register_op",
    "register_op_impl",
    "register_kernel",
    "OpBackend",
    "HostCpuOpExecutionContext",
]

_SOURCE_MODULE = {
    "BaseCustomOp": ".base",
    "EagerExecuteOp": ".base",
    "AnnotatedArgsContext": "._native",
    "AnnotatedKernelArgs": "._native",
    "AnnotatedKernelLaunchInfo": "._native",
    "EagerOpExecutionContext": "._native",
    "CompilePlatformInfo": "._native",
    "OpCompileContext": "._native",
    "InferMetaContext": "._native",
    "WorkspaceAddr": "._native",
    "HostCpuOpExecutionContext": "._native",
    "get_declare_launch_args_ctx": ".context",
    "get_compile_ctx": ".context",
    "get_compile_platform_info": ".context",
    "get_execute_ctx": ".context",
    "register_op": ".proto",
    "clear_registered_op_impls": ".registry",
    "get_registered_op_impl_by_descriptor_key": ".registry",
    "get_registered_op_impl_dicts": ".registry",
    "get_registered_op_impls": ".registry",
    "register_op_impl": ".registry",
    "register_kernel": ".registry",
    "OpBackend": ".registry",
}


def __getattr__(name: str):
    source = _SOURCE_MODULE.get(name)
    if source is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(source, __name__), name)
    globals()[name] = value  # later lookups skip __getattr__
    return value


def __dir__():
    return sorted(set(globals()) | set(__all__))
