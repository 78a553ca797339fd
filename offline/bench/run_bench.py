"""Offline-flow benchmark driver: atc wall time (cold / warm kernel cache), then om_bench (OM load
time, aclmdlExecute median at 1K and 16M floats) on OMs it builds. Prints one report.

    bazel run -c opt //offline/bench:offline_bench [-- --soc Ascend910B1 --atc-runs 3 --json-out F]
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SIZES = {"1K": 1024, "16M": 16 * 1024 * 1024}


def runfile(path: str) -> Path:
    return Path(path).absolute()


def atc_env(args, cache: Path) -> dict:
    """A fresh HOME and kernel cache per round; bisheng's header PCH (per machine and flag set,
    not per kernel) is shared by all rounds: main() builds it once first and reports that apart."""
    home = runfile(args.cann_home)
    return {
        "PATH": f"{home / 'bin'}:/usr/bin:/bin",
        "HOME": str(cache.parent),
        "ASCEND_HOME_PATH": str(home),
        "ASCEND_CUSTOM_OPP_PATH": f"{runfile(args.opp_root)}:{runfile(args.plugin_file).parent}",
        "ASCEND_TWIN_KERNEL_CACHE": str(cache),
        "BISHENG_PCH_CACHE": str(cache.parent.parent / "pch"),
    }


def timed_atc(args, air: Path, out: Path, cache: Path) -> float:
    cmd = [str(runfile(args.atc)), f"--model={air}", "--framework=1", f"--output={out}", f"--soc_version={args.soc}"]
    start = time.perf_counter()
    proc = subprocess.run(cmd, env=atc_env(args, cache), capture_output=True, text=True)
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit(f"atc failed ({proc.returncode}):\n{proc.stdout}{proc.stderr}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser()
    for name in ("graph_build", "atc", "om_bench", "cann_home", "opp_root", "plugin_file"):
        parser.add_argument(f"--{name}", required=True)
    parser.add_argument("--soc", default="Ascend910B1")
    parser.add_argument("--atc-runs", type=int, default=3)
    parser.add_argument("--json-out", help="also write the measurements to this JSON file")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="offline_bench.") as tmp:
        work = Path(tmp)
        oms = {}
        for label, n in SIZES.items():
            air = work / f"model_{label}.air"
            subprocess.run([str(runfile(args.graph_build)), str(air), str(n)], check=True, capture_output=True)
            oms[label] = (air, work / f"model_{label}")
        (work / "pch").mkdir(mode=0o700)
        first = timed_atc(args, oms["1K"][0], oms["1K"][1], work / "cache_first" / "kernels")
        cold, warm = [], []
        for i in range(args.atc_runs):
            cache = work / f"cache_{i}" / "kernels"  # a fresh, empty kernel cache each round
            cold.append(timed_atc(args, oms["1K"][0], oms["1K"][1], cache))
            warm.append(timed_atc(args, oms["1K"][0], oms["1K"][1], cache))
        timed_atc(args, oms["16M"][0], oms["16M"][1], work / "cache_0" / "kernels")

        print(f"offline flow benchmark, SoC {args.soc}, host {os.cpu_count()} CPUs\n")
        print("| atc (1K model, AIR -> OM)  | median s | min s |")
        print("|----------------------------|---------:|------:|")
        print(f"| first on the machine (PCH) | {first:8.3f} | {first:5.3f} |")
        print(f"| cold kernel cache          | {statistics.median(cold):8.3f} | {min(cold):5.3f} |")
        print(f"| warm kernel cache          | {statistics.median(warm):8.3f} | {min(warm):5.3f} |")
        print()
        env = {"PATH": "/usr/bin:/bin", "ASCEND_TWIN_SOC_VERSION": args.soc}
        proc = subprocess.run(
            [str(runfile(args.om_bench))] + [f"{oms[k][1]}.om" for k in SIZES], env=env, capture_output=True, text=True
        )
        if proc.returncode != 0:
            sys.exit(f"om_bench failed ({proc.returncode}): {proc.stderr}")
        marker = "OM_BENCH_JSON "
        lines = proc.stdout.splitlines()
        sys.stdout.write("".join(line + "\n" for line in lines if not line.startswith(marker)))
        if args.json_out:
            summary = {
                "soc": args.soc,
                "atc_first_s": first,
                "atc_cold_s": statistics.median(cold),
                "atc_warm_s": statistics.median(warm),
                "om": [json.loads(line[len(marker) :]) for line in lines if line.startswith(marker)],
            }
            tmp = Path(args.json_out + ".tmp")
            tmp.write_text(json.dumps(summary, indent=1))
            tmp.replace(args.json_out)


if __name__ == "__main__":
    main()
