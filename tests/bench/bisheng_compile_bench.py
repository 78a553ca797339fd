#!/usr/bin/env python3
"""bisheng compile-time benchmark: one `bisheng -c` per kernel, per configuration, all measured
in the same run (medians of --runs), with the per-phase breakdown of `bisheng --time`.

Configurations:
  baseline   the driver and twin headers of --baseline (default `main`), from `git archive`
             into a temp dir (skipped when the revision is not in the repository)
  no PCH     this tree, BISHENG_PCH_CACHE=off (the Ascend C prefix given to clang as text)
  PCH cold   this tree, an empty PCH cache each run (the first compile builds the PCHs)
  PCH warm   this tree, the PCH cache filled by an earlier compile (the common case)

    python3 tests/bench/bisheng_compile_bench.py [--runs 3] [--baseline main] [--arch dav-2201]

With --prefix TREE (an installed tree: `bazel run //twin:install -- TREE`; repeat --prefix to
measure several trees, e.g. before and after a change, in the same loop) it measures whole
programs instead (whole_program.py): `bisheng -x asc prog.asc -o prog` of an asc-devkit sample
(--devkit, skipped when absent) and of tests/asc_programs/programs/vadd_chevron.asc, warm and
after an edit, against `clang++-16 -O2 -c` of the host part (host_part.py), per phase.

Prints tables; asserts nothing.
"""

import argparse
import json
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

WORKSPACE = Path(__file__).resolve().parents[2]
KERNELS = [
    ("add_custom (operator kernel, 85 lines)", "ops/add_custom/kernel/add_custom.asc"),
    ("leaky_relu_custom (operator kernel, 144 lines)", "ops/leaky_relu_custom/kernel/leaky_relu_custom.asc"),
    ("vadd_chevron (program: main + <<<>>>, 79 lines)", "tests/asc_programs/programs/vadd_chevron.asc"),
]
# What the driver reads in the source-tree layout (tools/bisheng/bisheng -> ../../twin/...).
DRIVER_PATHS = [
    "tools/bisheng/bisheng",
    "tools/bisheng/bisheng_main.py",
    "tools/bisheng/bisheng_driver",
    "twin/asc/include",
    "twin/abi/include",
    "twin/runtime/include",
    "twin/runtime/model/include",
    "twin/runtime/launch/include",
]


def compile_once(driver: Path, source: Path, workdir: Path, arch: str, env: dict) -> tuple:
    """(wall seconds, {phase: seconds}) of one compile."""
    out = workdir / "k.o"
    cmd = [str(driver), "-c", str(source), "-o", str(out), f"--npu-arch={arch}", "-I", str(source.parent)]
    timed = cmd + ["--time"]
    start = time.monotonic()
    proc = subprocess.run(timed, cwd=workdir, env=env, capture_output=True, text=True)
    wall = time.monotonic() - start
    if proc.returncode != 0 and "unsupported option '--time'" in proc.stderr:  # a driver before --time
        start = time.monotonic()
        proc = subprocess.run(cmd, cwd=workdir, env=env, capture_output=True, text=True)
        wall = time.monotonic() - start
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed:\n{proc.stderr[-3000:]}")
    phases = {}
    for line in proc.stderr.splitlines():
        if line.startswith("bisheng: time: ") and not line.rstrip().endswith("share"):
            name, seconds = line[len("bisheng: time: ") :].rsplit(None, 2)[:2]
            phases[name.strip()] = float(seconds)
    return wall, phases


def baseline_tree(rev: str, into: Path) -> Path:
    known = subprocess.run(
        ["git", "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}"], cwd=WORKSPACE, capture_output=True, text=True
    )
    if known.returncode != 0:
        return None
    archive = subprocess.run(["git", "archive", rev, *DRIVER_PATHS], cwd=WORKSPACE, capture_output=True)
    if archive.returncode != 0:
        return None
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)
    return into / "tools" / "bisheng" / "bisheng"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    # 6cf8ec5: the driver before the compile-speed work (one clang pass per side, no prefix PCH)
    parser.add_argument("--baseline", default="6cf8ec5", help="git revision of the 'before' driver")
    parser.add_argument("--json-out", help="also write add_custom's medians to this JSON file (perf_table.py)")
    parser.add_argument("--arch", default="dav-2201")
    parser.add_argument(
        "--prefix",
        type=Path,
        action="append",
        help="installed tree: measure whole programs with its bisheng (repeat to compare trees in one loop)",
    )
    parser.add_argument(
        "--devkit",
        type=Path,
        default=Path("/tmp/asc-devkit"),
        help="asc-devkit checkout holding the public sample (default: /tmp/asc-devkit)",
    )
    args = parser.parse_args()
    if args.prefix:
        from whole_program import run

        run([p.resolve() for p in args.prefix], args.arch, args.runs, args.devkit)
        return

    with tempfile.TemporaryDirectory(prefix="bisheng-bench-") as tmp:
        tmp = Path(tmp)
        work, warm_cache = tmp / "work", tmp / "pch-warm"
        work.mkdir()
        warm_cache.mkdir(mode=0o700)
        base_env = {k: v for k, v in os.environ.items() if not k.startswith(("BISHENG_", "ASCEND_HOME_PATH"))}
        configs = []
        (tmp / "baseline").mkdir()
        old = baseline_tree(args.baseline, tmp / "baseline")
        if old is not None:
            configs.append(("baseline", old, lambda: dict(base_env, BISHENG_PCH_CACHE="off")))
        here = WORKSPACE / "tools" / "bisheng" / "bisheng"
        configs.append(("no PCH", here, lambda: dict(base_env, BISHENG_PCH_CACHE="off")))

        def cold_env() -> dict:
            cold = Path(tempfile.mkdtemp(prefix="pch-cold-", dir=tmp))
            cold.chmod(0o700)
            return dict(base_env, BISHENG_PCH_CACHE=str(cold))

        configs.append(("PCH cold", here, cold_env))
        configs.append(("PCH warm", here, lambda: dict(base_env, BISHENG_PCH_CACHE=str(warm_cache))))

        results = {}  # (kernel, config) -> (median wall, phases of the median run)
        for label, rel in KERNELS:
            source = WORKSPACE / rel
            compile_once(here, source, work, args.arch, dict(base_env, BISHENG_PCH_CACHE=str(warm_cache)))  # fill
            for name, driver, env_of in configs:
                runs = sorted(
                    (compile_once(driver, source, work, args.arch, env_of()) for _ in range(args.runs)),
                    key=lambda r: r[0],
                )
                results[(label, name)] = runs[len(runs) // 2]

        names = [c[0] for c in configs]
        ref = "baseline" if "baseline" in names else "no PCH"
        width = max(len(k) for k, _ in KERNELS)
        print(
            f"\nbisheng -c, median of {args.runs} runs (seconds; ratio = time / {ref}; machine: "
            f"{os.cpu_count()} CPUs, load {os.getloadavg()[0]:.2f})\n"
        )
        print(f"| {'kernel':<{width}} | " + " | ".join(f"{n:>10}" for n in names) + " | warm/" + ref + " |")
        print(f"|{'-' * (width + 2)}|" + "|".join("-" * 12 for _ in names) + "|" + "-" * (len(ref) + 8) + "|")
        for label, _ in KERNELS:
            row = [results[(label, n)][0] for n in names]
            ratio = results[(label, "PCH warm")][0] / results[(label, ref)][0]
            print(f"| {label:<{width}} | " + " | ".join(f"{v:10.3f}" for v in row) + f" | {ratio:{len(ref) + 6}.2f} |")

        label = KERNELS[0][0]
        phase_names = []
        for n in names:
            phase_names += [p for p in results[(label, n)][1] if p not in phase_names]
        if phase_names:
            print(f"\nphases of {label} (bisheng --time, the median run of each configuration)\n")
            pw = max(len(p) for p in phase_names)
            print(f"| {'phase':<{pw}} | " + " | ".join(f"{n:>10}" for n in names) + " |")
            print(f"|{'-' * (pw + 2)}|" + "|".join("-" * 12 for _ in names) + "|")
            for p in phase_names:
                cells = [results[(label, n)][1].get(p) for n in names]
                print(
                    f"| {p:<{pw}} | "
                    + " | ".join(f"{c:10.3f}" if c is not None else f"{'-':>10}" for c in cells)
                    + " |"
                )
        shutil.rmtree(work, ignore_errors=True)
        if args.json_out:
            medians = {n: results[(label, n)][0] for n in names}
            summary = {
                "kernel": KERNELS[0][1],
                "lines": len((WORKSPACE / KERNELS[0][1]).read_text().splitlines()),
                "cold_s": medians["PCH warm"],
                "first_s": medians["PCH cold"],
                "baseline_s": medians.get("baseline"),
            }
            tmp_out = Path(args.json_out + ".tmp")
            tmp_out.write_text(json.dumps(summary, indent=1))
            tmp_out.replace(args.json_out)


if __name__ == "__main__":
    main()
