import copy

import numpy as np
import pytest

from ge.graph import AttrValueType, DataType, Format, Placement, Tensor
from ge.graph.types import DataType as TypesDataType

INT_TYPES = [
    (DataType.DT_INT8, np.int8),
    (DataType.DT_UINT8, np.uint8),
    (DataType.DT_INT16, np.int16),
    (DataType.DT_UINT16, np.uint16),
    (DataType.DT_INT32, np.int32),
    (DataType.DT_UINT32, np.uint32),
    (DataType.DT_INT64, np.int64),
    (DataType.DT_UINT64, np.uint64),
]


def test_enum_values_match_cann():
    assert TypesDataType is DataType
    assert (DataType.DT_FLOAT, DataType.DT_INT16, DataType.DT_BF16, DataType.DT_HIFLOAT4, DataType.DT_MAX) == (
        0,
        6,
        27,
        42,
        43,
    )
    assert (
        Format.FORMAT_ND,
        Format.FORMAT_NC1HWC0,
        Format.FORMAT_HWCN,
        Format.FORMAT_FRACTAL_NZ,
        Format.FORMAT_C1HWC0,
        Format.FORMAT_END,
        Format.FORMAT_MAX,
    ) == (2, 3, 16, 29, 49, 52, 53)
    assert (Placement.PLACEMENT_HOST, Placement.PLACEMENT_DEVICE) == (0, 1)
    assert (AttrValueType.VT_LIST_LIST_INT, AttrValueType.VT_LIST_INT, AttrValueType.VT_LIST_DATA_TYPE) == (
        10,
        1004,
        1011,
    )


def test_float_round_trip_nested_by_shape(rng):
    shape = [int(d) for d in rng.integers(1, 5, size=3)]
    values = rng.standard_normal(int(np.prod(shape))).astype(np.float32)
    tensor = Tensor(values.tolist(), None, DataType.DT_FLOAT, Format.FORMAT_ND, shape)
    assert tensor.get_shape() == shape and isinstance(tensor.shape, list)
    np.testing.assert_array_equal(np.array(tensor.get_data(), dtype=np.float32), values.reshape(shape))
    assert tensor.data == tensor.get_data()


@pytest.mark.parametrize("data_type, np_type", INT_TYPES)
def test_int_round_trips(rng, data_type, np_type):
    info = np.iinfo(np_type)
    values = rng.integers(info.min, info.max, size=12, dtype=np_type, endpoint=True)
    tensor = Tensor([int(v) for v in values], data_type=data_type, shape=[3, 4])
    assert tensor.get_data() == values.reshape(3, 4).tolist()
    with pytest.raises(ValueError):
        Tensor([int(info.max) + 1], data_type=data_type, shape=[1])


def test_fp16_bool_scalar_and_empty(rng):
    values = rng.standard_normal(6).astype(np.float16)
    tensor = Tensor([float(v) for v in values], None, DataType.DT_FLOAT16, Format.FORMAT_ND, [6])
    np.testing.assert_array_equal(np.array(tensor.get_data(), dtype=np.float16), values)
    assert Tensor([True, False], data_type=DataType.DT_BOOL, shape=[2]).get_data() == [True, False]
    assert Tensor([2.5], shape=None).get_data() == 2.5  # 0-d → scalar
    empty = Tensor()
    assert empty.get_data() == [] and empty.get_shape() == []


def test_file_source(rng, tmp_path):
    values = rng.integers(-1000, 1000, size=10).astype(np.int32)
    path = tmp_path / "x.bin"
    values.tofile(path)
    assert (
        Tensor(None, str(path), DataType.DT_INT32, Format.FORMAT_ND, [2, 5]).get_data() == values.reshape(2, 5).tolist()
    )
    with pytest.raises(ValueError, match="has 10 elements but shape"):
        Tensor(None, str(path), DataType.DT_INT32, Format.FORMAT_ND, [3])
    with pytest.raises(RuntimeError, match="Failed to create Tensor from file"):
        Tensor(None, str(tmp_path / "missing.bin"), DataType.DT_INT32, Format.FORMAT_ND, [1])


def test_file_source_refuses_what_is_not_a_regular_file_without_waiting(tmp_path):
    """A FIFO nobody writes to would block a plain open()/read() for ever."""
    import os

    fifo = tmp_path / "in.fifo"
    os.mkfifo(fifo)
    with pytest.raises(RuntimeError, match=f"^Failed to create Tensor from file {fifo}: not a regular file$"):
        Tensor(None, str(fifo), DataType.DT_FLOAT, Format.FORMAT_ND, [4])
    with pytest.raises(RuntimeError, match="not a regular file$"):
        Tensor(None, str(tmp_path), DataType.DT_FLOAT, Format.FORMAT_ND, [4])


def test_file_source_of_the_wrong_size_is_refused_before_it_is_read(tmp_path):
    """A sparse 3 GiB file for a 4-element tensor: refused from its size, nothing read."""
    path = tmp_path / "huge.bin"
    with open(path, "wb") as f:
        f.truncate(3 << 30)
    with pytest.raises(ValueError, match=r"has 805306368 elements but shape \[4\] needs 4"):
        Tensor(None, str(path), DataType.DT_FLOAT, Format.FORMAT_ND, [4])
    odd = tmp_path / "odd.bin"
    odd.write_bytes(b"12345")
    with pytest.raises(RuntimeError, match="size 5 bytes is not a multiple of DT_FLOAT element size 4"):
        Tensor(None, str(odd), DataType.DT_FLOAT, Format.FORMAT_ND, [1])


def test_constructor_errors():
    with pytest.raises(RuntimeError, match="^Tensor should be created either by data or by file$"):
        Tensor([1.0], "f.bin")
    with pytest.raises(TypeError, match="^data should be List$"):
        Tensor((1.0, 2.0), shape=[2])
    with pytest.raises(TypeError):
        Tensor([[1.0], [2.0]], shape=[2, 1])
    with pytest.raises(TypeError, match="^Shape must be a list of integers$"):
        Tensor([1.0], shape=(1,))
    with pytest.raises(RuntimeError, match="^DT_DOUBLE is not supported in python Tensor constructor$"):
        Tensor([1.0], data_type=DataType.DT_DOUBLE, shape=[1])
    with pytest.raises(RuntimeError, match="Failed to create Tensor with data type"):
        Tensor([1.0], data_type=DataType.DT_COMPLEX64, shape=[1])
    with pytest.raises(ValueError, match="needs 4"):
        Tensor([1.0, 2.0], shape=[2, 2])


def test_placement_setters_and_copy():
    tensor = Tensor([1.0, 2.0], None, DataType.DT_FLOAT, Format.FORMAT_ND, [2], Placement.PLACEMENT_DEVICE)
    assert tensor.placement is Placement.PLACEMENT_DEVICE
    with pytest.raises(ValueError):
        tensor.to_device()
    tensor.to_host()
    assert tensor.get_placement() is Placement.PLACEMENT_HOST
    with pytest.raises(ValueError):
        tensor.to_host()
    assert tensor.set_format(Format.FORMAT_NCHW) is tensor and tensor.format is Format.FORMAT_NCHW
    assert tensor.set_data_type(DataType.DT_INT32).data_type is DataType.DT_INT32
    assert tensor.get_tensor_desc().shape == [2]
    with pytest.raises(TypeError):
        tensor.set_format(2)
    with pytest.raises(RuntimeError):
        copy.copy(tensor)
    with pytest.raises(RuntimeError):
        copy.deepcopy(tensor)
