"""The AddNScaledCustom holder's tiling invariants over random lengths (printed seed)."""

import os
import random
import sys
from pathlib import Path

# the plugin directory, as GE puts it on sys.path when it loads the holder
sys.path.insert(0, str(Path(__file__).absolute().parent.parent / "python" / "plugin"))
from add_n_scaled_custom_holder import TILE_ELEMENTS, tiling_for  # noqa: E402


def test_tiling_covers_every_element_once_in_whole_tiles():
    seed = int(os.environ.get("ADD_N_SCALED_SEED", random.SystemRandom().randrange(2**32)))
    print(f"seed={seed}")
    rng = random.Random(seed)
    for _ in range(2000):
        total, cores = rng.randrange(1, 10**7), rng.randrange(1, 64)
        block_length, tile, blocks = tiling_for(total, cores)
        assert tile == TILE_ELEMENTS and block_length % tile == 0
        assert 1 <= blocks <= cores
        assert (blocks - 1) * block_length < total <= blocks * block_length  # no empty block
