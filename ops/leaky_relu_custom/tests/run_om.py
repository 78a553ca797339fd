#!/usr/bin/env python3
"""run_om.py MODEL.om N16 N32 SLOPE SEED: runs the offline model with pyACL (no GE, no plugin)
the way a CANN pyACL program does, on random float16/float32 inputs, and compares both outputs with
numpy (float32 exactly, float16 within FP16_ATOL + FP16_RTOL * |ref|). Prints
LEAKY_RELU_OFFLINE_OM=PASS when both match."""

import sys

import numpy as np

import acl

# pyACL takes CANN's enum values as ints (as CANN's samples define them).
ACL_MEM_MALLOC_NORMAL_ONLY = 2
ACL_MEMCPY_HOST_TO_DEVICE = 1
ACL_MEMCPY_DEVICE_TO_HOST = 2
FP16_RTOL = 1e-3  # one float16 ulp is 2^-10 ~ 9.8e-4 of the value
FP16_ATOL = 1e-6


def check(ret, what: str) -> None:
    if ret != 0:
        raise SystemExit(f"run_om: {what} failed, error code {ret}: {acl.get_recent_err_msg()}")


def reference(x: np.ndarray, slope: float) -> np.ndarray:
    wide = x.astype(np.float32)
    return np.where(wide >= 0, wide, wide * np.float32(slope)).astype(x.dtype)


def execute(model_id: int, inputs, output_types):
    """Copies `inputs` to the device, executes, returns the outputs as numpy arrays."""
    buffers = []
    datasets = [acl.mdl.create_dataset(), acl.mdl.create_dataset()]
    try:
        for which, arrays in ((0, inputs), (1, [np.empty_like(a, dtype=t) for a, t in zip(inputs, output_types)])):
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
        outputs = [array for _, array in buffers[len(inputs) :]]
        for ptr, array in buffers[len(inputs) :]:
            check(
                acl.rt.memcpy(acl.util.numpy_to_ptr(array), array.nbytes, ptr, array.nbytes, ACL_MEMCPY_DEVICE_TO_HOST),
                "aclrtMemcpy D2H",
            )
        return outputs
    finally:
        for dataset in datasets:
            for i in range(acl.mdl.get_dataset_num_buffers(dataset)):
                acl.destroy_data_buffer(acl.mdl.get_dataset_buffer(dataset, i))
            acl.mdl.destroy_dataset(dataset)
        for ptr, _ in buffers:
            acl.rt.free(ptr)


def main(argv) -> int:
    if len(argv) != 6:
        print("usage: run_om.py MODEL.om N16 N32 SLOPE SEED", file=sys.stderr)
        return 2
    om, n16, n32, slope, seed = argv[1], int(argv[2]), int(argv[3]), float(argv[4]), int(argv[5])
    print(f"seed={seed} model={om} n16={n16} n32={n32} negative_slope={slope}", flush=True)
    rng = np.random.default_rng(seed)
    x16 = rng.uniform(-60.0, 60.0, n16).astype(np.float16)
    x32 = rng.uniform(-60.0, 60.0, n32).astype(np.float32)
    check(acl.init(), "aclInit")
    check(acl.rt.set_device(0), "aclrtSetDevice")
    model_id, ret = acl.mdl.load_from_file(om)
    check(ret, "aclmdlLoadFromFile")
    try:
        y16, y32 = execute(model_id, [x16, x32], [np.float16, np.float32])
    finally:
        acl.mdl.unload(model_id)
        acl.rt.reset_device(0)
        acl.finalize()
    ok = True
    e16, e32 = reference(x16, slope), reference(x32, slope)
    err = np.abs(y16.astype(np.float32) - e16.astype(np.float32))
    for name, bad in (
        ("float16", np.flatnonzero(err > FP16_ATOL + FP16_RTOL * np.abs(e16.astype(np.float32)))),
        ("float32", np.flatnonzero(y32 != e32)),
    ):
        x, y, e = (x16, y16, e16) if name == "float16" else (x32, y32, e32)
        if len(bad):
            i = bad[0]
            print(f"{name}: MISMATCH at {i} of {len(bad)}: x={x[i]} y={y[i]} expected={e[i]}", flush=True)
            ok = False
        else:
            print(
                f"{name}: y == leaky_relu(x, {slope}) ({len(x)} elements, {int(np.count_nonzero(y == e))} bit-exact)",
                flush=True,
            )
    print(f"LEAKY_RELU_OFFLINE_OM={'PASS' if ok else 'FAIL'}", flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
