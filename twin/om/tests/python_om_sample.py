"""Small OMs of both format versions, for the tests and as fuzzing seeds:

python_om_sample OUT.om            a model that runs through Python (version 2; //twin/om:python_om_seed)
python_om_sample --static OUT.om   a static model: a kernel task and a memcpy (version 1; :static_om_seed)
"""

import random
import sys

from twin.om import om, om_pb2


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


def make_static_model(n: int = 1024) -> om_pb2.ModelDef:
    """z = add(x, y) by a kernel task, x_copy = x by a memcpy task (format version 1)."""
    model = om_pb2.ModelDef(
        format_version=om.STATIC_FORMAT_VERSION,
        name="add",
        soc_version="Ascend910B1",
        npu_arch=2201,
        feature_map_size=4 * n,
    )
    for name in ("x", "y"):
        model.inputs.add(name=name, data_type=0, dims=[n], size=4 * n, format=2)
    model.outputs.add(name="z", data_type=0, dims=[n], size=4 * n, format=2)
    model.outputs.add(name="x_copy", data_type=0, dims=[n], size=4 * n, format=2)
    task = model.tasks.add().kernel
    task.node_name, task.op_type, task.kernel_name, task.block_dim = "add", "AddCustom", "add_custom", 8
    task.args.add(input=0)
    task.args.add(input=1)
    task.args.add(output=0)
    task.args.add(scalar=n)
    copy = model.tasks.add().memcpy
    copy.src.input = 0
    copy.dst.output = 1
    copy.size = 4 * n
    return model


def make_python_model(rng: random.Random) -> om_pb2.ModelDef:
    model = om_pb2.ModelDef(name="dyn", soc_version="Ascend910B1", npu_arch=2201)
    hi = rng.randrange(2, 1 << 20)
    x = model.inputs.add(name="x", data_type=0, dims=[-1, 4], size=0, format=2)
    x.dim_ranges.add(min=1, max=hi)
    x.dim_ranges.add(min=4, max=4)
    model.outputs.add(name="x:0", data_type=0, dims=[-1, 4], size=0, format=2)
    return model


if __name__ == "__main__":
    if sys.argv[1] == "--static":
        # the kernel partition: an ELF header and bytes (the container reader does not load it)
        om.write(sys.argv[2], make_static_model(), [b"\x7fELF" + bytes(range(256)) * 3], b"constants!")
    else:
        om.write(sys.argv[1], make_python_model(random.Random(0)), [], graph=make_air())
