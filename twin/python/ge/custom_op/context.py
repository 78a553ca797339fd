"""Which callback context is active: ContextVar bindings scoped to one callback (§1.3)."""

from contextlib import contextmanager
from contextvars import ContextVar
from typing import Iterator, Optional

from ._native import AnnotatedArgsContext, CompilePlatformInfo, EagerOpExecutionContext, OpCompileContext


class _Binding:
    __slots__ = ("ctx", "active")

    def __init__(self, ctx) -> None:
        self.ctx, self.active = ctx, True


_execute_binding: ContextVar[Optional[_Binding]] = ContextVar("ge_custom_op_execute_context", default=None)
_compile_binding: ContextVar[Optional[_Binding]] = ContextVar("ge_custom_op_compile_context", default=None)
_declare_binding: ContextVar[Optional[_Binding]] = ContextVar("ge_custom_op_declare_launch_args_context", default=None)


def _current(var: ContextVar, message: str):
    binding = var.get()
    if binding is None or not binding.active:
        raise RuntimeError(message)
    return binding.ctx


@contextmanager
def _scope(var: ContextVar, ctx) -> Iterator[None]:
    binding = _Binding(ctx)
    token = var.set(binding)
    try:
        yield
    finally:
        binding.active = False  # a copied contextvars.Context holding it sees it as ended too
        var.reset(token)


def get_execute_ctx() -> EagerOpExecutionContext:
    return _current(_execute_binding, "get_execute_ctx() is only available inside schema-bound execute")


def get_compile_ctx() -> OpCompileContext:
    return _current(_compile_binding, "get_compile_ctx() is only available inside schema-bound compile")


def get_compile_platform_info() -> CompilePlatformInfo:
    return get_compile_ctx()._get_platform_info()


def get_declare_launch_args_ctx() -> AnnotatedArgsContext:
    return _current(_declare_binding, "get_declare_launch_args_ctx() is only available inside declare_launch_args")


def _execute_ctx_scope(ctx: EagerOpExecutionContext):
    return _scope(_execute_binding, ctx)


def _compile_ctx_scope(ctx: OpCompileContext):
    return _scope(_compile_binding, ctx)


def _declare_launch_args_ctx_scope(ctx: AnnotatedArgsContext):
    return _scope(_declare_binding, ctx)
