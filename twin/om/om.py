"""Writer and reader of the OM container (layout in twin/om/FORMAT.md).

    om.serialize(model_def, kernel_binaries, constants=b"", graph=b"") -> bytes   (the online Session)
    om.write(path, model_def, kernel_binaries, constants=b"", graph=b"")          (atc; temp file + rename)
    om.read(data) -> OmContainer                                                   (tools, tests)

A non-empty ``graph`` (AIR bytes) makes a version-2 container for a model that runs through
Python (header flag REQUIRES_PYTHON, a GRAPH partition); without it the container is version 1,
byte for byte what version-1 writers produced.

`read` applies the same checks, in the same order, as the C++ reader the runtime uses
(//twin/om:om_reader), raising OmFormatError with a `kind` and a one-line message.
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
import struct
import tempfile
from typing import Sequence

from twin.om import om_pb2

ModelDef = om_pb2.ModelDef

MAGIC = 0x444F4D49  # CANN's OM magic, the bytes b"IMOD"
FORMAT_VERSION = 2  # the newest version this reader knows
STATIC_FORMAT_VERSION = 1  # what a model without a GRAPH partition is written as
PYTHON_FORMAT_VERSION = 2  # the first version with FLAG_REQUIRES_PYTHON and GRAPH partitions
CANN_MODEL_VERSION = 0x10000000
HEADER_SIZE = 128
SOC_VERSION_CAPACITY = 32
PARTITION_ENTRY_SIZE = 56
MAX_PARTITIONS = 4096
PARTITION_ALIGNMENT = 64
FLAG_REQUIRES_PYTHON = 0x1  # version 2: the model runs through Python (its graph is in GRAPH)
KNOWN_FLAGS = {1: 0, 2: FLAG_REQUIRES_PYTHON}  # by format version
MAX_BLOCK_DIM = 65535
MAX_KERNEL_ARGS = 1024

PARTITION_MODEL_DEF = 1
PARTITION_KERNEL_BINARY = 2
PARTITION_CONSTANTS = 3
PARTITION_GRAPH = 4  # version 2
_PARTITION_NAMES = {1: "MODEL_DEF", 2: "KERNEL_BINARY", 3: "CONSTANTS", 4: "GRAPH"}
_PARTITION_SINCE = {PARTITION_GRAPH: PYTHON_FORMAT_VERSION}
AIR_MAGIC = "ge.twin.air"
AIR_FORMAT_VERSION = 1
AIR_END_MARKER = 0x52494121

# magic, version, header_size, partition_count, flags, npu_arch, soc[32], file_size,
# sha256[32], reserved[32]
_HEADER = struct.Struct("<IIIIII32sQ32s32s")
# type, reserved, offset, length, sha256[32]
_ENTRY = struct.Struct("<IIQQ32s")
_OFF_HEADER_SHA256 = 64
assert _HEADER.size == HEADER_SIZE and _ENTRY.size == PARTITION_ENTRY_SIZE


class OmFormatError(ValueError):
    """A container that fails validation; `kind` matches the C++ ReadErrorKind names."""

    def __init__(self, kind: str, message: str):
        super().__init__("invalid OM: " + message)
        self.kind = kind


@dataclasses.dataclass
class OmContainer:
    format_version: int
    flags: int
    soc_version: str
    npu_arch: int
    model_def: om_pb2.ModelDef
    kernel_binaries: list[bytes]
    constants: bytes
    graph: bytes = b""  # AIR bytes of a Python-run model (version 2), else empty

    @property
    def requires_python(self) -> bool:
        return bool(self.flags & FLAG_REQUIRES_PYTHON)


def _align(value: int) -> int:
    return (value + PARTITION_ALIGNMENT - 1) // PARTITION_ALIGNMENT * PARTITION_ALIGNMENT


def serialize(
    model_def: om_pb2.ModelDef, kernel_binaries: Sequence[bytes], constants: bytes = b"", graph: bytes = b""
) -> bytes:
    """Returns the container bytes. The header's SoC/arch/version come from `model_def`;
    format_version 0 is filled in as 1, or 2 with a `graph`. The result is validated before it is
    returned."""
    if not model_def.format_version:
        model_def = _copy(model_def)
        model_def.format_version = PYTHON_FORMAT_VERSION if graph else STATIC_FORMAT_VERSION
    soc = model_def.soc_version.encode("ascii")
    if not soc or len(soc) >= SOC_VERSION_CAPACITY:
        raise OmFormatError("bad header field", f"SoC version {model_def.soc_version!r} must be 1..31 characters")
    parts: list[tuple[int, bytes]] = [(PARTITION_MODEL_DEF, model_def.SerializeToString())]
    parts += [(PARTITION_KERNEL_BINARY, bytes(b)) for b in kernel_binaries]
    if constants:
        parts.append((PARTITION_CONSTANTS, bytes(constants)))
    if graph:
        parts.append((PARTITION_GRAPH, bytes(graph)))

    table_end = HEADER_SIZE + len(parts) * PARTITION_ENTRY_SIZE
    entries = []
    body = bytearray()
    cursor = _align(table_end)
    for kind, data in parts:
        entries.append(_ENTRY.pack(kind, 0, cursor, len(data), b"\0" * 32))  # checksums: seal()
        body += b"\0" * (cursor - table_end - len(body)) + data
        cursor = _align(table_end + len(body))
    file_size = table_end + len(body)
    flags = FLAG_REQUIRES_PYTHON if graph else 0
    header = _HEADER.pack(
        MAGIC,
        model_def.format_version,
        HEADER_SIZE,
        len(parts),
        flags,
        model_def.npu_arch,
        soc,
        file_size,
        b"\0" * 32,
        b"\0" * 32,
    )
    sealed = bytearray(header + b"".join(entries) + body)
    seal(sealed)
    data = bytes(sealed)
    read(data)  # never hand out a container the runtime would refuse
    return data


def seal(data: bytearray) -> None:
    """Writes the checksums of a container in place: each partition's SHA-256 over its bytes, then
    the header's over header and partition table (its own field zeroed). What serialize() does
    last, and what a tool that edits a partition's bytes does to keep the container valid."""
    (count,) = struct.unpack_from("<I", data, 12)
    table_end = HEADER_SIZE + count * PARTITION_ENTRY_SIZE
    for i in range(count):
        at = HEADER_SIZE + i * PARTITION_ENTRY_SIZE
        kind, reserved, offset, length, _ = _ENTRY.unpack_from(data, at)
        _ENTRY.pack_into(
            data, at, kind, reserved, offset, length, hashlib.sha256(data[offset : offset + length]).digest()
        )
    data[_OFF_HEADER_SHA256 : _OFF_HEADER_SHA256 + 32] = bytes(32)
    data[_OFF_HEADER_SHA256 : _OFF_HEADER_SHA256 + 32] = hashlib.sha256(data[:table_end]).digest()


def write(
    path: str | os.PathLike,
    model_def: om_pb2.ModelDef,
    kernel_binaries: Sequence[bytes],
    constants: bytes = b"",
    graph: bytes = b"",
) -> None:
    """Writes the container atomically: a temp file in the same directory, fsync, rename."""
    data = serialize(model_def, kernel_binaries, constants, graph)
    path = os.fspath(path)
    directory = os.path.dirname(os.path.abspath(path))
    fd, temp = tempfile.mkstemp(prefix=".om-", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temp, 0o644)
        os.replace(temp, path)
    except BaseException:
        try:
            os.unlink(temp)
        except FileNotFoundError:
            pass
        raise


def _copy(model_def: om_pb2.ModelDef) -> om_pb2.ModelDef:
    copy = om_pb2.ModelDef()
    copy.CopyFrom(model_def)
    return copy


def _fail(kind: str, message: str) -> OmFormatError:
    return OmFormatError(kind, message)


def _read_header(data: bytes) -> tuple[int, int, str, int, int]:
    size = len(data)
    if size < 12:
        raise _fail("truncated", f"truncated: {size} bytes, the header alone needs {HEADER_SIZE}")
    magic, version, header_size = struct.unpack_from("<III", data, 0)
    if magic != MAGIC:
        raise _fail("bad magic", f'bad magic 0x{magic:08X} (expected 0x{MAGIC:08X}, "IMOD"): not an OM file')
    if version == 0 or version > FORMAT_VERSION:
        why = (
            "format version 0 is invalid"
            if version == 0
            else f"format version {version} is newer than the newest this runtime reads ({FORMAT_VERSION})"
        )
        if version == CANN_MODEL_VERSION:
            why += "; this looks like an OM written by CANN's own ATC, which the twin cannot run"
        raise _fail("unsupported version", why)
    if header_size != HEADER_SIZE:
        raise _fail("bad header size", f"header size {header_size} is not the version-1 header size {HEADER_SIZE}")
    if size < HEADER_SIZE:
        raise _fail("truncated", f"truncated: {size} bytes, the header alone needs {HEADER_SIZE}")
    (_, _, _, count, flags, npu_arch, soc_raw, _, _, reserved) = _HEADER.unpack_from(data, 0)
    if flags & ~KNOWN_FLAGS[version]:
        raise _fail(
            "bad header field",
            f"unknown header flags 0x{flags & ~KNOWN_FLAGS[version]:08X} for format version {version}",
        )
    if any(reserved):
        index = next(i for i, b in enumerate(reserved) if b)
        raise _fail("bad header field", f"reserved header byte {96 + index} is not zero")
    soc_len = soc_raw.find(b"\0")
    if soc_len <= 0:
        raise _fail("bad header field", "SoC version field is empty or not NUL-terminated")
    if any(b < 0x21 or b > 0x7E for b in soc_raw[:soc_len]):
        raise _fail("bad header field", "SoC version field holds a non-printable character")
    if any(soc_raw[soc_len:]):
        raise _fail("bad header field", "SoC version field is not NUL-padded")
    if count == 0 or count > MAX_PARTITIONS:
        raise _fail("bad header field", f"partition count {count} is outside [1, {MAX_PARTITIONS}]")
    return version, flags, soc_raw[:soc_len].decode("ascii"), npu_arch, count


def _check_padding(data: bytes, begin: int, end: int) -> None:
    """Bytes outside every partition must be zero, so no byte escapes validation."""
    if begin < end and any(data[begin:end]):
        at = begin + next(i for i, b in enumerate(data[begin:end]) if b)
        raise _fail("bad padding", f"padding byte at offset {at} (outside every partition) is not zero")


def _entry_name(index: int, kind: int) -> str:
    return f"partition {index} ({_PARTITION_NAMES.get(kind, 'UNKNOWN')})"


def read(data: bytes | bytearray | memoryview) -> OmContainer:
    """Parses and validates a container; raises OmFormatError on the first defect."""
    data = bytes(data)
    size = len(data)
    version, flags, soc, npu_arch, count = _read_header(data)
    table_end = HEADER_SIZE + count * PARTITION_ENTRY_SIZE
    if size < table_end:
        raise _fail(
            "truncated", f"truncated: {size} bytes, the header and {count}-entry partition table need {table_end}"
        )
    zeroed = data[:_OFF_HEADER_SHA256] + b"\0" * 32 + data[_OFF_HEADER_SHA256 + 32 : table_end]
    digest = hashlib.sha256(zeroed).digest()
    if digest != data[_OFF_HEADER_SHA256 : _OFF_HEADER_SHA256 + 32]:
        raise _fail(
            "bad header checksum",
            f"header checksum mismatch (SHA-256 over header and partition table is "
            f"{digest.hex()}): the file is corrupt",
        )
    (file_size,) = struct.unpack_from("<Q", data, 56)
    if size < file_size:
        raise _fail("truncated", f"truncated: {size} bytes, the header says {file_size}")
    if size > file_size:
        raise _fail("trailing bytes", f"{size - file_size} unexpected bytes after the {file_size}-byte container")

    entries = []
    for i in range(count):
        kind, reserved, offset, length, sha = _ENTRY.unpack_from(data, HEADER_SIZE + i * PARTITION_ENTRY_SIZE)
        if kind not in _PARTITION_NAMES or _PARTITION_SINCE.get(kind, 1) > version:
            raise _fail("bad partition entry", f"partition {i} has unknown type {kind} for format version {version}")
        if reserved:
            raise _fail("bad partition entry", f"{_entry_name(i, kind)} reserved field is not zero")
        if offset < table_end or offset > size or length > size - offset:
            raise _fail(
                "partition out of range",
                f"{_entry_name(i, kind)} [offset {offset}, length {length}] is "
                f"outside the data region [{table_end}, {size})",
            )
        entries.append((i, kind, offset, length, sha))
    by_offset = sorted(entries, key=lambda e: (e[2], e[0]))
    for prev, nxt in zip(by_offset, by_offset[1:]):
        if prev[3] and nxt[3] and nxt[2] < prev[2] + prev[3]:
            raise _fail(
                "partition overlap",
                f"{_entry_name(prev[0], prev[1])} [{prev[2]}, {prev[2] + prev[3]}) "
                f"overlaps {_entry_name(nxt[0], nxt[1])} [{nxt[2]}, {nxt[2] + nxt[3]})",
            )

    cursor = table_end
    for _, _, offset, length, _ in by_offset:
        _check_padding(data, cursor, offset)
        cursor = max(cursor, offset + length)
    _check_padding(data, cursor, size)

    model_part: tuple[bytes, tuple[int, int]] | None = None  # the content and its (index, kind)
    binaries: list[bytes] = []
    constants = None
    graph = None
    for i, kind, offset, length, sha in entries:
        content = data[offset : offset + length]
        actual = hashlib.sha256(content).digest()
        if actual != sha:
            raise _fail(
                "bad partition checksum",
                f"{_entry_name(i, kind)} checksum mismatch (content SHA-256 {actual.hex()}): the file is corrupt",
            )
        if kind == PARTITION_MODEL_DEF:
            if model_part is not None:
                raise _fail("bad partition entry", "more than one MODEL_DEF partition")
            model_part = content, (i, kind)
        elif kind == PARTITION_KERNEL_BINARY:
            if not length:
                raise _fail("bad partition entry", f"{_entry_name(i, kind)} is empty")
            binaries.append(content)
        elif kind == PARTITION_CONSTANTS:
            if constants is not None:
                raise _fail("bad partition entry", "more than one CONSTANTS partition")
            constants = content
        else:
            if graph is not None:
                raise _fail("bad partition entry", "more than one GRAPH partition")
            if not length:
                raise _fail("bad partition entry", f"{_entry_name(i, kind)} is empty")
            graph = content
    if model_part is None:
        raise _fail("bad partition entry", "no MODEL_DEF partition")
    model_bytes, model_entry = model_part
    if bool(flags & FLAG_REQUIRES_PYTHON) != (graph is not None):
        raise _fail(
            "bad partition entry",
            "the header flag REQUIRES_PYTHON is set but there is no GRAPH partition"
            if graph is None
            else "a GRAPH partition without the header flag REQUIRES_PYTHON",
        )
    model = om_pb2.ModelDef()
    try:
        model.ParseFromString(model_bytes)
    except Exception:  # protobuf raises DecodeError (and sometimes others) on garbage
        raise _fail(
            "bad model definition",
            f"{_entry_name(*model_entry)} does not parse as asc_twin.om.ModelDef ({len(model_bytes)} bytes)",
        ) from None
    container = OmContainer(version, flags, soc, npu_arch, model, binaries, constants or b"", graph or b"")
    _check_model_def(container)
    if graph is not None:
        _check_graph(container)
    return container


def binding_size(model: om_pb2.ModelDef, binding: om_pb2.Binding) -> int:
    """Bytes a binding refers to (0 for a scalar or an unset binding)."""
    kind = binding.WhichOneof("kind")
    if kind == "input":
        return model.inputs[binding.input].size if binding.input < len(model.inputs) else 0
    if kind == "output":
        return model.outputs[binding.output].size if binding.output < len(model.outputs) else 0
    if kind == "feature_map":
        return binding.feature_map.size
    if kind == "constant":
        return binding.constant.size
    return 0


def _task_name(model: om_pb2.ModelDef, index: int) -> str:
    task = model.tasks[index]
    kind = task.WhichOneof("task")
    if kind == "kernel":
        return f"task {index} (kernel {task.kernel.kernel_name} of node {task.kernel.node_name})"
    if kind == "memcpy":
        return f"task {index} (memcpy)"
    return f"task {index}"


def _check_binding(c: OmContainer, binding: om_pb2.Binding, what: str) -> None:
    model = c.model_def
    kind = binding.WhichOneof("kind")
    bad = "bad model field"
    if kind == "input":
        if binding.input >= len(model.inputs):
            raise _fail(bad, f"{what} refers to input {binding.input} but the model has {len(model.inputs)} inputs")
    elif kind == "output":
        if binding.output >= len(model.outputs):
            raise _fail(bad, f"{what} refers to output {binding.output} but the model has {len(model.outputs)} outputs")
    elif kind == "feature_map":
        ref = binding.feature_map
        if ref.offset + ref.size > model.feature_map_size:
            raise _fail(
                bad,
                f"{what} feature-map region [offset {ref.offset}, size {ref.size}] exceeds "
                f"feature_map_size {model.feature_map_size}",
            )
    elif kind == "constant":
        ref = binding.constant
        if ref.offset + ref.size > len(c.constants):
            raise _fail(
                bad,
                f"{what} constant region [offset {ref.offset}, size {ref.size}] exceeds the "
                f"{len(c.constants)}-byte CONSTANTS partition",
            )
    elif kind is None:
        raise _fail(bad, f"{what} has no binding kind")


def _check_model_def(c: OmContainer) -> None:
    model = c.model_def
    if model.format_version != c.format_version:
        raise _fail(
            "model definition mismatch",
            f"ModelDef format_version {model.format_version} differs from the header's {c.format_version}",
        )
    if model.soc_version != c.soc_version or model.npu_arch != c.npu_arch:
        raise _fail(
            "model definition mismatch",
            f"ModelDef target {model.soc_version} (NpuArch {model.npu_arch}) "
            f"differs from the header's {c.soc_version} (NpuArch {c.npu_arch})",
        )
    bad = "bad model field"
    if c.requires_python:
        _check_python_model(c)
        return
    for what, tensors in (("input", model.inputs), ("output", model.outputs)):
        for i, tensor in enumerate(tensors):
            for dim in tensor.dims:
                if dim < 0:
                    raise _fail(
                        bad,
                        f"{what} {i} ({tensor.name}) has dynamic dim {dim}; only a model that runs "
                        "through Python (format version 2) may have one",
                    )
            if tensor.dim_ranges:
                raise _fail(
                    bad,
                    f"{what} {i} ({tensor.name}) has dim ranges; only inputs of a model that runs "
                    "through Python (format version 2) may have them",
                )
    for t, task in enumerate(model.tasks):
        name = _task_name(model, t)
        kind = task.WhichOneof("task")
        if kind == "kernel":
            k = task.kernel
            if k.kernel_binary_index >= len(c.kernel_binaries):
                raise _fail(
                    bad,
                    f"{name} refers to kernel binary {k.kernel_binary_index} but the OM holds {len(c.kernel_binaries)}",
                )
            if not k.kernel_name:
                raise _fail(bad, f"{name} has an empty kernel name")
            if k.block_dim == 0 or k.block_dim > MAX_BLOCK_DIM:
                raise _fail(bad, f"{name} block_dim {k.block_dim} is outside [1, {MAX_BLOCK_DIM}]")
            if len(k.args) > MAX_KERNEL_ARGS:
                raise _fail(bad, f"{name} has {len(k.args)} argument slots (at most {MAX_KERNEL_ARGS})")
            for a, binding in enumerate(k.args):
                _check_binding(c, binding, f"{name} argument {a}")
        elif kind == "memcpy":
            m = task.memcpy
            _check_binding(c, m.src, f"{name} source")
            _check_binding(c, m.dst, f"{name} destination")
            if m.src.WhichOneof("kind") == "scalar" or m.dst.WhichOneof("kind") == "scalar":
                raise _fail(bad, f"{name} copies from or to a scalar; both ends must be memory")
            if m.dst.WhichOneof("kind") in ("input", "constant"):
                raise _fail(
                    bad,
                    f"{name} writes to a model input or a constant; the destination must be an output "
                    "or the feature map",
                )
            src_size, dst_size = binding_size(model, m.src), binding_size(model, m.dst)
            if m.size == 0 or m.size > src_size or m.size > dst_size:
                raise _fail(
                    bad,
                    f"{name} size {m.size} is 0 or exceeds its source ({src_size} bytes) or "
                    f"destination ({dst_size} bytes)",
                )
        else:
            raise _fail(bad, f"task {t} is neither a kernel nor a memcpy task")


def _dims_text(dims) -> str:
    return "[" + ",".join(str(d) for d in dims) + "]"


def _check_python_tensor(tensor: om_pb2.TensorDef, what: str, is_input: bool) -> None:
    bad = "bad model field"
    dims = list(tensor.dims)
    if dims != [-2] and any(d < -1 for d in dims):
        bad_dim = next(d for d in dims if d < -1)
        raise _fail(bad, f"{what} has dim {bad_dim}; dims are sizes, -1 (dynamic) or [-2] (unknown rank)")
    dynamic = dims == [-2] or -1 in dims
    if dynamic and tensor.size:
        raise _fail(bad, f"{what} has dynamic dims {_dims_text(dims)} but size {tensor.size} (must be 0)")
    if not is_input:
        if tensor.dim_ranges:
            raise _fail(bad, f"{what} has dim ranges; only inputs have them")
        return
    if dims == [-2] or len(tensor.dim_ranges) != len(dims):
        raise _fail(bad, f"{what} has {len(tensor.dim_ranges)} dim ranges for dims {_dims_text(dims)} (one per dim)")
    for k, (dim, rng) in enumerate(zip(dims, tensor.dim_ranges)):
        if dim >= 0 and (rng.min, rng.max) != (dim, dim):
            raise _fail(bad, f"{what} dim {k} is {dim} but its range is [{rng.min}, {rng.max}]")
        if dim < 0 and (rng.min < 0 or (rng.max != -1 and rng.max < rng.min)):
            raise _fail(bad, f"{what} dim {k} has range [{rng.min}, {rng.max}] (need 0 <= min <= max, or max -1)")


def _check_python_model(c: OmContainer) -> None:
    """A model that runs through Python: its graph is in GRAPH; no tasks, kernels or memory."""
    model = c.model_def
    bad = "bad model field"
    if model.tasks or c.kernel_binaries or c.constants or model.feature_map_size:
        raise _fail(
            bad,
            f"a model that runs through Python has {len(model.tasks)} tasks, "
            f"{len(c.kernel_binaries)} kernel binaries, {len(c.constants)} constant bytes and "
            f"feature_map_size {model.feature_map_size} (all must be 0: its graph runs them)",
        )
    for what, tensors in (("input", model.inputs), ("output", model.outputs)):
        for i, tensor in enumerate(tensors):
            _check_python_tensor(tensor, f"{what} {i} ({tensor.name})", what == "input")


def _check_graph(c: OmContainer) -> None:
    """The GRAPH partition is one AIR model (twin/graph/proto/air.proto) with the model's inputs
    and outputs."""
    from twin.graph.proto import air_pb2  # type: ignore[attr-defined]  # generated at build time (mypy.ini)

    air = air_pb2.Model()
    try:
        air.ParseFromString(c.graph)
    except Exception:  # DecodeError and friends on garbage
        raise _fail("bad graph", f"the GRAPH partition does not parse as an AIR model ({len(c.graph)} bytes)") from None
    if air.magic != AIR_MAGIC or not 1 <= air.format_version <= AIR_FORMAT_VERSION or air.end_marker != AIR_END_MARKER:
        raise _fail(
            "bad graph",
            f"the GRAPH partition is not an AIR model of format version 1 (magic "
            f"{air.magic!r}, version {air.format_version}, end marker 0x{air.end_marker:08X})",
        )
    model = c.model_def
    if len(air.graph.input_nodes) != len(model.inputs) or len(air.graph.outputs) != len(model.outputs):
        raise _fail(
            "bad graph",
            f"the GRAPH partition's graph has {len(air.graph.input_nodes)} inputs and "
            f"{len(air.graph.outputs)} outputs, the model {len(model.inputs)} and "
            f"{len(model.outputs)}",
        )
    for i, (name, tensor) in enumerate(zip(air.graph.input_nodes, model.inputs)):
        if name != tensor.name:
            raise _fail("bad graph", f"the GRAPH partition's input {i} is '{name}', the model's '{tensor.name}'")
