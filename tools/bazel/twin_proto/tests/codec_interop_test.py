"""The twin C++ codec and Python protobuf 4.21.12 produce and accept the same bytes.

Random messages of air.proto, om.proto and codec_test.proto are serialized by Python protobuf,
parsed and re-serialized by C++ (codec_roundtrip) and compared byte for byte; C++'s output is
parsed by Python and must re-serialize to the same bytes. Mutated inputs (cut, flipped, spliced,
concatenated) check that whatever C++ accepts, Python accepts with the same meaning (C++ is the
stricter of the two: it refuses wire-type mismatches that Python keeps as unknown fields).
Set GE_TWIN_TEST_SEED to replay a run.
"""

import math
import os
import random
import struct
import subprocess

import pytest
from google.protobuf import descriptor

from tools.bazel.twin_proto.tests import codec_test_pb2
from twin.graph.proto import air_pb2
from twin.om import om_pb2

FD = descriptor.FieldDescriptor

ROOT_TYPES = [
    air_pb2.Model,
    air_pb2.Node,
    air_pb2.AttrValue,
    om_pb2.ModelDef,
    om_pb2.Binding,
    codec_test_pb2.Scalars,
    codec_test_pb2.Repeateds,
    codec_test_pb2.Outer,
    codec_test_pb2.Tree,
]

INT_RANGES = {
    FD.TYPE_INT32: (-(2**31), 2**31 - 1),
    FD.TYPE_SINT32: (-(2**31), 2**31 - 1),
    FD.TYPE_SFIXED32: (-(2**31), 2**31 - 1),
    FD.TYPE_UINT32: (0, 2**32 - 1),
    FD.TYPE_FIXED32: (0, 2**32 - 1),
    FD.TYPE_INT64: (-(2**63), 2**63 - 1),
    FD.TYPE_SINT64: (-(2**63), 2**63 - 1),
    FD.TYPE_SFIXED64: (-(2**63), 2**63 - 1),
    FD.TYPE_UINT64: (0, 2**64 - 1),
    FD.TYPE_FIXED64: (0, 2**64 - 1),
}

SPECIAL_FLOATS = [0.0, -0.0, 1.0, -1.5, math.inf, -math.inf, math.nan, 5e-324, 1e-45, 3.4028234663852886e38]


@pytest.fixture(scope="module")
def rng():
    seed = int(os.environ.get("GE_TWIN_TEST_SEED", random.randrange(2**32)))
    print(f"[seed] GE_TWIN_TEST_SEED={seed}")
    return random.Random(seed)


# codec_roundtrip is built with the repository's ABI (CANN's, _GLIBCXX_USE_CXX11_ABI=0), the
# _cxx11_abi variant with the new one: the codec must behave the same under both.
@pytest.fixture(scope="module", params=["codec_roundtrip", "codec_roundtrip_cxx11_abi"])
def tool(request):
    return os.path.join(
        os.environ["RUNFILES_DIR"], "ascend_twin", "tools", "bazel", "twin_proto", "tests", request.param
    )


def cpp_roundtrip(tool, items):
    """[(full type name, bytes)] -> [(parsed?, re-serialized bytes)] from one codec_roundtrip run."""
    data = bytearray()
    for name, payload in items:
        raw = name.encode()
        data += struct.pack("<I", len(raw)) + raw + struct.pack("<I", len(payload)) + payload
    out = subprocess.run([tool], input=bytes(data), capture_output=True, check=True).stdout
    results, pos = [], 0
    while pos < len(out):
        ok = out[pos] == 1
        (n,) = struct.unpack_from("<I", out, pos + 1)
        results.append((ok, out[pos + 5 : pos + 5 + n]))
        pos += 5 + n
    assert len(results) == len(items)
    return results


def random_scalar(field, rng):
    t = field.type
    if t in INT_RANGES:
        lo, hi = INT_RANGES[t]
        return rng.choice(
            [
                0,
                lo,
                hi,
                -1 if lo < 0 else 1,
                rng.randint(lo, hi),
                rng.randint(-300, 300) if lo < 0 else rng.randint(0, 300),
            ]
        )
    if t in (FD.TYPE_FLOAT, FD.TYPE_DOUBLE):
        return rng.choice(SPECIAL_FLOATS + [rng.uniform(-1e6, 1e6)])
    if t == FD.TYPE_BOOL:
        return rng.random() < 0.5
    if t == FD.TYPE_STRING:
        alphabet = "ab\x00 é€😀\u07ff\uffff\U0010ffff"
        return "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 12)))
    if t == FD.TYPE_BYTES:
        return bytes(rng.randrange(256) for _ in range(rng.randint(0, 12)))
    if t == FD.TYPE_ENUM:
        values = [v.number for v in field.enum_type.values]
        return rng.choice(values + [rng.randint(-5, 50)])  # proto3 enums are open
    raise AssertionError(field.full_name)


def fill(message, rng, depth):
    """Sets a random subset of fields: at most one member per oneof, sometimes to its default."""
    desc = message.DESCRIPTOR
    for oneof in desc.oneofs:
        if rng.random() < 0.75:
            set_field(message, rng.choice(oneof.fields), rng, depth, in_oneof=True)
    for field in desc.fields:
        if field.containing_oneof is None and rng.random() < 0.6:
            set_field(message, field, rng, depth, in_oneof=False)


def set_field(message, field, rng, depth, in_oneof):
    is_message = field.type == FD.TYPE_MESSAGE
    if field.label == FD.LABEL_REPEATED:
        target = getattr(message, field.name)
        for _ in range(rng.randint(0, 4 if depth < 4 else 0)):
            if is_message:
                fill(target.add(), rng, depth + 1)
            else:
                target.append(random_scalar(field, rng))
        return
    if is_message:
        sub = getattr(message, field.name)
        sub.SetInParent()  # present even when empty
        if depth < 5:
            fill(sub, rng, depth + 1)
        return
    value = random_scalar(field, rng)
    if in_oneof and rng.random() < 0.2:
        value = field.default_value  # a set oneof member is written even at its default
    setattr(message, field.name, value)


def random_messages(rng, count):
    messages = []
    for _ in range(count):
        cls = rng.choice(ROOT_TYPES)
        m = cls()
        fill(m, rng, 0)
        messages.append(m)
    return messages


def test_python_bytes_survive_cpp_unchanged(rng, tool):
    messages = random_messages(rng, 400)
    items = [(m.DESCRIPTOR.full_name, m.SerializeToString()) for m in messages]
    for (name, py_bytes), (ok, cpp_bytes) in zip(items, cpp_roundtrip(tool, items)):
        assert ok, f"C++ refused a valid {name}: {py_bytes.hex()}"
        assert cpp_bytes == py_bytes, (
            f"{name}: C++ re-serialized differently\npy  {py_bytes.hex()}\ncpp {cpp_bytes.hex()}"
        )


def test_cpp_bytes_parse_in_python_to_the_same_message(rng, tool):
    messages = random_messages(rng, 200)
    items = [(m.DESCRIPTOR.full_name, m.SerializeToString()) for m in messages]
    for m, (ok, cpp_bytes) in zip(messages, cpp_roundtrip(tool, items)):
        assert ok
        back = type(m).FromString(cpp_bytes)
        # Byte comparison rather than ==, which NaN floats would fail.
        assert back.SerializeToString() == m.SerializeToString()
        assert len(back.ListFields()) == len(m.ListFields())


def test_deep_tree_round_trips(rng, tool):
    tree = codec_test_pb2.Tree(name="root")
    node = tree
    for i in range(99):  # 99 levels below the root (the codec accepts up to 100: codec_test.cc)
        node = node.only_child if rng.random() < 0.5 else node.children.add()
        node.name = f"n{i}"
    data = tree.SerializeToString()
    ((ok, cpp_bytes),) = cpp_roundtrip(tool, [("twin_proto.test.Tree", data)])
    assert ok and cpp_bytes == data


def mutate(data, other, rng):
    kind = rng.randrange(5)
    if kind == 0 and data:  # cut
        return data[: rng.randrange(len(data))]
    if kind == 1 and data:  # flip a byte
        i = rng.randrange(len(data))
        return data[:i] + bytes([data[i] ^ (1 << rng.randrange(8))]) + data[i + 1 :]
    if kind == 2:  # splice random bytes in
        i = rng.randrange(len(data) + 1)
        return data[:i] + bytes(rng.randrange(256) for _ in range(rng.randint(1, 4))) + data[i:]
    if kind == 3:  # concatenation = merge: last scalar wins, messages merge, repeated append
        return data + other
    return bytes(rng.randrange(256) for _ in range(rng.randint(0, 24)))


def test_mutated_input_cpp_accepts_only_what_python_accepts_alike(rng, tool):
    messages = random_messages(rng, 300)
    items = []
    for m in messages:
        other = type(m)()
        fill(other, rng, 0)
        items.append((m.DESCRIPTOR.full_name, mutate(m.SerializeToString(), other.SerializeToString(), rng)))
    by_name = {cls.DESCRIPTOR.full_name: cls for cls in ROOT_TYPES}
    accepted = 0
    for (name, data), (ok, cpp_bytes) in zip(items, cpp_roundtrip(tool, items)):
        if not ok:
            continue
        accepted += 1
        py = by_name[name]()
        try:
            py.ParseFromString(data)
        except Exception as e:  # noqa: BLE001 - any refusal is the failure being reported
            pytest.fail(f"C++ accepted a {name} that Python refuses ({e}): {data.hex()}")
        py.DiscardUnknownFields()
        assert py.SerializeToString() == cpp_bytes, f"{name} parsed differently: {data.hex()}"
    print(f"{accepted} of {len(items)} mutated inputs were accepted by C++")
