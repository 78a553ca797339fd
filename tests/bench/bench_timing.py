"""Timing helpers the benchmarks share: a median of wall-clock samples and a cProfile summary.

Benchmarks re-run themselves in a clean environment that sees only the installed tree; there
they import this module from their runfiles (``//tests/bench:bench_timing`` is a dependency of
each benchmark binary): ``<runfiles root>/tests/bench`` goes first on ``sys.path``.
"""

import statistics
import time


def median_us(fn, repeats: int, warmup: int = 3) -> float:
    """Median wall-clock time of ``fn()`` in microseconds over ``repeats`` calls, after ``warmup``
    untimed calls (first calls fill caches the steady state keeps)."""
    for _ in range(warmup):
        fn()
    samples = []
    for _ in range(repeats):
        start = time.perf_counter_ns()
        fn()
        samples.append(time.perf_counter_ns() - start)
    return statistics.median(samples) / 1e3


def profile(fn, repeats: int, top: int = 12) -> str:
    """Where ``fn``'s time goes: cProfile's top functions by own time over ``repeats`` calls."""
    import cProfile
    import io
    import pstats

    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(repeats):
        fn()
    profiler.disable()
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).strip_dirs().sort_stats("tottime").print_stats(top)
    lines = out.getvalue().splitlines()
    start = next((i for i, line in enumerate(lines) if line.lstrip().startswith("ncalls")), 0)
    return "\n".join(line for line in lines[start:] if line.strip())
