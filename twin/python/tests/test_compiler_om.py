"""ge._compiler writes its OM with twin.om, so //twin/python:ge alone must bring twin.om along
(this test depends on :ge only). Graphs without custom ops need no kernel compiler: an output
that is a graph input or a constant becomes a MEMCPY task."""

import numpy as np

from ge._compiler import compile_graph
from ge.es.graph_builder import GraphBuilder
from ge.graph import DataType
from twin.om import om


def test_compiled_model_reads_back_with_twin_om(rng):
    n = int(rng.integers(1, 4096))
    values = rng.standard_normal(n).astype(np.float32)
    builder = GraphBuilder("passthrough")
    x = builder.create_input(0, shape=[n])
    c = builder.create_const_float(values.tolist(), shape=[n])
    compiled = compile_graph(builder.build_and_reset([x, c])._ir, {"ge.socVersion": "Ascend910B1"})
    container = om.read(compiled.om)
    model = container.model_def
    assert container.soc_version == "Ascend910B1"
    assert [list(t.dims) for t in model.inputs] == [[n]]
    assert [list(t.dims) for t in model.outputs] == [[n], [n]]
    assert [t.data_type for t in model.outputs] == [int(DataType.DT_FLOAT)] * 2
    copies = [t.memcpy for t in model.tasks if t.WhichOneof("task") == "memcpy"]
    assert [c.dst.output for c in copies] == [0, 1] and all(c.size == 4 * n for c in copies)
    assert copies[0].src.WhichOneof("kind") == "input"
    constant = copies[1].src.constant
    stored = np.frombuffer(container.constants[constant.offset : constant.offset + constant.size], np.float32)
    np.testing.assert_array_equal(stored, values)
