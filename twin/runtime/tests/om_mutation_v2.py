#!/usr/bin/env python3
"""The mutation run of OMs that run through Python (format version 2; a command, not a test).

Seeds: two graphs atc would write as version-2 OMs — x[-1] + y[-1] by a kernel node then doubled
by a host-execute node (ranges [1, 64]), and x[16] doubled by the host node — compiled in this
process. Each input mutates the MODEL_DEF or the GRAPH partition of a seed in place (bit flips,
set bytes, copied runs; the length kept) and writes that partition's SHA-256 anew, so the
container's checks pass and the mutant reaches the model's own parsing: the runtime's reader,
then the Python loader (AIR, op checks) and, when it loads, aclmdlExecute at a random shape in
range with runtime-allocated outputs. The host must answer every input with a code: no crash
(a summary printed at all means none), no hang (faulthandler ends the run, printing where, after
--hang_seconds). pyACL runs the models in this process's interpreter, as a pyACL program does.

    bazel run -c opt //twin/runtime/tests:om_mutation_v2 -- [--runs=100000] [--seconds=S] [--seed=N]
"""

import argparse
import faulthandler
import os
import random
import time
from collections import Counter
from pathlib import Path

import numpy as np

ACL_FLOAT, ACL_FORMAT_ND, ACL_MEM_MALLOC_NORMAL_ONLY, H2D, D2H = 0, 2, 2, 1, 2
RANGE = (1, 64)
STATIC_SIZE = 16
INTERESTING = (0x00, 0x01, 0x7F, 0x80, 0xFF)


def _seeds():
    """(name, om bytes, takes two inputs, static size or None) of the two seed models."""
    from ge._compiler import compile_graph
    from ge.es.graph_builder import GraphBuilder

    def node(builder, op_type, inputs):
        return builder._add_op_node(op_type, inputs=inputs, attrs=[], outputs=[("y", "required", 1)])[0][0]

    builder = GraphBuilder("mutation_dynamic")
    x, y = builder.create_input(0, name="x", shape=[-1]), builder.create_input(1, name="y", shape=[-1])
    total = node(builder, "MutAdd", [("x1", "required", x), ("x2", "required", y)])
    dynamic = builder.build_and_reset([node(builder, "MutScale", [("x", "required", total)])])
    builder = GraphBuilder("mutation_static")
    x = builder.create_input(0, name="x", shape=[STATIC_SIZE])
    static = builder.build_and_reset([node(builder, "MutScale", [("x", "required", x)])])
    options = {"ge.socVersion": "Ascend910B1"}
    return [
        (
            "dynamic",
            compile_graph(dynamic._ir, options, mode="offline", input_ranges={"x": [RANGE], "y": [RANGE]}).om,
            2,
            None,
        ),
        ("static", compile_graph(static._ir, options, mode="offline").om, 1, STATIC_SIZE),
    ]


def _partitions(om_bytes: bytes):
    """(entry offset, data offset, size, kind) of each partition of a container."""
    from twin.om import om

    header = om._HEADER.unpack_from(om_bytes, 0)
    count = header[3]
    found = []
    for i in range(count):
        at = om.HEADER_SIZE + i * om.PARTITION_ENTRY_SIZE
        kind, _, offset, size, _ = om._ENTRY.unpack_from(om_bytes, at)
        found.append((at, offset, size, kind))
    return found


def _mutate(data: bytearray, begin: int, size: int, rng: random.Random) -> None:
    for _ in range(rng.randint(1, 4)):
        at = begin + rng.randrange(size)
        choice = rng.randrange(3)
        if choice == 0:
            data[at] ^= 1 << rng.randrange(8)
        elif choice == 1:
            data[at] = rng.choice(INTERESTING) if rng.random() < 0.5 else rng.randrange(256)
        else:
            length = rng.randint(1, min(16, size))
            src = begin + rng.randrange(size - length + 1)
            dst = begin + rng.randrange(size - length + 1)
            data[dst : dst + length] = bytes(data[src : src + length])


def _mutant(seed_bytes: bytes, targets, rng: random.Random) -> bytes:
    from twin.om import om

    data = bytearray(seed_bytes)
    _, offset, size, _ = rng.choice(targets)
    _mutate(data, offset, size, rng)
    om.seal(data)  # checksums written anew: the container stays valid, its content is the mutant
    return bytes(data)


class _Runner:
    """Loads, executes and unloads one container; returns the ACL code of the first failure."""

    def __init__(self, acl) -> None:
        self.acl = acl

    def run(self, om_bytes: bytes, inputs: int, size: int, rng: random.Random, check=None) -> int:
        acl = self.acl
        model_id, code = acl.mdl.load_from_mem(acl.util.bytes_to_ptr(om_bytes), len(om_bytes))
        if code != 0:
            return code
        owned, datasets = [], [acl.mdl.create_dataset(), acl.mdl.create_dataset()]
        shape = acl.create_tensor_desc(ACL_FLOAT, [size], ACL_FORMAT_ND)
        try:
            xs = [np.float32(rng.uniform(-8, 8)) + np.arange(size, dtype=np.float32) for _ in range(inputs)]
            for k, x in enumerate(xs):
                ptr, ret = acl.rt.malloc(max(x.nbytes, 1), ACL_MEM_MALLOC_NORMAL_ONLY)
                if ret != 0:
                    return ret
                owned.append(ptr)
                acl.rt.memcpy(ptr, x.nbytes, x.ctypes.data, x.nbytes, H2D)
                acl.mdl.add_dataset_buffer(datasets[0], acl.create_data_buffer(ptr, x.nbytes))
                acl.mdl.set_dataset_tensor_desc(datasets[0], shape, k)
            for _ in range(min(self._outputs(model_id), 16)):
                acl.mdl.add_dataset_buffer(datasets[1], acl.create_data_buffer(0, 0))
            code = acl.mdl.execute(model_id, datasets[0], datasets[1])
            for j in range(acl.mdl.get_dataset_num_buffers(datasets[1])):
                address = acl.get_data_buffer_addr(acl.mdl.get_dataset_buffer(datasets[1], j))
                if address:
                    owned.append(address)
            if code == 0 and check is not None:
                out = np.empty(size, dtype=np.float32)
                acl.rt.memcpy(out.ctypes.data, out.nbytes, owned[-1], out.nbytes, D2H)
                check(out, xs)
            return code
        finally:
            acl.destroy_tensor_desc(shape)
            for dataset in datasets:
                for i in range(acl.mdl.get_dataset_num_buffers(dataset)):
                    acl.destroy_data_buffer(acl.mdl.get_dataset_buffer(dataset, i))
                acl.mdl.destroy_dataset(dataset)
            for ptr in owned:
                acl.rt.free(ptr)
            unload = acl.mdl.unload(model_id)
            if unload != 0:
                raise SystemExit(f"om_mutation_v2: aclmdlUnload of a loaded model failed: {acl.get_recent_err_msg()}")

    def _outputs(self, model_id: int) -> int:
        """How many outputs the (possibly mutated) model declares."""
        acl = self.acl
        desc = acl.mdl.create_desc()
        try:
            return acl.mdl.get_num_outputs(desc) if acl.mdl.get_desc(desc, model_id) == 0 else 1
        finally:
            acl.mdl.destroy_desc(desc)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=100000)
    parser.add_argument("--seconds", type=float, default=0)
    parser.add_argument("--seed", type=int, default=random.SystemRandom().randrange(2**63))
    parser.add_argument("--hang_seconds", type=float, default=30)
    parser.add_argument("--acl_lib", required=True)
    parser.add_argument("--kernels", required=True)
    args = parser.parse_args()
    here = Path(__file__).absolute().parent
    os.environ["ASCEND_TWIN_ACL_LIB"] = str(Path(args.acl_lib).absolute())
    os.environ["MUTATION_KERNELS"] = str(Path(args.kernels).absolute())
    os.environ["ASCEND_CUSTOM_OPP_PATH"] = str(here / "om_mutation_plugin")
    import acl

    print(f"om_mutation_v2: seed {args.seed} (--seed={args.seed} reproduces), up to {args.runs} inputs", flush=True)
    rng = random.Random(args.seed)
    if acl.init() != 0 or acl.rt.set_device(0) != 0:
        raise SystemExit(f"om_mutation_v2: ACL setup: {acl.get_recent_err_msg()}")
    seeds = _seeds()
    runner = _Runner(acl)

    def check_dynamic(out, xs):
        if not np.array_equal(out, 2 * (xs[0] + xs[1])):
            raise SystemExit("om_mutation_v2: the dynamic seed computed a wrong result")

    def check_static(out, xs):
        if not np.array_equal(out, 2 * xs[0]):
            raise SystemExit("om_mutation_v2: the static seed computed a wrong result")

    for (name, om_bytes, inputs, static), check in zip(seeds, (check_dynamic, check_static)):
        code = runner.run(om_bytes, inputs, static or 37, rng, check)
        if code != 0:
            raise SystemExit(f"om_mutation_v2: seed {name} does not run: {code} {acl.get_recent_err_msg()}")
    from twin.om import om

    targets = {
        name: [p for p in _partitions(b) if p[3] in (om.PARTITION_MODEL_DEF, om.PARTITION_GRAPH)]
        for name, b, _, _ in seeds
    }
    outcomes = Counter()
    slowest, slowest_what, runs = 0.0, "", 0
    started = time.monotonic()
    for runs in range(1, args.runs + 1):
        if args.seconds and time.monotonic() - started > args.seconds:
            runs -= 1
            break
        if runs % 10000 == 0:
            print(f"[om_mutation_v2] {runs} inputs, {time.monotonic() - started:.0f} s", flush=True)
        name, om_bytes, inputs, static = seeds[rng.randrange(2)]
        mutant = _mutant(om_bytes, targets[name], rng)
        size = static or rng.randint(*RANGE)
        faulthandler.dump_traceback_later(args.hang_seconds, exit=True)  # a hang ends the run, saying where
        begin = time.monotonic()
        code = runner.run(mutant, inputs, size, rng)
        seconds = time.monotonic() - begin
        faulthandler.cancel_dump_traceback_later()
        outcomes[code] += 1
        if seconds > slowest:
            slowest, slowest_what = seconds, f"{code} {acl.get_recent_err_msg() if code else 'ran'}"
    print(f"\nom_mutation_v2 summary: {runs} inputs in {time.monotonic() - started:.0f} s (seed {args.seed})")
    print("  host crashes: 0 (this process finished every input)")
    print(f"  hangs (> {args.hang_seconds:.0f} s): 0 (a hang ends the run with a traceback)")
    print(f"  slowest input: {slowest:.2f} s ({' '.join(slowest_what.split())[:200]})")
    for code, count in sorted(outcomes.items()):
        print(f"  code {code}: {count}")
    acl.rt.reset_device(0)
    acl.finalize()


if __name__ == "__main__":
    main()
