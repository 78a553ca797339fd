"""om.py: round trip, atomic write, each refusal, and agreement with the C++ reader."""

import hashlib
import os
import random
import struct
import subprocess

import pytest

from twin.om import om, om_pb2
from twin.om.tests.python_om_sample import make_air, make_python_model
from twin.om.tests.python_om_sample import make_static_model as make_model

SEED = random.randrange(2**32)
print(f"seed={SEED}")


@pytest.fixture()
def rng() -> random.Random:
    print(f"seed={SEED}")
    return random.Random(SEED)


def reseal(data: bytearray) -> bytes:
    (count,) = struct.unpack_from("<I", data, 12)
    end = om.HEADER_SIZE + count * om.PARTITION_ENTRY_SIZE
    data[64:96] = b"\0" * 32
    data[64:96] = hashlib.sha256(bytes(data[:end])).digest()
    return bytes(data)


def entry(i: int) -> int:
    return om.HEADER_SIZE + i * om.PARTITION_ENTRY_SIZE


def om_check() -> str:
    return os.path.join(os.environ["TEST_SRCDIR"], os.environ["TEST_WORKSPACE"], "twin", "om", "om_check")


def test_round_trip(rng: random.Random) -> None:
    binaries = [rng.randbytes(rng.randrange(1, 5000)) for _ in range(3)]
    constants = rng.randbytes(77)
    model = make_model()
    data = om.serialize(model, binaries, constants)
    assert data[:4] == b"IMOD"
    c = om.read(data)
    assert (c.format_version, c.soc_version, c.npu_arch) == (1, "Ascend910B1", 2201)
    assert c.kernel_binaries == binaries
    assert c.constants == constants
    assert c.model_def == model


def test_write_is_atomic_and_cpp_reader_agrees(rng: random.Random, tmp_path) -> None:
    path = tmp_path / "model.om"
    om.write(path, make_model(), [rng.randbytes(1000)])
    assert os.listdir(tmp_path) == ["model.om"]
    result = subprocess.run([om_check(), str(path)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert "model=add format_version=1 soc_version=Ascend910B1 npu_arch=2201" in result.stdout

    bad = make_model()
    bad.tasks[0].kernel.args[0].input = 5
    with pytest.raises(om.OmFormatError, match="refers to input 5"):
        om.write(tmp_path / "bad.om", bad, [b"x"])
    assert os.listdir(tmp_path) == ["model.om"]  # nothing half-written


def test_cpp_reader_gives_the_same_message(rng: random.Random, tmp_path) -> None:
    data = bytearray(om.serialize(make_model(), [rng.randbytes(2000)]))
    (offset,) = struct.unpack_from("<Q", data, entry(1) + 8)
    data[offset + rng.randrange(2000)] ^= 0x10
    with pytest.raises(om.OmFormatError) as info:
        om.read(bytes(data))
    path = tmp_path / "corrupt.om"
    path.write_bytes(bytes(data))
    result = subprocess.run([om_check(), str(path)], capture_output=True, text=True)
    assert result.returncode == 1
    assert str(info.value) in result.stderr
    assert "[bad partition checksum]" in result.stderr


def refused(data: bytes, kind: str) -> str:
    with pytest.raises(om.OmFormatError) as info:
        om.read(data)
    assert info.value.kind == kind, str(info.value)
    return str(info.value)


def test_refusals(rng: random.Random) -> None:
    good = om.serialize(make_model(), [rng.randbytes(3000)], rng.randbytes(10))
    refused(good[: rng.randrange(len(good))], "truncated")
    refused(good + b"\0", "trailing bytes")
    refused(b"XMOD" + good[4:], "bad magic")

    newer = bytearray(good)
    struct.pack_into("<I", newer, 4, om.FORMAT_VERSION + 1)
    assert "newer" in refused(reseal(newer), "unsupported version")

    flipped = bytearray(good)
    flipped[20] ^= 1
    refused(bytes(flipped), "bad header checksum")

    (offset,) = struct.unpack_from("<Q", good, entry(1) + 8)
    corrupt = bytearray(good)
    corrupt[offset + 5] ^= 0xFF
    assert "KERNEL_BINARY" in refused(bytes(corrupt), "bad partition checksum")

    out_of_range = bytearray(good)
    struct.pack_into("<Q", out_of_range, entry(1) + 16, len(good))
    refused(reseal(out_of_range), "partition out of range")

    (model_offset,) = struct.unpack_from("<Q", good, entry(0) + 8)
    overlap = bytearray(good)
    struct.pack_into("<Q", overlap, entry(1) + 8, model_offset + 2)
    refused(reseal(overlap), "partition overlap")


def test_index_out_of_range_is_refused_on_serialize() -> None:
    for mutate, text in [
        (lambda m: setattr(m.tasks[0].kernel, "kernel_binary_index", 1), "kernel binary 1"),
        (lambda m: setattr(m.tasks[0].kernel.args[2], "output", 2), "output 2"),
        (lambda m: setattr(m.tasks[0].kernel, "block_dim", 0), "block_dim 0"),
        (lambda m: setattr(m.tasks[1].memcpy, "size", 1 << 20), "memcpy"),
        (
            lambda m: m.tasks[0].kernel.args.add().feature_map.CopyFrom(om_pb2.FeatureMapRef(offset=4096, size=1)),
            "feature_map_size",
        ),
    ]:
        model = make_model()
        mutate(model)
        with pytest.raises(om.OmFormatError, match=text):
            om.serialize(model, [b"\x7fELF"])


def test_bytes_identical_to_cpp_writer_layout(rng: random.Random) -> None:
    # Partition data starts 64-byte aligned right after the table, in MODEL_DEF, KERNEL_BINARY order.
    data = om.serialize(make_model(), [rng.randbytes(10), rng.randbytes(10)])
    offsets = [struct.unpack_from("<Q", data, entry(i) + 8)[0] for i in range(3)]
    assert offsets[0] == 320 and all(o % 64 == 0 for o in offsets)
    assert struct.unpack_from("<Q", data, 56)[0] == len(data)


def test_every_single_byte_change_is_refused(rng: random.Random) -> None:
    small = om.serialize(make_model(), [rng.randbytes(50)], rng.randbytes(20))
    for at in range(len(small)):
        damaged = bytearray(small)
        damaged[at] ^= rng.randrange(1, 256)
        with pytest.raises(om.OmFormatError):
            om.read(bytes(damaged))


def test_nonzero_padding_is_refused() -> None:
    data = bytearray(om.serialize(make_model(), [b"\x7fELF"]))
    (model_offset,) = struct.unpack_from("<Q", data, entry(0) + 8)
    data[model_offset - 1] = 1
    assert f"offset {model_offset - 1}" in refused(bytes(data), "bad padding")


# ---- format version 1 stays what it was; version 2: models that run through Python ----

# om.serialize(make_model(), [bytes(range(256)) * 3, b"kernel-2"], b"constants!") as written before
# version 2 existed (1418 bytes): a static model must keep producing exactly these bytes.
VERSION_1_SHA256 = "42f9873d99422aec156fbb2405065dbf13ac78c1c6a4ae4949596bb842460c75"


def test_static_container_is_byte_identical_to_version_1() -> None:
    model = make_model()
    model.format_version = 0  # let the writer choose: a model without a graph is version 1
    data = om.serialize(model, [bytes(range(256)) * 3, b"kernel-2"], b"constants!")
    assert (len(data), hashlib.sha256(data).hexdigest()) == (1418, VERSION_1_SHA256)
    assert om.read(data).format_version == 1 and om.read(data).flags == 0


def check_both(data: bytes, kind: str, tmp_path) -> str:
    """The Python and the C++ reader refuse `data` with the same kind and message."""
    message = refused(data, kind)
    path = tmp_path / "refused.om"
    path.write_bytes(data)
    result = subprocess.run([om_check(), str(path)], capture_output=True, text=True)
    assert result.returncode == 1 and message in result.stderr and f"[{kind}]" in result.stderr, result.stderr
    return message


def test_python_model_round_trip_and_cpp_reader(rng: random.Random, tmp_path) -> None:
    model, air = make_python_model(rng), make_air()
    data = om.serialize(model, [], b"", graph=air)
    c = om.read(data)
    assert (c.format_version, c.flags, c.requires_python, c.graph) == (2, om.FLAG_REQUIRES_PYTHON, True, air)
    assert c.model_def.inputs[0].dim_ranges[0].max == model.inputs[0].dim_ranges[0].max
    path = tmp_path / "dyn.om"
    om.write(path, model, [], graph=air)
    result = subprocess.run([om_check(), str(path)], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert "format_version=2" in result.stdout and f"requires_python=1 graph_bytes={len(air)}" in result.stdout


def python_container(
    model: om_pb2.ModelDef, air: bytes, version: int = 2, flags: int = 1, binaries=(), kinds=None
) -> bytes:
    """A container written field by field (om.serialize refuses what these tests need)."""
    model = om_pb2.ModelDef.FromString(model.SerializeToString())
    model.format_version = version
    parts = [(om.PARTITION_MODEL_DEF, model.SerializeToString())] + [(om.PARTITION_KERNEL_BINARY, b) for b in binaries]
    if air:
        parts.append((om.PARTITION_GRAPH, air))
    table_end = om.HEADER_SIZE + len(parts) * om.PARTITION_ENTRY_SIZE
    body, entries, cursor = b"", b"", table_end
    for kind, content in parts:
        entries += struct.pack("<IIQQ32s", kind, 0, cursor, len(content), hashlib.sha256(content).digest())
        body += content
        cursor += len(content)
    header = struct.pack(
        "<IIIIII32sQ32s32s",
        om.MAGIC,
        version,
        om.HEADER_SIZE,
        len(parts),
        flags,
        2201,
        b"Ascend910B1",
        table_end + len(body),
        b"\0" * 32,
        b"\0" * 32,
    )
    return reseal(bytearray(header + entries + body))


def test_python_model_refusals(rng: random.Random, tmp_path) -> None:
    model, air = make_python_model(rng), make_air()
    assert om.read(python_container(model, air)).requires_python  # the hand-made container is valid
    assert "unknown type 4 for format version 1" in check_both(
        python_container(model, air, version=1, flags=0), "bad partition entry", tmp_path
    )
    assert "unknown header flags 0x00000001 for format version 1" in check_both(
        python_container(model, air, version=1, flags=1), "bad header field", tmp_path
    )
    assert "no GRAPH partition" in check_both(python_container(model, b""), "bad partition entry", tmp_path)
    assert "without the header flag" in check_both(
        python_container(model, air, flags=0), "bad partition entry", tmp_path
    )
    assert "does not parse as an AIR model" in check_both(python_container(model, b"\xff" * 9), "bad graph", tmp_path)
    assert "input 0 is 'y', the model's 'x'" in check_both(
        python_container(model, make_air(("y",))), "bad graph", tmp_path
    )
    assert "2 outputs" in check_both(python_container(model, make_air(outputs=2)), "bad graph", tmp_path)
    assert "kernel binaries" in check_both(
        python_container(model, air, binaries=[b"\x7fELF"]), "bad model field", tmp_path
    )
    for mutate, text in [
        (lambda m: m.inputs[0].dim_ranges.pop(), "1 dim ranges for dims [-1,4]"),
        (lambda m: setattr(m.inputs[0].dim_ranges[1], "max", 5), "dim 1 is 4 but its range is [4, 5]"),
        (lambda m: setattr(m.inputs[0].dim_ranges[0], "min", -3), "has range [-3,"),
        (lambda m: setattr(m.inputs[0], "size", 16), "but size 16 (must be 0)"),
        (lambda m: m.inputs[0].dims.__setitem__(0, -7), "has dim -7"),
        (lambda m: m.outputs[0].dim_ranges.add(min=1, max=1), "only inputs have them"),
    ]:
        broken = om_pb2.ModelDef.FromString(model.SerializeToString())
        mutate(broken)
        assert text in check_both(python_container(broken, air), "bad model field", tmp_path)


def test_static_model_may_not_use_version_2_fields(tmp_path) -> None:
    dynamic = make_model()
    dynamic.inputs[0].dims[0] = -1
    with pytest.raises(om.OmFormatError, match="only a model that runs through Python"):
        om.serialize(dynamic, [b"\x7fELF"])
    ranged = make_model()
    ranged.inputs[0].dim_ranges.add(min=1, max=1024)
    with pytest.raises(om.OmFormatError, match="only inputs of a model that runs through Python"):
        om.serialize(ranged, [b"\x7fELF"])
