"""The Python gen_esb generates (es_test_code: module estest) on ge.es.graph_builder.GraphBuilder:
keyword renames, attr defaults and types, owner builders, dynamic and absent outputs."""

import math
import os
import random
import sys
from pathlib import Path

import pytest

from ge.es.graph_builder import GraphBuilder
from ge.graph import DataType, Graph

GENERATED = Path(os.environ["RUNFILES_DIR"]) / "ascend_twin/twin/es/tests/es_test_code"
sys.path.insert(0, str(GENERATED))

import es_estest_ops as ops  # noqa: E402


@pytest.fixture
def rng():
    seed = int(os.environ.get("GE_TWIN_TEST_SEED", random.SystemRandom().randrange(2**32)))
    print(f"[seed] GE_TWIN_TEST_SEED={seed}")
    return random.Random(seed)


def test_all_attrs_defaults_and_keyword_names(rng, tmp_path):
    builder = GraphBuilder("py")
    x = builder.create_input(0, shape=[rng.randint(1, 9)])
    cls = rng.randint(-(10**6), 10**6)
    rows = [[rng.randint(-5, 5) for _ in range(rng.randint(0, 3))] for _ in range(rng.randint(1, 4))]
    y = ops.AllAttrs(x, attr_class=cls, attr_from=rows, s="text")
    attrs = builder._ir.nodes[y._node].attrs
    assert attrs["class"].value == cls and attrs["from"].value == rows
    assert attrs["f"].value == 0.25 and math.isinf(attrs["ninf"].value) and attrs["ninf"].value < 0
    assert attrs["b"].value is True and attrs["s"].value == "text" and attrs["as"].value == "asc"
    assert attrs["t"].value == DataType.DT_INT32
    assert attrs["lt"].value == [DataType.DT_FLOAT, DataType.DT_INT8]
    assert attrs["in"].value == [[1], [2, 3]] and attrs["ls"].value == ["a", "b"] and attrs["las"].value == []
    assert "tensor" not in attrs  # no value given: the IR default stays
    with pytest.raises(TypeError):
        ops.AllAttrs(x, attr_class=1.5, attr_from=[])
    # `default` is an optional input; the second positional is tensor-like (two inputs).
    z = ops.AllAttrs(x, 2.0, attr_class=1, attr_from=[])
    assert builder._ir.nodes[z._node].inputs[1].node.startswith("Const")

    seed_value = rng.randint(0, 100)
    made = ops.MakeSeed(builder, seed=seed_value)
    assert builder._ir.nodes[made._node].attrs["seed"].value == seed_value
    picked = ops.PickAny(None, made)
    alone = ops.PickAny(owner_builder=builder)
    assert alone.get_owner_builder() is builder
    with pytest.raises(ValueError, match="cannot resolve the owner GraphBuilder"):
        ops.PickAny()
    assert ops.Sink(picked) is None
    n = rng.randint(1, 5)
    parts = ops.SplitN(y, n)
    assert isinstance(parts, list) and len(parts) == n
    renamed = ops.Renamed(x, None, ge=rng.randint(0, 9))  # input `builder` is in_builder here
    assert builder._ir.nodes[renamed._node].input_names == ["builder"]
    graph = builder.build_and_reset([parts[-1], made])
    graph.save_to_air(str(tmp_path / "py.air"))
    loaded = Graph()
    loaded.load_from_air(str(tmp_path / "py.air"))
    assert loaded._ir == graph._ir
