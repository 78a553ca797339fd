"""The classes CANN implements natively (pybind); here they are plain Python with the same
names, methods, errors and lifetimes."""

from ._args_ctx import AnnotatedArgsContext, AnnotatedKernelArgs, AnnotatedKernelLaunchInfo, WorkspaceAddr
from ._attrs import RuntimeAttrs
from ._compile_ctx import CompilePlatformInfo, OpCompileContext
from ._execute_ctx import EagerOpExecutionContext
from ._host_ctx import HostCpuOpExecutionContext
from ._infer_meta_ctx import InferMetaContext

__all__ = [
    "AnnotatedArgsContext",
    "AnnotatedKernelArgs",
    "AnnotatedKernelLaunchInfo",
    "CompilePlatformInfo",
    "EagerOpExecutionContext",
    "HostCpuOpExecutionContext",
    "InferMetaContext",
    "OpCompileContext",
    "RuntimeAttrs",
    "WorkspaceAddr",
]
