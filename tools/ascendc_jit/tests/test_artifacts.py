"""KernelArtifacts: one build per key, a new SoC/arch drops the old target's artifacts, a miss in
declare_launch_args is a clear error, and concurrent compiles of one key build once."""

import threading

import pytest

from ascendc_jit import KernelArtifacts


def test_builds_once_per_key_and_target():
    made = []
    kernels = KernelArtifacts("MyOp")

    def make(soc, arch):
        made.append((soc, arch))
        return f"{soc}/{arch}/{len(made)}".encode()

    assert kernels.build(("Ascend910B1", "2201"), ((8,), "DT_FLOAT"), make) is True
    assert kernels.build(("Ascend910B1", "2201"), ((8,), "DT_FLOAT"), make) is False
    assert kernels.build(("Ascend910B1", "2201"), ((16,), "DT_FLOAT"), make) is True
    assert made == [("Ascend910B1", "2201")] * 2
    assert kernels.get(((8,), "DT_FLOAT")) == b"Ascend910B1/2201/1"
    assert len(kernels) == 2 and kernels.target == ("Ascend910B1", "2201")


def test_a_new_target_drops_every_artifact_of_the_old_one():
    kernels = KernelArtifacts("MyOp")
    kernels.build(("Ascend910B1", "2201"), "a", lambda soc, arch: b"910")
    kernels.build(("Ascend910B1", "2201"), "b", lambda soc, arch: b"910")
    kernels.build(("Ascend310P3", "2002"), "a", lambda soc, arch: b"310")
    assert kernels.keys() == ["a"] and kernels.get("a") == b"310"
    with pytest.raises(RuntimeError) as info:
        kernels.get("b", "shape [4] dtype DT_FLOAT")
    assert str(info.value) == (
        "MyOp: no kernel compiled for shape [4] dtype DT_FLOAT (Ascend310P3, dav-2002); "
        "compile() must run for these shapes first (declare_launch_args never compiles)"
    )


def test_a_failed_build_stores_nothing():
    kernels = KernelArtifacts("MyOp")

    def broken(soc, arch):
        raise ValueError("bisheng failed")

    with pytest.raises(ValueError):
        kernels.build(("Ascend910B1", "2201"), "a", broken)
    assert kernels.keys() == []
    assert kernels.build(("Ascend910B1", "2201"), "a", lambda soc, arch: b"ok") is True


def test_concurrent_compiles_of_one_key_build_once():
    kernels = KernelArtifacts("MyOp")
    calls = []
    gate = threading.Barrier(8)

    def make(soc, arch):
        calls.append(threading.get_ident())
        return b"k"

    def worker():
        gate.wait()
        kernels.build(("Ascend910B1", "2201"), "same", make)

    threads = [threading.Thread(target=worker) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(calls) == 1 and kernels.get("same") == b"k"
