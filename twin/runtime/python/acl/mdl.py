"""acl.mdl: load, describe and execute OM models (CANN pyACL names and return shapes)."""

from __future__ import annotations

import ctypes

from acl import _lib

_F = _lib.F
_load_file = _F["aclmdlLoadFromFile"]
_load_mem = _F["aclmdlLoadFromMem"]
_unload = _F["aclmdlUnload"]
_create_desc = _F["aclmdlCreateDesc"]
_destroy_desc = _F["aclmdlDestroyDesc"]
_get_desc = _F["aclmdlGetDesc"]
_num_inputs = _F["aclmdlGetNumInputs"]
_num_outputs = _F["aclmdlGetNumOutputs"]
_input_size = _F["aclmdlGetInputSizeByIndex"]
_output_size = _F["aclmdlGetOutputSizeByIndex"]
_input_name = _F["aclmdlGetInputNameByIndex"]
_output_name = _F["aclmdlGetOutputNameByIndex"]
_input_dims = _F["aclmdlGetInputDims"]
_output_dims = _F["aclmdlGetOutputDims"]
_input_dtype = _F["aclmdlGetInputDataType"]
_output_dtype = _F["aclmdlGetOutputDataType"]
_input_format = _F["aclmdlGetInputFormat"]
_output_format = _F["aclmdlGetOutputFormat"]
_input_index = _F["aclmdlGetInputIndexByName"]
_output_index = _F["aclmdlGetOutputIndexByName"]
_create_dataset = _F["aclmdlCreateDataset"]
_destroy_dataset = _F["aclmdlDestroyDataset"]
_add_buffer = _F["aclmdlAddDatasetBuffer"]
_num_buffers = _F["aclmdlGetDatasetNumBuffers"]
_get_buffer = _F["aclmdlGetDatasetBuffer"]
_input_dims_range = _F["aclmdlGetInputDimsRange"]
_set_tensor_desc = _F["aclmdlSetDatasetTensorDesc"]
_get_tensor_desc = _F["aclmdlGetDatasetTensorDesc"]
_execute = _F["aclmdlExecute"]
_execute_async = _F["aclmdlExecuteAsync"]


def load_from_file(model_path: str) -> tuple[int, int]:
    model_id = ctypes.c_uint32(0)
    ret = _load_file(model_path.encode(), ctypes.byref(model_id))
    return model_id.value, ret


def load_from_mem(model: int, model_size: int) -> tuple[int, int]:
    """`model` is a host pointer (e.g. acl.util.bytes_to_ptr(data))."""
    model_id = ctypes.c_uint32(0)
    ret = _load_mem(model, model_size, ctypes.byref(model_id))
    return model_id.value, ret


def unload(model_id: int) -> int:
    return _unload(model_id)


def create_desc() -> int:
    return _create_desc() or 0


def destroy_desc(model_desc: int) -> int:
    return _destroy_desc(model_desc)


def get_desc(model_desc: int, model_id: int) -> int:
    return _get_desc(model_desc, model_id)


def get_num_inputs(model_desc: int) -> int:
    return _num_inputs(model_desc)


def get_num_outputs(model_desc: int) -> int:
    return _num_outputs(model_desc)


def get_input_size_by_index(model_desc: int, index: int) -> int:
    return _input_size(model_desc, index)


def get_output_size_by_index(model_desc: int, index: int) -> int:
    return _output_size(model_desc, index)


def get_input_name_by_index(model_desc: int, index: int) -> str:
    return (_input_name(model_desc, index) or b"").decode()


def get_output_name_by_index(model_desc: int, index: int) -> str:
    return (_output_name(model_desc, index) or b"").decode()


def _dims(function, model_desc: int, index: int) -> tuple[dict, int]:
    dims = _lib.IODims()
    ret = function(model_desc, index, ctypes.byref(dims))
    if ret != 0:
        return {}, ret
    return {"name": dims.name.decode(), "dimCount": dims.dimCount, "dims": list(dims.dims[: dims.dimCount])}, ret


def get_input_dims(model_desc: int, index: int) -> tuple[dict, int]:
    return _dims(_input_dims, model_desc, index)


def get_output_dims(model_desc: int, index: int) -> tuple[dict, int]:
    return _dims(_output_dims, model_desc, index)


def get_input_dims_range(model_desc: int, index: int) -> tuple[dict, int]:
    """({"rangeCount": n, "range": [[min, max], ...]}, ret); max -1: unbounded."""
    ranges = _lib.IODimsRange()
    ret = _input_dims_range(model_desc, index, ctypes.byref(ranges))
    if ret != 0:
        return {}, ret
    count = ranges.rangeCount
    return {"rangeCount": count, "range": [list(ranges.range[k]) for k in range(count)]}, ret


def get_input_data_type(model_desc: int, index: int) -> int:
    return _input_dtype(model_desc, index)


def get_output_data_type(model_desc: int, index: int) -> int:
    return _output_dtype(model_desc, index)


def get_input_format(model_desc: int, index: int) -> int:
    return _input_format(model_desc, index)


def get_output_format(model_desc: int, index: int) -> int:
    return _output_format(model_desc, index)


def get_input_index_by_name(model_desc: int, name: str) -> tuple[int, int]:
    index = ctypes.c_size_t(0)
    ret = _input_index(model_desc, name.encode(), ctypes.byref(index))
    return index.value, ret


def get_output_index_by_name(model_desc: int, name: str) -> tuple[int, int]:
    index = ctypes.c_size_t(0)
    ret = _output_index(model_desc, name.encode(), ctypes.byref(index))
    return index.value, ret


def create_dataset() -> int:
    return _create_dataset() or 0


def destroy_dataset(dataset: int) -> int:
    return _destroy_dataset(dataset)


def add_dataset_buffer(dataset: int, data_buffer: int) -> tuple[int, int]:
    return dataset, _add_buffer(dataset, data_buffer)


def get_dataset_num_buffers(dataset: int) -> int:
    return _num_buffers(dataset)


def get_dataset_buffer(dataset: int, index: int) -> int:
    return _get_buffer(dataset, index) or 0


def set_dataset_tensor_desc(dataset: int, tensor_desc: int, index: int) -> tuple[int, int]:
    """(dataset, ret), as pyACL returns it."""
    return dataset, _set_tensor_desc(dataset, tensor_desc, index)


def get_dataset_tensor_desc(dataset: int, index: int) -> int:
    return _get_tensor_desc(dataset, index) or 0


def execute(model_id: int, input: int, output: int) -> int:  # noqa: A002  (CANN's parameter name)
    return _execute(model_id, input, output)


def execute_async(model_id: int, input: int, output: int, stream: int) -> int:  # noqa: A002
    return _execute_async(model_id, input, output, stream)
