#!/usr/bin/env python3
"""The offline side of the three-backend graph (tests/test_offline.py drives it):

offline_case.py air DIR              writes DIR/three_backends.air (run.py's graph, inputs [-1])
                                     and DIR/adds.air (x1 + x2 + x3 with add_custom only, [-1])
offline_case.py run MODEL.om N SEED  runs adds' OM with pyACL (no GE, no plugin) on random
                                     float32 inputs of N elements; prints OFFLINE_OM=PASS when
                                     the output equals numpy
offline_case.py pyrun MODEL.om SCALE SEED N...
                                     runs three_backends' OM (it runs through Python: this
                                     process's interpreter) with pyACL for each size, against
                                     numpy; prints PYACL_DYNAMIC size=N PASS per size
"""

import sys
from pathlib import Path

import numpy as np

ACL_MEM_MALLOC_NORMAL_ONLY = 2
ACL_MEMCPY_HOST_TO_DEVICE = 1
ACL_MEMCPY_DEVICE_TO_HOST = 2


def write_airs(directory: Path) -> None:
    sys.path.insert(0, str(Path(__file__).absolute().parent.parent))  # run.py's graph
    from es_custom import PythonCompilableAddCustom as Add
    from run import three_backend_graph

    from ge.es.graph_builder import GraphBuilder

    three_backend_graph(0.5).save_to_air(str(directory / "three_backends.air"))
    builder = GraphBuilder("adds")
    x1, x2, x3 = (builder.create_input(k, name=f"x{k + 1}", shape=[-1]) for k in range(3))
    builder.build_and_reset([Add(Add(x1, x2), x3)]).save_to_air(str(directory / "adds.air"))


def check(ret, what: str) -> None:
    if ret != 0:
        import acl

        raise SystemExit(f"offline_case: {what} failed, error code {ret}: {acl.get_recent_err_msg()}")


def run_om(model: str, n: int, seed: int) -> int:
    import acl

    rng = np.random.default_rng(seed)
    xs = [rng.uniform(-100, 100, n).astype(np.float32) for _ in range(3)]
    check(acl.init(), "aclInit")
    check(acl.rt.set_device(0), "aclrtSetDevice")
    model_id, ret = acl.mdl.load_from_file(model)
    check(ret, "aclmdlLoadFromFile")
    datasets, pointers = [acl.mdl.create_dataset(), acl.mdl.create_dataset()], []
    out = np.empty(n, dtype=np.float32)
    for which, array in [(0, x) for x in xs] + [(1, out)]:
        ptr, ret = acl.rt.malloc(array.nbytes, ACL_MEM_MALLOC_NORMAL_ONLY)
        check(ret, "aclrtMalloc")
        pointers.append(ptr)
        if which == 0:
            check(
                acl.rt.memcpy(ptr, array.nbytes, acl.util.numpy_to_ptr(array), array.nbytes, ACL_MEMCPY_HOST_TO_DEVICE),
                "aclrtMemcpy",
            )
        _, ret = acl.mdl.add_dataset_buffer(datasets[which], acl.create_data_buffer(ptr, array.nbytes))
        check(ret, "aclmdlAddDatasetBuffer")
    check(acl.mdl.execute(model_id, datasets[0], datasets[1]), "aclmdlExecute")
    check(
        acl.rt.memcpy(acl.util.numpy_to_ptr(out), out.nbytes, pointers[-1], out.nbytes, ACL_MEMCPY_DEVICE_TO_HOST),
        "aclrtMemcpy",
    )
    ok = np.array_equal(out, (xs[0] + xs[1]) + xs[2])
    print(f"OFFLINE_OM={'PASS' if ok else 'FAIL'} n={n} ge_imported={'ge' in sys.modules}", flush=True)
    return 0 if ok else 1


def run_dynamic_om(model: str, scale: float, seed: int, sizes) -> int:
    """A pyACL program running the three-backend graph's OM (which runs through Python: the
    runtime uses this process's interpreter) for each size; shapes per run with
    acl.mdl.set_dataset_tensor_desc, output shapes from acl.mdl.get_dataset_tensor_desc."""
    import acl

    rng = np.random.default_rng(seed)
    check(acl.init(), "aclInit")
    check(acl.rt.set_device(0), "aclrtSetDevice")
    model_id, ret = acl.mdl.load_from_file(model)
    check(ret, "aclmdlLoadFromFile")
    desc = acl.mdl.create_desc()
    check(acl.mdl.get_desc(desc, model_id), "aclmdlGetDesc")
    ranges, ret = acl.mdl.get_input_dims_range(desc, 0)
    check(ret, "aclmdlGetInputDimsRange")
    print(f"input 0 range={ranges['range']}", flush=True)
    ok = True
    stream, ret = acl.rt.create_stream()
    check(ret, "aclrtCreateStream")
    for run, n in enumerate(sizes):
        xs = [rng.uniform(-100, 100, n).astype(np.float32) for _ in range(3)]
        datasets, pointers = [acl.mdl.create_dataset(), acl.mdl.create_dataset()], []
        shape = acl.create_tensor_desc(0, [n], 2)  # ACL_FLOAT, ACL_FORMAT_ND
        for k, x in enumerate(xs):
            ptr, ret = acl.rt.malloc(x.nbytes, ACL_MEM_MALLOC_NORMAL_ONLY)
            check(ret, "aclrtMalloc")
            pointers.append(ptr)
            check(
                acl.rt.memcpy(ptr, x.nbytes, acl.util.numpy_to_ptr(x), x.nbytes, ACL_MEMCPY_HOST_TO_DEVICE),
                "aclrtMemcpy",
            )
            check(acl.mdl.add_dataset_buffer(datasets[0], acl.create_data_buffer(ptr, x.nbytes))[1], "add buffer")
            check(acl.mdl.set_dataset_tensor_desc(datasets[0], shape, k)[1], "aclmdlSetDatasetTensorDesc")
        for _ in range(3):  # (nullptr, 0): the runtime allocates each output
            check(acl.mdl.add_dataset_buffer(datasets[1], acl.create_data_buffer(0, 0))[1], "add buffer")
        if run % 2:  # every other run queued on a stream
            check(acl.mdl.execute_async(model_id, datasets[0], datasets[1], stream), "aclmdlExecuteAsync")
            check(acl.rt.synchronize_stream(stream), "aclrtSynchronizeStream")
        else:
            check(acl.mdl.execute(model_id, datasets[0], datasets[1]), "aclmdlExecute")
        b = (((xs[0] + xs[1]) + xs[2]) + xs[0]) * np.float32(scale)
        for j, want in enumerate([b * xs[1] + xs[2], b, b * xs[1]]):
            out_desc = acl.mdl.get_dataset_tensor_desc(datasets[1], j)
            dim, ret = acl.get_tensor_desc_dim_v2(out_desc, 0)
            buffer = acl.mdl.get_dataset_buffer(datasets[1], j)
            got = np.empty(n, dtype=np.float32)
            check(
                acl.rt.memcpy(
                    acl.util.numpy_to_ptr(got),
                    got.nbytes,
                    acl.get_data_buffer_addr(buffer),
                    got.nbytes,
                    ACL_MEMCPY_DEVICE_TO_HOST,
                ),
                "aclrtMemcpy",
            )
            pointers.append(acl.get_data_buffer_addr(buffer))
            ok &= ret == 0 and dim == n and np.array_equal(got, want)
        print(f"PYACL_DYNAMIC size={n} {'async ' if run % 2 else ''}{'PASS' if ok else 'FAIL'}", flush=True)
        acl.destroy_tensor_desc(shape)
        for ptr in pointers:
            acl.rt.free(ptr)
        for dataset in datasets:
            for i in range(acl.mdl.get_dataset_num_buffers(dataset)):
                acl.destroy_data_buffer(acl.mdl.get_dataset_buffer(dataset, i))
            acl.mdl.destroy_dataset(dataset)
    check(acl.mdl.unload(model_id), "aclmdlUnload")
    check(acl.rt.destroy_stream(stream), "aclrtDestroyStream")
    return 0 if ok else 1


if __name__ == "__main__":
    if sys.argv[1] == "air":
        write_airs(Path(sys.argv[2]))
    elif sys.argv[1] == "pyrun":
        sys.exit(run_dynamic_om(sys.argv[2], float(sys.argv[3]), int(sys.argv[4]), [int(n) for n in sys.argv[5:]]))
    else:
        sys.exit(run_om(sys.argv[2], int(sys.argv[3]), int(sys.argv[4])))
