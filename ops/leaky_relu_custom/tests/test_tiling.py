"""bazel test //ops/leaky_relu_custom:tiling_test — the holder's tiling covers every element once
with whole tiles per block, at most one block per AI core and no empty block, for both dtypes."""

import random
import struct
import sys
from pathlib import Path

# the plugin directory, as GE puts it on sys.path when it loads the holder
sys.path.insert(0, str(Path(__file__).absolute().parent.parent / "python" / "plugin"))
import leaky_relu_custom_holder as holder  # noqa: E402


def test_tiling_invariants():
    seed = random.SystemRandom().randrange(2**32)
    print(f"seed={seed}")
    rng = random.Random(seed)
    totals = [1, 2, 15, 16, 4095, 4096, 4097, 2047, 2048, 2049] + [rng.randrange(1, 1 << 26) for _ in range(200)]
    for element_bytes in (2, 4):
        for cores in (1, 2, 8, 20, 24, 32):
            for total in totals:
                block_length, tile, blocks = holder.tiling_for(total, element_bytes, cores)
                assert tile * element_bytes == holder.TILE_BYTES and (tile * element_bytes) % 32 == 0
                assert block_length % tile == 0
                assert 1 <= blocks <= cores
                assert (blocks - 1) * block_length < total <= blocks * block_length, (total, cores)


def test_tiling_struct_is_16_bytes_in_two_slots():
    packed = struct.pack(holder.TILING_FORMAT, 8192, 4096, 0.2, 3)
    assert len(packed) == 16  # static_assert(sizeof(LeakyReluTiling) == 16) in kernel/leaky_relu_tiling.h
    assert len(struct.unpack("<QQ", packed)) == 2
