"""Bad input to the offline flow: each case gives one clear error and leaves nothing behind.

AIR side (atc): missing, corrupt, truncated, an unknown op. OM side (model_exec, the runtime's
loader as users meet it): truncated, wrong magic, wrong version, bad header or partition
checksum, a partition out of range, another SoC/arch than the device, a nonexistent path.
Good OMs come from Bazel (//offline:model_Ascend910B1, //offline:model_Ascend310P3).
"""

import hashlib
import random
import struct
from pathlib import Path

import offline_tools as t
import pytest

HEADER_SIZE = 128
ENTRY_SIZE = 56
OFF_VERSION = 4
OFF_COUNT = 12
OFF_HEADER_SHA = 64


@pytest.fixture(scope="module")
def rng():
    seed = random.randrange(1 << 30)
    print(f"seed {seed}")
    return random.Random(seed)


@pytest.fixture(scope="module")
def kernel_cache(tmp_path_factory):
    return tmp_path_factory.mktemp("home") / "kernel_cache"


@pytest.fixture(scope="module")
def good_air(tmp_path_factory):
    path = tmp_path_factory.mktemp("air") / "model.air"
    assert t.graph_build(path).returncode == 0
    return path.read_bytes()


def assert_atc_failed(result, out_dir: Path, keep, *fragments):
    assert result.returncode == 255, result.stdout + result.stderr
    lines = result.lines
    assert lines[0] == t.ATC_START
    assert t.ATC_FAILURE in lines, lines
    error = lines[lines.index(t.ATC_FAILURE) + 1]
    assert error[:7] in ("E10001:", "E19999:"), error
    for fragment in fragments:
        assert fragment in error, error
    assert t.ATC_SUCCESS not in lines
    assert t.leftovers(out_dir, keep) == [], "atc left files behind"


# ---------------------------------------------------------------- AIR -> atc


def test_missing_air(tmp_path, kernel_cache):
    result = t.atc_compile(tmp_path / "absent.air", tmp_path / "model", "Ascend910B1", kernel_cache)
    assert_atc_failed(result, tmp_path, [], "E10001", "absent.air", "does not exist")


def test_corrupt_air(tmp_path, kernel_cache, rng):
    air = tmp_path / "corrupt.air"
    air.write_bytes(bytes(rng.randrange(256) for _ in range(4096)))
    result = t.atc_compile(air, tmp_path / "model", "Ascend910B1", kernel_cache)
    assert_atc_failed(result, tmp_path, ["corrupt.air"], "E10001", "[--model]")


@pytest.mark.parametrize("fraction", [0.0, 0.5, 0.9])
def test_truncated_air(tmp_path, kernel_cache, good_air, fraction):
    air = tmp_path / "truncated.air"
    air.write_bytes(good_air[: int(len(good_air) * fraction)])
    result = t.atc_compile(air, tmp_path / "model", "Ascend910B1", kernel_cache)
    assert_atc_failed(result, tmp_path, ["truncated.air"], "E10001", "[--model]")


def test_air_with_unknown_op(tmp_path, kernel_cache):
    air = tmp_path / "unknown.air"
    made = t.run([t.tool("UNKNOWN_OP_AIR"), air], t.base_env())
    assert made.returncode == 0, made.stderr
    result = t.atc_compile(air, tmp_path / "model", "Ascend910B1", kernel_cache)
    assert_atc_failed(result, tmp_path, ["unknown.air"], "AtcTestOpWithoutAnyProto")


def test_unknown_soc(tmp_path, kernel_cache, good_air):
    air = tmp_path / "model.air"
    air.write_bytes(good_air)
    result = t.atc_compile(air, tmp_path / "model", "Ascend999Z9", kernel_cache)
    assert_atc_failed(result, tmp_path, ["model.air"], "E10001", "[--soc_version]", "Ascend999Z9")


def test_failed_compile_keeps_an_earlier_om(tmp_path, kernel_cache, rng):
    """An OM already at the output path is neither truncated nor replaced by a failed run."""
    om = tmp_path / "model.om"
    previous = bytes(rng.randrange(256) for _ in range(512))
    om.write_bytes(previous)
    air = tmp_path / "bad.air"
    air.write_bytes(b"\x08\x96\x01 not an AIR graph")
    result = t.atc_compile(air, tmp_path / "model", "Ascend910B1", kernel_cache)
    assert_atc_failed(result, tmp_path, ["bad.air", "model.om"], "[--model]")
    assert om.read_bytes() == previous


# ---------------------------------------------------------------- OM -> model_exec


def good_om(soc: str) -> bytes:
    return t.tool(f"OM_{soc.upper()}").read_bytes()


def reseal(data: bytearray) -> bytearray:
    """Recomputes the header checksum (over header + partition table, checksum field zeroed)."""
    count = struct.unpack_from("<I", data, OFF_COUNT)[0]
    table_end = HEADER_SIZE + count * ENTRY_SIZE
    data[OFF_HEADER_SHA : OFF_HEADER_SHA + 32] = b"\0" * 32
    data[OFF_HEADER_SHA : OFF_HEADER_SHA + 32] = hashlib.sha256(bytes(data[:table_end])).digest()
    return data


def entry(data: bytes, index: int):
    kind, _, offset, length = struct.unpack_from("<IIQQ", data, HEADER_SIZE + index * ENTRY_SIZE)
    return kind, offset, length


def truncated(data: bytes, rng) -> bytes:
    return data[: rng.randrange(HEADER_SIZE + 1, len(data) - 1)]


def bad_magic(data: bytes, rng) -> bytes:
    return b"OMDI" + data[4:]


def newer_version(data: bytes, rng) -> bytes:
    return bytes(reseal(bytearray(data[:OFF_VERSION] + struct.pack("<I", 2) + data[OFF_VERSION + 4 :])))


def cann_version(data: bytes, rng) -> bytes:
    return bytes(reseal(bytearray(data[:OFF_VERSION] + struct.pack("<I", 0x10000000) + data[OFF_VERSION + 4 :])))


def bad_header_checksum(data: bytes, rng) -> bytes:
    out = bytearray(data)
    out[OFF_HEADER_SHA + rng.randrange(32)] ^= 0x5A
    return bytes(out)


def bad_partition_checksum(data: bytes, rng) -> bytes:
    out = bytearray(data)
    _, offset, length = entry(data, 1)  # a kernel binary partition
    out[offset + rng.randrange(length)] ^= 0xFF
    return bytes(out)


def offset_out_of_range(data: bytes, rng) -> bytes:
    out = bytearray(data)
    _, offset, length = entry(data, 1)
    struct.pack_into("<Q", out, HEADER_SIZE + ENTRY_SIZE + 8, len(data) - length // 2)
    return bytes(reseal(out))


OM_DEFECTS = {
    truncated: "truncated",
    bad_magic: "magic",
    newer_version: "version",
    cann_version: "version",
    bad_header_checksum: "checksum",
    bad_partition_checksum: "checksum",
    offset_out_of_range: "outside",
}


def assert_load_refused(result, *fragments):
    assert result.returncode != 0, result.stdout
    assert "PY_COMPILE_OFFLINE_OM=PASS" not in result.lines
    assert "aclmdlLoadFromFile" in result.stderr, result.stderr
    assert "error code" in result.stderr
    for fragment in fragments:
        assert fragment in result.stderr.lower(), result.stderr


@pytest.mark.parametrize("defect", list(OM_DEFECTS), ids=lambda f: f.__name__)
def test_defective_om_is_refused_at_load(defect, tmp_path, rng):
    om = tmp_path / f"{defect.__name__}.om"
    om.write_bytes(defect(good_om("Ascend910B1"), rng))
    assert_load_refused(t.model_exec(om, "Ascend910B1"), OM_DEFECTS[defect])


def test_om_for_another_soc_is_refused(tmp_path):
    om = tmp_path / "model_310p3.om"
    om.write_bytes(good_om("Ascend310P3"))
    assert_load_refused(t.model_exec(om, "Ascend910B1"), "ascend310p3")


def test_nonexistent_om_path(tmp_path):
    assert_load_refused(t.model_exec(tmp_path / "no_such_model.om", "Ascend910B1"), "no_such_model.om")


def test_good_om_runs(tmp_path):
    """The control for the cases above: the untouched OM passes on its own SoC."""
    om = tmp_path / "model.om"
    om.write_bytes(good_om("Ascend910B1"))
    result = t.model_exec(om, "Ascend910B1")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "PY_COMPILE_OFFLINE_OM=PASS" in result.lines
