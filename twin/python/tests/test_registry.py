import abc

import pytest

import ge.custom_op as custom_op
from ge.custom_op import (
    clear_registered_op_impls,
    get_registered_op_impl_by_descriptor_key,
    get_registered_op_impl_dicts,
    get_registered_op_impls,
    register_op_impl,
)
from ge.custom_op.registry import OpImplDescriptor

EXPECTED_ALL = {
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
}


def test_all_names_resolve_and_unknown_attribute_errors():
    assert set(custom_op.__all__) == EXPECTED_ALL
    for name in custom_op.__all__:
        assert getattr(custom_op, name) is not None
    with pytest.raises(AttributeError, match=r"^module 'ge.custom_op' has no attribute 'NoSuchThing'$"):
        custom_op.NoSuchThing
    with pytest.raises(ImportError):
        from ge.custom_op import NoSuchThing  # noqa: F401


@pytest.mark.parametrize("op_type", ["", None, 3, b"Add"])
def test_op_type_must_be_non_empty_str(op_type):
    with pytest.raises(TypeError, match="^register_op_impl op_type must be a non-empty string$"):
        register_op_impl(op_type=op_type)


def test_decorated_object_must_be_concrete_class():
    with pytest.raises(TypeError, match="^register_op_impl expects a class$"):
        register_op_impl(op_type="A")(lambda: None)

    class Abstract(abc.ABC):
        @abc.abstractmethod
        def compile(self) -> None: ...

    with pytest.raises(TypeError, match="^register_op_impl expects a concrete class$"):
        register_op_impl(op_type="A")(Abstract)


def test_capabilities_and_descriptor():
    @register_op_impl(op_type="MyOp")
    class Impl:
        def declare_launch_args(self) -> None: ...

        def compile(self) -> None: ...

        @staticmethod
        def execute() -> None: ...

    desc = Impl.__ge_op_impl_descriptor__
    assert isinstance(desc, OpImplDescriptor)
    assert desc.interfaces == ["eager_execute", "compilable", "annotated_args"]
    assert desc.descriptor_key == f"{__name__}:Impl:MyOp"
    assert desc.cls is Impl
    assert get_registered_op_impls() == [desc]
    assert get_registered_op_impl_dicts() == [
        {
            "descriptor_key": desc.descriptor_key,
            "op_type": "MyOp",
            "module_name": __name__,
            "class_name": "Impl",
            "interfaces": ["eager_execute", "compilable", "annotated_args"],
            "kernel_bindings": ["device"],
        }
    ]
    assert get_registered_op_impl_by_descriptor_key(desc.descriptor_key) is desc
    assert get_registered_op_impl_by_descriptor_key("nope") is None
    clear_registered_op_impls()
    assert get_registered_op_impls() == []


def test_inherited_capability_counts():
    class Base:
        def compile(self) -> None: ...

    @register_op_impl(op_type="Child")
    class Child(Base):
        pass

    assert Child.__ge_op_impl_descriptor__.interfaces == ["compilable"]


def test_no_capability_and_non_callable_compile():
    class Nothing:
        pass

    with pytest.raises(
        TypeError,
        match=r"^register_op_impl class '.*Nothing' must implement at least one "
        r"supported method: execute, compile, declare_launch_args$",
    ):
        register_op_impl(op_type="N")(Nothing)

    class BadCompile:
        compile = 3

        def execute(self) -> None: ...

    with pytest.raises(TypeError, match="^compile must be callable$"):
        register_op_impl(op_type="B")(BadCompile)


def test_duplicate_key_and_type_are_rejected():
    class First:
        def compile(self) -> None: ...

    register_op_impl(op_type="Dup")(First)
    with pytest.raises(ValueError, match=f"^python op impl descriptor_key already exists: {__name__}:First:Dup$"):
        register_op_impl(op_type="Dup")(First)

    class Second:
        def compile(self) -> None: ...

    with pytest.raises(ValueError, match="^python op impl type already exists: Dup$"):
        register_op_impl(op_type="Dup")(Second)
    assert len(get_registered_op_impls()) == 1
