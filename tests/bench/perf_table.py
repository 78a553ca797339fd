#!/usr/bin/env python3
"""The performance table: every goal of the project's benchmarks in one view, each ratio taken
from measurements of the same run (tools/bench.sh runs the benchmarks, then this).

    python3 tests/bench/perf_table.py --online online.json --offline offline.json \\
        --runtime runtime.json --compile compile.json

Each file is what one benchmark wrote with --json-out; a missing file leaves its rows out (and
says so). Prints a Markdown table; asserts nothing.
"""

import argparse
import json
import os
from pathlib import Path
from typing import Callable, List, Optional, Tuple

Row = Tuple[str, str, str, Optional[bool]]  # measure, measured, goal, met


def _load(path: Optional[str]) -> Optional[dict]:
    if not path or not Path(path).is_file():
        return None
    return json.loads(Path(path).read_text())


def _label(n: int) -> str:
    return f"{n >> 20}M" if n >= 1 << 20 and n % (1 << 20) == 0 else f"{n >> 10}K" if n % 1024 == 0 else str(n)


def online_rows(data: dict) -> List[Row]:
    rows = []
    for r in data["run_graph"]:
        ratio = r["ge_us"] / r["ort_us"]
        pages = ""
        if r["n"] >= 1 << 20 and "huge_ort_out" in r:  # page size, a suspect at this size (see the bench)
            pages = (
                f"; on 2 MiB pages: ONNX Runtime's output {r['huge_ort_out']:.0%}, run_graph's {r['huge_ge_out']:.0%}"
            )
        rows.append(
            (
                f"run_graph / ONNX Runtime, add, {_label(r['n'])} floats",
                f"{ratio:.2f} ({r['ge_us']:.1f} / {r['ort_us']:.1f} us{pages})",
                "<= 1.0",
                ratio <= 1.0,
            )
        )
    largest = max(data["run_graph"], key=lambda r: r["n"])
    ratio = largest["ge_us"] / largest["np_us"]
    rows.append(
        (
            f"run_graph / numpy add, {_label(largest['n'])} floats",
            f"{ratio:.2f} ({largest['ge_us']:.0f} / {largest['np_us']:.0f} us)",
            "<= 1.0",
            ratio <= 1.0,
        )
    )
    cold = data["compile_cold_us"] / 1e6
    rows.append(("cold compile() of AddCustom (empty kernel cache)", f"{cold:.2f} s", "<= 1.5 s", cold <= 1.5))
    if "compile_first_us" in data:
        rows.append(
            (
                "the same, first compile on the machine (builds the prefix PCH)",
                f"{data['compile_first_us'] / 1e6:.2f} s",
                "(no goal)",
                None,
            )
        )
    return rows


def offline_rows(data: dict) -> List[Row]:
    rows = [
        (
            "atc, AIR -> OM, cold kernel cache",
            f"{data['atc_cold_s']:.2f} s (warm: {data['atc_warm_s']:.2f} s)",
            "<= 1.5 s",
            data["atc_cold_s"] <= 1.5,
        )
    ]
    if "atc_first_s" in data:
        rows.append(
            (
                "the same, first atc on the machine (builds the prefix PCH)",
                f"{data['atc_first_s']:.2f} s",
                "(no goal)",
                None,
            )
        )
    for om in data["om"]:
        if om["elements"] >= 1 << 20:
            rows.append(
                _speed_row(
                    f"aclmdlExecute {_label(om['elements'])} / C add (speed)",
                    om["exec_us"],
                    om["c_add_us"],
                    om.get("paired_speed"),
                )
            )
    return rows


def _speed_row(measure: str, ours_us: float, c_us: float, paired: Optional[float]) -> Row:
    """A speed ratio against the C add. With a paired ratio (the median over back-to-back pairs of
    runs, which sees the load of other processes on both sides alike) the goal is judged on it;
    the ratio of the two medians is shown beside it."""
    medians = c_us / ours_us
    if paired is None:
        return measure, f"{medians:.2f} ({ours_us:.0f} vs {c_us:.0f} us)", ">= 0.9", medians >= 0.9
    return (
        measure,
        f"{paired:.2f} paired; {medians:.2f} from the medians ({ours_us:.0f} vs {c_us:.0f} us)",
        ">= 0.9",
        paired >= 0.9,
    )


def runtime_rows(data: dict) -> List[Row]:
    rows = []
    for blocks, launch in sorted(data["launch"].items(), key=lambda kv: int(kv[0])):
        ratio = launch["after_idle_us"] / launch["back_to_back_us"]
        rows.append(
            (
                f"launch + synchronize after 1 ms idle / back to back, {blocks} block(s)",
                f"{ratio:.2f} ({launch['after_idle_us']:.1f} / {launch['back_to_back_us']:.2f} us)",
                "<= 2",
                ratio <= 2.0,
            )
        )
    tile = f", {data['tile_floats']}-float tiles" if "tile_floats" in data else ""
    for r in data["add"]:
        if r["n"] >= 32 << 20:
            rows.append(
                _speed_row(
                    f"AddCustom kernel {_label(r['n'])} / C add (speed{tile})",
                    r["kernel_us"],
                    r["c_us"],
                    r.get("paired_speed"),
                )
            )
    return rows


def compile_rows(data: dict) -> List[Row]:
    """Cold = an empty kernel cache; the Ascend C prefix PCH is built once per machine and flag
    set (the "first" row), then shared by every kernel's cold compile."""
    seconds, first, before = data["cold_s"], data["first_s"], data.get("baseline_s")
    speedup = f", {before / seconds:.1f}x faster than before the PCH work ({before:.2f} s)" if before else ""
    lines = data.get("lines", 100)
    return [
        (f"cold bisheng compile of a {lines}-line kernel", f"{seconds:.2f} s{speedup}", "<= 1.0 s", seconds <= 1.0),
        ("the same, first compile on the machine (builds the prefix PCH)", f"{first:.2f} s", "(no goal)", None),
    ]


SOURCES: List[Tuple[str, str, Callable[[dict], List[Row]]]] = [
    ("online", "bazel run -c opt //ops/add_custom:bench_add_custom", online_rows),
    ("offline", "bazel run -c opt //offline/bench:offline_bench", offline_rows),
    ("runtime", "bazel run -c opt //twin/runtime/bench:add_bench", runtime_rows),
    ("compile", "python3 tests/bench/bisheng_compile_bench.py", compile_rows),
]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for name, _, _ in SOURCES:
        parser.add_argument(f"--{name}", help=f"the {name} benchmark's --json-out file")
    args = parser.parse_args(argv)
    rows: List[Row] = []
    missing = []
    for name, command, make_rows in SOURCES:
        data = _load(getattr(args, name))
        if data is None:
            missing.append(f"{name} ({command})")
            continue
        rows.extend(make_rows(data))
    load = os.getloadavg()[0]
    print(f"Performance goals, {os.cpu_count()} CPUs, load average {load:.2f} at the end of the run\n")
    print("| measure | measured | goal | met |")
    print("|---|---:|---|---|")
    for measure, measured, goal, met in rows:
        verdict = "-" if met is None else "yes" if met else "**no**"
        print(f"| {measure} | {measured} | {goal} | {verdict} |")
    if missing:
        print(f"\nnot measured: {', '.join(missing)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
