"""A graph built with the generated C++ ES API (es_graph_build) is AIR that atc compiles to an OM."""

import os
import random
import subprocess
import sys
from pathlib import Path

import harness


def test_es_cpp_graph_compiles_with_atc():
    paths = harness.sample_paths()
    rng = random.Random(harness.new_seed())
    n = rng.choice([1024, 2048, 8192])
    work = harness.scratch_dir("es_offline")
    build = Path(os.environ["ES_GRAPH_BUILD"]).absolute()
    env = harness.clean_env(paths, extra={"PYTHON": sys.executable})  # bin/atc's interpreter
    proc = subprocess.run([str(build), str(work / "es.air"), str(n)], env=env, capture_output=True, text=True)
    print(proc.stdout, proc.stderr)
    assert proc.returncode == 0 and "ES_AIR_BUILD=PASS" in proc.stdout
    proc = subprocess.run(
        [
            str(paths.cann_home / "bin/atc"),
            f"--model={work / 'es.air'}",
            "--framework=1",
            f"--output={work / 'es'}",
            f"--soc_version={paths.soc}",
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    print(proc.stdout, proc.stderr)
    assert proc.returncode == 0, proc.stderr
    assert "ATC run success" in proc.stdout
    assert (work / "es.om").stat().st_size > 0
