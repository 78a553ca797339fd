"""The twin's benchmark driver: runs the C++ bench (kernel vs. C add, launch overhead), measures
numpy's add on the same sizes in the same run, and prints one merged table.

    bazel run -c opt //twin/runtime/bench:add_bench [-- --sizes=1024,... --seconds=S --tile_num=N]

Arguments other than --bench are passed to the C++ bench. Prints tables; asserts nothing.
The C++ bench runs twice in the same run: kernels in the device process (the default) and in
the host process (ASCEND_TWIN_DEVICE_ISOLATION=0, the runtime before device isolation: host
memory with huge pages, no process boundary); the last tables compare the two.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

import numpy as np

BYTES_PER_ELEM = 12.0  # read x, read y, write z


def run_cpp_bench(bench: str, passthrough: list[str], isolated: bool = True) -> list[dict]:
    env = dict(os.environ)
    env["ASCEND_TWIN_DEVICE_ISOLATION"] = "1" if isolated else "0"
    proc = subprocess.run([bench, "--json", *passthrough], stdout=subprocess.PIPE, text=True, env=env)
    if proc.returncode != 0:
        sys.exit(f"add_bench.py: {bench} exited with status {proc.returncode}")
    return [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]


def best_of(runs: list[list[dict]]) -> list[dict]:
    """Row by row, the fastest of several runs: add rows take the minimum of each median; launch
    rows are taken whole from the run with the lowest median (their CPU columns belong to it)."""
    best = [dict(r) for r in runs[0]]
    for other in runs[1:]:
        for i, (row, alt) in enumerate(zip(best, other)):
            if row["kind"] == "launch":
                if alt["median_us"] < row["median_us"]:
                    best[i] = dict(alt)
                continue
            for key in ("kernel_us", "c_us"):
                if key in row and key in alt:
                    row[key] = min(row[key], alt[key])
    # The paired ratio is no time: the median over the runs, not the best.
    for i, row in enumerate(best):
        values = [run[i]["paired_speed"] for run in runs if i < len(run) and "paired_speed" in run[i]]
        if values:
            row["paired_speed"] = statistics.median(values)
    return best


def launch_label(r: dict) -> str:
    idle = {0: "back to back", 1000: "after 1 ms idle", 10000: "after 10 ms idle"}.get(
        r["idle_us"], f"after {r['idle_us']} us idle"
    )
    return f"{r['blocks']} block{'s' if r['blocks'] > 1 else ''}, {idle}"


def numpy_add_us(n: int, seconds: float, rng: np.random.Generator) -> tuple[float, int]:
    """Median microseconds of np.add(x, y, out=z) on random float32 inputs."""
    x = rng.uniform(-100, 100, n).astype(np.float32)
    y = rng.uniform(-100, 100, n).astype(np.float32)
    z = np.empty_like(x)
    np.add(x, y, out=z)
    if not np.array_equal(z, x + y):
        sys.exit("add_bench.py: numpy's add disagrees with itself")
    spent = 0.0
    reps = 0
    while reps < 3 or spent < 0.1 * seconds:  # warm-up
        start = time.perf_counter()
        np.add(x, y, out=z)
        spent += time.perf_counter() - start
        reps += 1
    times: list[float] = []
    spent = 0.0
    while (len(times) < 5 or spent < seconds) and len(times) < 20000:
        start = time.perf_counter()
        np.add(x, y, out=z)
        elapsed = time.perf_counter() - start
        times.append(elapsed * 1e6)
        spent += elapsed
    return statistics.median(times), len(times)


def gbps(n: int, us: float) -> float:
    return BYTES_PER_ELEM * n / us / 1e3


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bench", required=True, help="path of the C++ add_bench binary")
    parser.add_argument("--seconds", type=float, default=1.0, help="measuring budget per size and contender")
    parser.add_argument(
        "--rounds",
        type=int,
        default=2,
        help="alternating runs of each mode (device process, in-process); each row keeps its best",
    )
    parser.add_argument(
        "--json-out",
        help="also write the device-process measurements to this JSON file (tests/bench/perf_table.py reads it)",
    )
    parser.add_argument(
        "--tile-cost",
        help="path of tile_cost_bench: also print one block of the kernel given "
        "by --add on one thread, against its data work alone",
    )
    args, passthrough = parser.parse_known_args()
    passthrough.append(f"--seconds={args.seconds}")

    load_before = os.getloadavg()
    runs = {True: [], False: []}
    for _ in range(max(1, args.rounds)):  # alternate, so both modes see the same machine
        for isolated in (True, False):
            runs[isolated].append(run_cpp_bench(args.bench, passthrough, isolated=isolated))
    rows = best_of(runs[True])
    in_process_rows = best_of(runs[False])
    setup = next(r for r in rows if r["kind"] == "setup")
    rng = np.random.default_rng(setup["seed"])
    adds = [r for r in rows if r["kind"] == "add"]
    for row in adds:
        row["numpy_us"], row["numpy_reps"] = numpy_add_us(row["n"], args.seconds, rng)
    load_after = os.getloadavg()

    print(
        f"SoC {setup['soc']}; add_custom: 1024 float32 a block, TQue double buffering, "
        f"2 x {setup['tile_num']} tiles of {1024 // 2 // setup['tile_num']} floats; "
        f"C add on {setup['threads']} std::threads; numpy {np.__version__} (one thread); "
        f"seed {setup['seed']}"
    )
    print(
        f"{os.cpu_count()} CPUs; load average {load_before[0]:.2f} before, {load_after[0]:.2f} after; "
        f"GB/s = 12 bytes per element / median time"
    )
    print()
    print(
        "| elements | blocks | kernel us | kernel GB/s | C GB/s | numpy GB/s "
        "| kernel/C | kernel/C paired | kernel/numpy |"
    )
    print(
        "|---------:|-------:|----------:|------------:|-------:|-----------:|---------:|----------------:|-------------:|"
    )
    for r in adds:
        k, c, npy = gbps(r["n"], r["kernel_us"]), gbps(r["n"], r["c_us"]), gbps(r["n"], r["numpy_us"])
        print(
            f"| {r['n']:>8} | {r['blocks']:>6} | {r['kernel_us']:>9.1f} | {k:>11.2f} | {c:>6.2f} | "
            f"{npy:>10.2f} | {k / c:>8.2f} | {r['paired_speed']:>15.2f} | {k / npy:>12.2f} |"
        )
    print()
    print(
        "kernel/C paired: the median, over back-to-back pairs of runs, of C add time / kernel time "
        "(each pair saw nearly the same load; kernel/C divides the two medians)."
    )
    print()
    print(
        "| launch + synchronize (empty kernel) | reps  | median us | p90 us | / back to back "
        "| host CPU us | device CPU us | polling us | sleeps | page faults |"
    )
    print(
        "|-------------------------------------|------:|----------:|-------:|---------------:|------------:|--------------:|-----------:|-------:|------------:|"
    )
    launches = [r for r in rows if r["kind"] == "launch"]
    b2b = {r["blocks"]: r["median_us"] for r in launches if r["idle_us"] == 0}
    for r in launches:
        print(
            f"| {launch_label(r):<35} | {r['reps']:>5} | {r['median_us']:>9.2f} | {r['p90_us']:>6.2f} | "
            f"{r['median_us'] / b2b[r['blocks']]:>14.2f} | {r['host_cpu_us']:>11.2f} | {r['device_cpu_us']:>13.2f} | "
            f"{r['spin_us']:>10.2f} | {r['sleeps']:>6.3f} | {r['faults']:>11.3f} |"
        )
    print()
    print(
        "CPU columns are per launch and include the idle time before it: host CPU (this process), device CPU "
        "(the device process, all threads), polling (the device dispatcher's share spent polling for the next "
        "launch), sleeps (dispatcher sleeps per launch: each costs a launch a cross-process wake-up), "
        "page faults (minor faults per launch, host and device process)."
    )

    print()
    print(
        f"Device process (default) vs in-process (ASCEND_TWIN_DEVICE_ISOLATION=0), same run, "
        f"{args.rounds} alternating runs of each, best per row:"
    )
    print()
    print(
        "| launch + synchronize (empty kernel) | device process median / p90 us "
        "| in-process median / p90 us | ratio (median) |"
    )
    print(
        "|-------------------------------------|-------------------------------:|---------------------------:|---------------:|"
    )
    other = {(r["blocks"], r["idle_us"]): r for r in in_process_rows if r["kind"] == "launch"}
    for r in launches:
        o = other.get((r["blocks"], r["idle_us"]))
        if o is None:
            continue
        print(
            f"| {launch_label(r):<35} | {r['median_us']:>14.2f} / {r['p90_us']:<13.2f} | {o['median_us']:>10.2f} / "
            f"{o['p90_us']:<13.2f} | {r['median_us'] / o['median_us']:>14.2f} |"
        )
    print()
    print(
        "| elements | kernel GB/s device process | kernel GB/s in-process | ratio "
        "| C GB/s on GM (memfd) | C GB/s on in-process GM |"
    )
    print(
        "|---------:|---------------------------:|-----------------------:|------:|---------------------:|------------------------:|"
    )
    other_adds = {r["n"]: r for r in in_process_rows if r["kind"] == "add"}
    for r in adds:
        o = other_adds.get(r["n"])
        if o is None:
            continue
        k, ko = gbps(r["n"], r["kernel_us"]), gbps(r["n"], o["kernel_us"])
        print(
            f"| {r['n']:>8} | {k:>26.2f} | {ko:>22.2f} | {k / ko:>5.2f} | {gbps(r['n'], r['c_us']):>20.2f} | "
            f"{gbps(r['n'], o['c_us']):>23.2f} |"
        )
    if args.json_out:
        write_json(args.json_out, adds, launches, 1024 // 2 // setup["tile_num"])
    if args.tile_cost:
        print_tile_cost(args.tile_cost, passthrough)


def print_tile_cost(bench: str, passthrough: list[str]) -> None:
    """The per-block rows: tile_cost_bench on the same kernel binary (no launch, one thread)."""
    kernel = next((a.split("=", 1)[1] for a in passthrough if a.startswith("--add=")), None)
    if kernel is None:
        sys.exit("add_bench.py: --tile-cost needs the kernel binary given by --add=")
    proc = subprocess.run([bench, f"--image=add_custom={kernel}"], stdout=subprocess.PIPE, text=True)
    if proc.returncode != 0:
        sys.exit(f"add_bench.py: {bench} exited with status {proc.returncode}")
    print()
    print("One block on one thread (tile_cost_bench: the entry called directly, no launch):")
    print()
    print(proc.stdout.rstrip())


def write_json(path: str, adds, launches, tile_floats: int) -> None:
    """The device-process rows the performance table uses: per block count, back to back and after
    1 ms idle; per size, kernel and C add medians (and the kernel's tile). Written to a temp file,
    then renamed."""
    after = {r["blocks"]: r["median_us"] for r in launches if r["idle_us"] == 1000}
    summary = {
        "launch": {
            str(r["blocks"]): {"back_to_back_us": r["median_us"], "after_idle_us": after[r["blocks"]]}
            for r in launches
            if r["idle_us"] == 0 and r["blocks"] in after
        },
        "add": [
            {"n": r["n"], "kernel_us": r["kernel_us"], "c_us": r["c_us"], "paired_speed": r["paired_speed"]}
            for r in adds
        ],
        "tile_floats": tile_floats,
    }
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(summary, f, indent=1)
    os.replace(tmp, path)


if __name__ == "__main__":
    main()
