import typing
from typing import List, Optional

import pytest

from ge.custom_op import _bridge, register_op_impl
from ge.graph import DataType
from ge.runtime import Tensor

IR = {
    "inputs": [{"name": "x", "kind": 0}, {"name": "bias", "kind": 1}, {"name": "xs", "kind": 2}],
    "attrs": [
        {"name": "alpha", "type": "VT_FLOAT"},
        {"name": "dt", "type": "VT_DATA_TYPE"},
        {"name": "shape", "type": "VT_LIST_LIST_INT"},
    ],
    "outputs": [{"name": "y", "kind": 0}, {"name": "ys", "kind": 1}],
}


def _register(cls, op_type="SigOp"):
    from ge.custom_op import clear_registered_op_impls

    clear_registered_op_impls()  # several classes per test register the same op type
    return register_op_impl(op_type=op_type)(cls).__ge_op_impl_descriptor__


def _validate(cls):
    return _bridge.validate_op_impl_descriptor(_register(cls).descriptor_key, IR)


def _prefix(method="compile"):
    return (
        rf"^invalid {method} signature for op type SigOp, descriptor key {__name__}:\w+:SigOp, "
        rf"method {method}: expected "
    )


def test_valid_signatures_with_equivalent_annotation_spellings():
    class Good:
        def compile(
            self,
            x: Tensor,
            bias: Optional[Tensor],
            xs: List[Tensor],
            y: Tensor,
            ys: list[Tensor],
            *,
            alpha: float,
            dt: DataType,
            shape: list[list[int]],
        ) -> None: ...

        @staticmethod
        def declare_launch_args(x, bias: "Tensor | None", xs, y, ys, *, alpha, dt, shape) -> None: ...

        @classmethod
        def execute(cls, x, bias, xs, *, alpha, dt, shape: typing.List[typing.List[int]]) -> None: ...

    assert _validate(Good) is True


def test_wrong_parameter_count():
    class Short:
        def compile(self, x, bias, xs, y, *, alpha, dt, shape) -> None: ...

    with pytest.raises(
        TypeError,
        match=_prefix() + "5 positional input/output parameters followed by 3 keyword-only attrs, actual 7 parameters$",
    ):
        _validate(Short)


def test_execute_count_excludes_outputs():
    class Exec:
        def execute(self, x, bias, xs, y, *, alpha, dt, shape) -> None: ...

    with pytest.raises(
        TypeError,
        match=_prefix("execute") + "3 positional input parameters followed by 3 "
        "keyword-only attrs, actual 7 parameters$",
    ):
        _validate(Exec)


def test_return_annotation_is_required():
    class Missing:
        def compile(self, x, bias, xs, y, ys, *, alpha, dt, shape): ...

    with pytest.raises(TypeError, match=_prefix() + "None return annotation, actual missing return annotation$"):
        _validate(Missing)

    class Other:
        def declare_launch_args(self, x, bias, xs, y, ys, *, alpha, dt, shape) -> int: ...

    with pytest.raises(TypeError, match=_prefix("declare_launch_args") + "None return annotation, actual "):
        _validate(Other)


def test_execute_needs_no_return_annotation():
    """As CANN: the return annotation is checked on compile and declare_launch_args, never on
    execute (the args_refresh_add_custom sample's ``def execute(self, x, y):`` has none)."""

    class Bare:
        def execute(self, x, bias, xs, *, alpha, dt, shape): ...

    assert _validate(Bare) is True

    class Annotated:
        def execute(self, x, bias, xs, *, alpha, dt, shape) -> int: ...

    assert _validate(Annotated) is True

    class StillCountsParameters:
        def execute(self, x, *, alpha, dt, shape): ...

    with pytest.raises(TypeError, match=_prefix("execute") + "3 positional input parameters"):
        _validate(StillCountsParameters)


def test_legacy_execute_ctx_is_not_bound_to_the_ir():
    """``execute(self, ctx)`` (the earlier API) reads inputs from ctx: no IR check, no IR needed."""
    from ge.custom_op import EagerExecuteOp

    class Legacy(EagerExecuteOp):
        def execute(self, ctx): ...

    descriptor = _register(Legacy)
    assert descriptor.interfaces == ["eager_execute"]
    assert _bridge.validate_op_impl_descriptor(descriptor.descriptor_key, IR) is True
    assert _bridge.validate_op_impl_descriptor(descriptor.descriptor_key, None) is True

    class NamedOtherwise:
        def execute(self, context): ...

    with pytest.raises(TypeError, match=_prefix("execute") + "3 positional input parameters"):
        _validate(NamedOtherwise)


def test_variadics_rejected():
    class Star:
        def compile(self, *args) -> None: ...

    with pytest.raises(TypeError, match=_prefix() + "no variadic parameters, actual variadic parameter args$"):
        _validate(Star)

    class Kw:
        def compile(self, x, bias, xs, y, ys, *, alpha, dt, **kw) -> None: ...

    with pytest.raises(TypeError, match=_prefix() + "no variadic parameters, actual variadic parameter kw$"):
        _validate(Kw)


def test_attrs_must_be_keyword_only_and_named_in_ir_order():
    class Positional:
        def compile(self, x, bias, xs, y, ys, alpha, *, dt, shape) -> None: ...

    with pytest.raises(
        TypeError,
        match=_prefix() + "keyword-only attr parameter alpha, actual parameter alpha kind POSITIONAL_OR_KEYWORD$",
    ):
        _validate(Positional)

    class Renamed:
        def compile(self, x, bias, xs, y, ys, *, dt, alpha, shape) -> None: ...

    with pytest.raises(TypeError, match=_prefix() + "attr name alpha at index 0, actual attr name dt$"):
        _validate(Renamed)

    class KeywordInput:
        def compile(self, x, bias, xs, y, *, ys, alpha, dt, shape) -> None: ...

    with pytest.raises(
        TypeError, match=_prefix() + "positional output parameter at index 1, actual parameter ys kind KEYWORD_ONLY$"
    ):
        _validate(KeywordInput)


def test_bad_annotations():
    class BadInput:
        def compile(self, x: int, bias, xs, y, ys, *, alpha, dt, shape) -> None: ...

    with pytest.raises(TypeError, match=_prefix() + r"input parameter at index 0 annotation .*Tensor.*, actual "):
        _validate(BadInput)

    class BadAttr:
        def compile(self, x, bias, xs, y, ys, *, alpha: int, dt, shape) -> None: ...

    with pytest.raises(
        TypeError, match=_prefix() + "attr parameter alpha annotation <class 'float'>, actual <class 'int'>$"
    ):
        _validate(BadAttr)

    class Unresolvable:
        def compile(self, x: "NoSuchType", bias, xs, y, ys, *, alpha, dt, shape) -> None: ...  # noqa: F821

    with pytest.raises(
        TypeError,
        match=_prefix() + "resolvable type annotations, actual type hint resolution "
        "failed: name 'NoSuchType' is not defined$",
    ):
        _validate(Unresolvable)


def test_missing_ir_is_runtime_error():
    class Comp:
        def compile(self) -> None: ...

    key = _register(Comp).descriptor_key
    with pytest.raises(RuntimeError, match="^canonical IR not found for schema-bound compile$"):
        _bridge.validate_op_impl_descriptor(key, None)
    with pytest.raises(KeyError, match="python op impl descriptor_key not found: nope"):
        _bridge.validate_op_impl_descriptor("nope", IR)
