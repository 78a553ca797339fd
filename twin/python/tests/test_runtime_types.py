import pytest

from ge.graph import DataType, Format
from ge.runtime import ExpandDimsType, StorageFormat, StorageShape, TensorDesc, TensorPlacement


def test_tensor_placement_values():
    assert [p.name for p in TensorPlacement] == ["ON_DEVICE_HBM", "ON_HOST", "FOLLOWING", "ON_DEVICE_P2P", "END"]


def test_storage_shape_views_share_the_owner(rng):
    origin = [int(d) for d in rng.integers(1, 9, size=3)]
    storage = [int(d) for d in rng.integers(1, 9, size=4)]
    shape = StorageShape(origin, storage)
    view = shape.storage_shape
    assert view.dims == storage and view.dim_num == 4 and view.size == int(__import__("math").prod(storage))
    view.set_dim(0, 11)
    assert shape.storage_shape.get_dim(0) == 11
    assert view.append_dim(5) is view and view.dim_num == 5
    for _ in range(10):
        view.append_dim(1)
    assert view.dim_num == 8  # silently capped at the maximum rank
    with pytest.raises(ValueError):
        view.set_dim(8, 1)
    view.set_scalar()
    assert view.is_scalar() and view.size == 1
    shape.set_origin_shape(shape.storage_shape)
    assert shape.origin_shape.dims == []
    assert StorageShape([2, -1], [2, -1]).storage_shape.size == -1
    with pytest.raises(ValueError):
        StorageShape([1] * 9, [1])


def test_storage_format_and_expand_dims():
    fmt = StorageFormat(Format.FORMAT_NCHW, 3, ExpandDimsType("101"))
    assert fmt.origin_format is Format.FORMAT_NCHW and fmt.storage_format is Format.FORMAT_NC1HWC0
    rule = fmt.expand_dims_type
    assert rule.full_size == 3 and rule.is_expand_index(0) and not rule.is_expand_index(1) and rule.is_expand_index(2)
    rule.set_expand_index(1)
    fmt.set_expand_dims_type(rule)
    assert fmt.expand_dims_type == ExpandDimsType("111")
    assert ExpandDimsType(rule._to_int()) == rule
    assert ExpandDimsType("1" * 57).full_size == 0  # over-long rules are ignored
    fmt.set_storage_format(Format.FORMAT_ND)
    assert fmt.storage_format is Format.FORMAT_ND
    with pytest.raises(ValueError):
        fmt.set_origin_format(999)


def test_tensor_desc_rules():
    desc = TensorDesc([2, 3], DataType.DT_FLOAT16)
    assert desc.shape.origin_shape.dims == [2, 3] == desc.shape.storage_shape.dims
    assert TensorDesc(None, DataType.DT_INT8).shape.storage_shape.is_scalar()
    desc.shape = StorageShape([4], [2, 2])
    assert desc.shape.storage_shape.dims == [2, 2] and desc.shape.origin_shape.dims == [4]
    for bad in ([True, 2], [2.0], "23", 5):
        with pytest.raises(TypeError):
            TensorDesc(bad, DataType.DT_FLOAT)
    with pytest.raises(ValueError):
        TensorDesc([1] * 9, DataType.DT_FLOAT)
    with pytest.raises(TypeError):
        TensorDesc([1], 0)
    with pytest.raises(ValueError):
        TensorDesc([1], DataType.DT_MAX)
    desc.data_type = DataType.DT_INT32
    assert desc.data_type is DataType.DT_INT32
