"""`make -j8` runs gen_esb once per build: the wheel of add_es_library_and_whl, built ten times
from clean with -j8, always holds the whole generated package.

Regression: the generation step was emitted into three make targets, so a parallel build ran it
two or three times at once (`es_*.cpp: No such file`, `gen_esb: cannot rename ...`, or a
"successful" build whose wheel lacked es_custom_ops.py)."""

import os
import subprocess
import zipfile
from pathlib import Path

RUNFILES = Path(os.environ["RUNFILES_DIR"]) / "ascend_twin"
CANN_HOME = RUNFILES / "twin/cann_home"
PROJECT = RUNFILES / "twin/es/tests/testdata/cann_project"
BUILDS = 10
EXPECTED = {
    "es_custom/__init__.py",
    "es_custom/es_custom_ops.py",
    "es_custom/es_ConcatN.py",
    "es_custom/es_PythonCompilableAddCustom.py",
}


def shell(script: str) -> subprocess.CompletedProcess:
    env = {"PATH": "/usr/bin:/bin", "HOME": os.environ["TEST_TMPDIR"], "LANG": "C.UTF-8"}
    return subprocess.run(
        ["bash", "-c", f"set -e; source {CANN_HOME}/set_env.sh; {script}"],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        cwd=os.environ["TEST_TMPDIR"],
    )


def graph_cxx11_abi() -> int:
    symbols = subprocess.run(
        ["nm", "-D", "--defined-only", str(CANN_HOME / "lib64/libgraph.so")], capture_output=True, text=True, check=True
    ).stdout
    return 1 if "__cxx11" in symbols else 0


def test_parallel_builds_generate_once_and_package_everything(tmp_path):
    build = tmp_path / "build"
    proc = shell(f"cmake -S {PROJECT} -B {build} -DES_SAMPLE_WHEEL=ON -DGRAPH_CXX11_ABI={graph_cxx11_abi()}")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    wheel = build / "es_output/whl/es_custom-1.0.0-py3-none-any.whl"
    for attempt in range(BUILDS):
        # `clean` removes the custom commands' outputs too (every build generates anew); the
        # installed copy is not one of them, so it goes by hand: no wheel of an earlier build counts
        proc = shell(
            f"cmake --build {build} --target clean && rm -rf {build}/es_output && "
            f"cmake --build {build} --target install_es_custom -j8"
        )
        log = proc.stdout + proc.stderr
        assert proc.returncode == 0, f"build {attempt}:\n{log}"
        runs = log.count("Generating the ES API of module custom")
        assert runs == 1, f"build {attempt}: gen_esb ran {runs} times\n{log}"
        with zipfile.ZipFile(wheel) as archive:
            missing = EXPECTED - set(archive.namelist())
        assert not missing, f"build {attempt}: wheel lacks {sorted(missing)}"
