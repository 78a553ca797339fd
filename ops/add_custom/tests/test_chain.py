"""Several custom nodes in a chain, several graph inputs and outputs: intermediates in the
feature map, outputs bound directly, a graph input wired straight to an output (MEMCPY task)."""

import textwrap

import harness
import pytest

CHAIN_SCRIPT = textwrap.dedent("""
    import sys
    import numpy as np
    from es_custom import PythonCompilableAddCustom as Add
    from ge.es.graph_builder import GraphBuilder
    from ge.ge_global import GeApi
    from ge.graph import DataType, Format, Tensor
    from ge.session import Session

    SOC, SEED, SIZES = sys.argv[1], int(sys.argv[2]), [int(s) for s in sys.argv[3].split(",")]
    rng = np.random.default_rng(SEED)

    def as_tensor(x):
        return Tensor(x.tolist(), None, DataType.DT_FLOAT, Format.FORMAT_ND, [x.size])

    def as_array(t):
        return np.asarray(t.get_data(), dtype=np.float32).reshape(-1)

    GeApi.ge_initialize({"ge.exec.deviceId": "0", "ge.socVersion": SOC})
    session = Session()
    graph_id = 0
    for n in SIZES:
        x1, x2, x3 = (rng.uniform(-1e3, 1e3, n).astype(np.float32) for _ in range(3))

        # outputs: the chain's end, its middle, and an input passed straight through
        b = GraphBuilder(f"chain_{n}")
        i1, i2, i3 = (b.create_input(k, shape=[n]) for k in range(3))
        mid = Add(i1, i2)
        end = Add(mid, i3)
        graph_id += 1
        session.add_graph(graph_id, b.build_and_reset([end, mid, i2]))
        got = [as_array(t) for t in session.run_graph(graph_id, [as_tensor(x1), as_tensor(x2), as_tensor(x3)])]
        assert len(got) == 3, len(got)
        assert np.array_equal(got[0], (x1 + x2) + x3), "end"
        assert np.array_equal(got[1], x1 + x2), "mid"
        assert np.array_equal(got[2], x2), "passthrough"

        # a diamond whose intermediates live only in the feature map, run twice (buffer reuse)
        b = GraphBuilder(f"diamond_{n}")
        i1, i2, i3 = (b.create_input(k, shape=[n]) for k in range(3))
        left, right = Add(i1, i2), Add(i3, i1)
        top = Add(left, right)
        graph_id += 1
        session.add_graph(graph_id, b.build_and_reset([Add(top, i2)]))
        for _ in range(2):
            x1, x2, x3 = (rng.uniform(-1e3, 1e3, n).astype(np.float32) for _ in range(3))
            (out,) = session.run_graph(graph_id, [as_tensor(x1), as_tensor(x2), as_tensor(x3)])
            assert np.array_equal(as_array(out), ((x1 + x2) + (x3 + x1)) + x2), "diamond"
        # a constant operand (CONSTANTS partition), also returned as a graph output
        c = rng.uniform(-1e3, 1e3, n).astype(np.float32)
        b = GraphBuilder(f"const_{n}")
        i1 = b.create_input(0, shape=[n])
        k = b.create_const_float(c.tolist(), shape=[n])
        graph_id += 1
        session.add_graph(graph_id, b.build_and_reset([Add(i1, k), k]))
        got = [as_array(t) for t in session.run_graph(graph_id, [as_tensor(x1)])]
        assert np.array_equal(got[0], x1 + c), "const operand"
        assert np.array_equal(got[1], c), "const output"
        print(f"CHAIN_OK size={n}")
    GeApi.ge_finalize()
""")


@pytest.mark.parametrize("copies", ["views", "acl_memcpy"])
def test_chain_and_diamond_match_numpy(copies):
    """Both data paths of the backend: numpy copies into buffer views (default on the twin) and
    aclrtMemcpy (forced with ASCEND_TWIN_GE_ACL_COPIES=1)."""
    paths = harness.sample_paths()
    seed = harness.new_seed()
    sizes = [1024, 5120, 131072]
    script = harness.scratch_dir("chain") / "chain.py"
    script.write_text(CHAIN_SCRIPT)
    proc = harness.run_python(
        [str(script), paths.soc, str(seed), ",".join(map(str, sizes))],
        harness.clean_env(paths, extra={"ASCEND_TWIN_GE_ACL_COPIES": "1"} if copies == "acl_memcpy" else None),
    )
    assert proc.returncode == 0, proc.stderr
    for n in sizes:
        assert f"CHAIN_OK size={n}" in proc.stdout
    # one compile per node: 2 (chain) + 4 (diamond) + 1 (const) nodes per size
    entered = [out for out in proc.stdout.splitlines() if out.startswith("PY_COMPILE_CALLBACK_ENTER=1")]
    assert len(entered) == 7 * len(sizes)
