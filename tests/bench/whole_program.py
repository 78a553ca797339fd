"""Whole-program compile time of the installed bisheng against clang++-16 -O2 -c of the host part
(bisheng_compile_bench.py --prefix). Everything runs in the environment a CANN user has after
`source set_env.sh` in a clean shell (plus XDG_CACHE_HOME pointing at a fresh cache of the
bench's own, so the first compile really fills it).

Per program and run, in one loop (so the load they see is the same):
  warm   `bisheng -x asc prog.asc -o prog --npu-arch=...` of the unchanged file (PCH and the
         other caches filled by an earlier compile: the second and later runs)
  edit   the same after an edit of the host code (a new line at the end of the file each run:
         nothing keyed by the file's content can be reused)
  host   `clang++-16 -O2 -c` of the program's host part (host_part.py)
"""

import os
import shutil
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from host_part import host_part

WORKSPACE = Path(__file__).resolve().parents[2]
DEVKIT_ADD = "examples/01_simd_cpp_api/00_introduction/01_add/add_tpipe_tque"
PROGRAMS = [
    # (label, source, headers beside it)
    ("add_tpipe_tque (asc-devkit 01_add)", ("devkit", f"{DEVKIT_ADD}/add_tpipe_tque.asc"), ["data_utils.h"]),
    ("vadd_chevron (tests/asc_programs)", ("repo", "tests/asc_programs/programs/vadd_chevron.asc"), ["host_io.h"]),
]


def user_env(prefix: Path, cache: Path) -> dict:
    """The environment of a clean shell after `source set_env.sh`."""
    script = f"source {prefix}/set_env.sh && env -0"
    out = subprocess.run(
        ["env", "-i", f"HOME={os.environ.get('HOME', '/root')}", "PATH=/usr/bin:/bin", "bash", "-c", script],
        capture_output=True,
        check=True,
    ).stdout
    env = dict(item.split("=", 1) for item in out.decode().split("\0") if "=" in item)
    env["XDG_CACHE_HOME"] = str(cache)
    return env


def _timed(cmd: list, cwd: Path, env: dict) -> tuple:
    start = time.monotonic()
    proc = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    wall = time.monotonic() - start
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed:\n{proc.stderr[-3000:]}")
    return wall, proc.stderr


def _phases(stderr: str) -> dict:
    phases = {}
    for line in stderr.splitlines():
        if line.startswith("bisheng: time: ") and not line.rstrip().endswith("share"):
            name, seconds = line[len("bisheng: time: ") :].rsplit(None, 2)[:2]
            phases[name.strip()] = float(seconds)
    return phases


def _setup(where: Path, source: Path, headers: list) -> Path:
    where.mkdir(parents=True)
    for name in [source.name] + headers:
        shutil.copy(source.parent / name, where / name)
    return where / source.name


def measure(label: str, source: Path, headers: list, trees: list, tmp: Path, arch: str, runs: int) -> list:
    """trees: [(name, env)]; every tree is measured in the same loop as the host part."""
    host_dir = _setup(tmp / "host", source, headers)
    host_cpp = host_dir.parent / "host_part.cpp"
    host_cpp.write_text(host_part(host_dir.read_text()))
    clang = [
        "clang++-16",
        "-O2",
        "-c",
        host_cpp.name,
        "-o",
        "host_part.o",
        "-I",
        ".",
        "-I",
        os.path.join(trees[0][1]["ASCEND_HOME_PATH"], "include"),
    ]
    bisheng = ["bisheng", "-x", "asc", source.name, "-o", "prog", f"--npu-arch={arch}", "--time"]
    dirs = {}
    for name, env in trees:
        warm_src = _setup(tmp / name / "warm", source, headers)
        edit_src = _setup(tmp / name / "edit", source, headers)
        _timed(bisheng, warm_src.parent, env)  # fills the caches (PCH, ...) for this flag set
        _timed(bisheng, edit_src.parent, env)
        dirs[name] = (warm_src, edit_src)
    original = source.read_text()
    samples = {(name, kind): [] for name, _ in trees for kind in ("warm", "edit")}
    host = []
    for i in range(runs):
        for name, env in trees:
            warm_src, edit_src = dirs[name]
            samples[(name, "warm")].append(_timed(bisheng, warm_src.parent, env))
            edit_src.write_text(original + f"\nint bisheng_bench_edit_{i}() {{ return {i}; }}\n")
            samples[(name, "edit")].append(_timed(bisheng, edit_src.parent, env))
        host.append(_timed(clang, host_cpp.parent, trees[0][1])[0])
    out = []
    for name, _ in trees:
        row = {"label": label, "tree": name, "host": statistics.median(host)}
        for kind in ("warm", "edit"):
            rows = samples[(name, kind)]
            row[kind] = statistics.median(w for w, _ in rows)
            phase_rows = [_phases(err) for _, err in rows]
            names = list(dict.fromkeys(p for r in phase_rows for p in r))
            row[kind + "_phases"] = {p: statistics.median(r.get(p, 0.0) for r in phase_rows) for p in names}
        out.append(row)
    return out


def run(prefixes: list, arch: str, runs: int, devkit: Path) -> list:
    results = []
    load_start = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="bisheng-program-bench-") as tmp:
        tmp = Path(tmp)
        trees = []
        for index, prefix in enumerate(prefixes):
            cache = tmp / f"cache{index}"
            cache.mkdir(mode=0o700)
            trees.append((f"tree{index}", user_env(prefix, cache)))
        for index, (label, (origin, rel), headers) in enumerate(PROGRAMS):
            source = (devkit if origin == "devkit" else WORKSPACE) / rel
            if not source.is_file():
                print(f"skipped {label}: {source} is absent")
                continue
            results += measure(label, source, headers, trees, tmp / str(index), arch, runs)
    load_end = os.getloadavg()
    _print(results, prefixes, runs, load_start, load_end)
    return results


def _print(results: list, prefixes: list, runs: int, load_start, load_end) -> None:
    print(
        f"\nwhole program: bisheng -x asc prog.asc -o prog, installed tree, clean `source set_env.sh` "
        f"environment; medians of {runs} runs (seconds); {os.cpu_count()} CPUs, load average "
        f"{load_start[0]:.2f} at the start, {load_end[0]:.2f} at the end\n"
    )
    for index, prefix in enumerate(prefixes):
        print(f"tree{index} = {prefix}")
    print()
    width = max([len(r["label"]) for r in results] + [7])
    print(
        f"| {'program':<{width}} | tree  | bisheng warm | bisheng after edit | clang++ -O2 -c host part | "
        "warm / host | edit / host |"
    )
    print(
        f"|{'-' * (width + 2)}|-------|-------------:|-------------------:|-------------------------:|"
        "------------:|------------:|"
    )
    for r in results:
        print(
            f"| {r['label']:<{width}} | {r['tree']} | {r['warm']:12.3f} | {r['edit']:18.3f} | {r['host']:24.3f} | "
            f"{r['warm'] / r['host']:11.2f} | {r['edit'] / r['host']:11.2f} |"
        )
    for r in results:
        names = [p for p in dict.fromkeys(list(r["warm_phases"]) + list(r["edit_phases"])) if p != "total"]
        names.append("total")
        if not names:
            continue
        pw = max(len(p) for p in names)
        print(f"\nphases of {r['label']}, {r['tree']} (bisheng --time, median of each phase)\n")
        print(f"| {'phase':<{pw}} |   warm |   edit |")
        print(f"|{'-' * (pw + 2)}|-------:|-------:|")
        for p in names:
            print(f"| {p:<{pw}} | {r['warm_phases'].get(p, 0.0):6.3f} | {r['edit_phases'].get(p, 0.0):6.3f} |")
