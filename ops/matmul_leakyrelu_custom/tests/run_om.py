#!/usr/bin/env python3
"""run_om.py MODEL.om M N K SLOPE SEED: runs the offline model with pyACL (no GE, no plugin) as a
CANN pyACL program does, on random inputs, and compares c with numpy (float64 a @ b + bias, then
LeakyRelu; tolerance sqrt(K) * 1e-5 * max|c|, the fp32 accumulation's). Prints
MATMUL_LEAKYRELU_OFFLINE_OM=PASS when it matches."""

import sys

import numpy as np

import acl

ACL_MEM_MALLOC_NORMAL_ONLY = 2
ACL_MEMCPY_HOST_TO_DEVICE = 1
ACL_MEMCPY_DEVICE_TO_HOST = 2


def check(ret, what: str) -> None:
    if ret != 0:
        raise SystemExit(f"run_om: {what} failed, error code {ret}: {acl.get_recent_err_msg()}")


def execute(model_id: int, inputs, output):
    buffers = []
    datasets = [acl.mdl.create_dataset(), acl.mdl.create_dataset()]
    try:
        for which, arrays in ((0, inputs), (1, [output])):
            for array in arrays:
                ptr, ret = acl.rt.malloc(array.nbytes, ACL_MEM_MALLOC_NORMAL_ONLY)
                check(ret, "aclrtMalloc")
                buffers.append((ptr, array))
                if which == 0:
                    check(
                        acl.rt.memcpy(
                            ptr, array.nbytes, acl.util.numpy_to_ptr(array), array.nbytes, ACL_MEMCPY_HOST_TO_DEVICE
                        ),
                        "aclrtMemcpy H2D",
                    )
                _, ret = acl.mdl.add_dataset_buffer(datasets[which], acl.create_data_buffer(ptr, array.nbytes))
                check(ret, "aclmdlAddDatasetBuffer")
        check(acl.mdl.execute(model_id, datasets[0], datasets[1]), "aclmdlExecute")
        ptr, array = buffers[-1]
        check(
            acl.rt.memcpy(acl.util.numpy_to_ptr(array), array.nbytes, ptr, array.nbytes, ACL_MEMCPY_DEVICE_TO_HOST),
            "aclrtMemcpy D2H",
        )
        return array
    finally:
        for dataset in datasets:
            for i in range(acl.mdl.get_dataset_num_buffers(dataset)):
                acl.destroy_data_buffer(acl.mdl.get_dataset_buffer(dataset, i))
            acl.mdl.destroy_dataset(dataset)
        for ptr, _ in buffers:
            acl.rt.free(ptr)


def main(argv) -> int:
    if len(argv) != 7:
        print("usage: run_om.py MODEL.om M N K SLOPE SEED", file=sys.stderr)
        return 2
    om, m, n, k, slope, seed = argv[1], int(argv[2]), int(argv[3]), int(argv[4]), float(argv[5]), int(argv[6])
    print(f"seed={seed} model={om} M={m} N={n} K={k} negative_slope={slope}", flush=True)
    rng = np.random.default_rng(seed)
    a = rng.uniform(-1, 1, (m, k)).astype(np.float16)
    b = rng.uniform(-1, 1, (k, n)).astype(np.float16)
    bias = rng.uniform(-1, 1, n).astype(np.float32)
    check(acl.init(), "aclInit")
    check(acl.rt.set_device(0), "aclrtSetDevice")
    model_id, ret = acl.mdl.load_from_file(om)
    check(ret, "aclmdlLoadFromFile")
    try:
        c = execute(model_id, [a, b, bias], np.zeros((m, n), np.float32))
    finally:
        acl.mdl.unload(model_id)
        acl.rt.reset_device(0)
        acl.finalize()
    y = a.astype(np.float64) @ b.astype(np.float64) + bias
    want = np.where(y >= 0, y, y * slope)
    tol = np.sqrt(k) * 1e-5 * max(1.0, float(np.abs(want).max()))
    err = float(np.abs(c - want).max())
    ok = err <= tol
    print(f"c {'==' if ok else '!='} leaky_relu(a @ b + bias) (max error {err:.2e}, tolerance {tol:.2e})", flush=True)
    print(f"MATMUL_LEAKYRELU_OFFLINE_OM={'PASS' if ok else 'FAIL'}", flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
