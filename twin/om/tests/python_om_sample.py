"""A small OM that runs through Python (format version 2), for the tests and as a fuzzing seed:

    python_om_sample OUT.om      writes it (//twin/om:python_om_seed)
"""

import random
import sys

from twin.om import om
from twin.om import om_pb2


def make_air(inputs=("x",), outputs=1) -> bytes:
    """A minimal AIR model (twin/graph/proto/air.proto): Data nodes and their outputs."""
    from twin.graph.proto import air_pb2
    air = air_pb2.Model(magic=om.AIR_MAGIC, format_version=1, producer="om_py_test", end_marker=om.AIR_END_MARKER)
    air.graph.name = "g"
    for name in inputs:
        node = air.graph.nodes.add(name=name, type="Data")
        node.outputs.add(name="y", desc=air_pb2.TensorDesc(dims=[-1, 4], dtype=0, format=2))
        air.graph.input_nodes.append(name)
    for j in range(outputs):
        air.graph.outputs.add(node=inputs[j % len(inputs)], index=0)
    return air.SerializeToString()


def make_python_model(rng: random.Random) -> om_pb2.ModelDef:
    model = om_pb2.ModelDef(name="dyn", soc_version="Ascend910B1", npu_arch=2201)
    hi = rng.randrange(2, 1 << 20)
    x = model.inputs.add(name="x", data_type=0, dims=[-1, 4], size=0, format=2)
    x.dim_ranges.add(min=1, max=hi)
    x.dim_ranges.add(min=4, max=4)
    model.outputs.add(name="x:0", data_type=0, dims=[-1, 4], size=0, format=2)
    return model


if __name__ == "__main__":
    om.write(sys.argv[1], make_python_model(random.Random(0)), [], graph=make_air())
