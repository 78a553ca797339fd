"""The whole offline chain for several SoCs: graph_build -> AIR -> atc -> OM -> model_exec.

The runner is observed while it is alive (it pauses after aclmdlExecute on
--pause_after_execute): no libpython is mapped, its environment carries no Python plugin path,
and its dynamic dependencies (NEEDED, transitively via ldd) hold no libpython.
"""

import json
import random
import re
import subprocess
import time
from pathlib import Path

import offline_tools as t
import pytest

SOCS = ["Ascend910B1", "Ascend910B4", "Ascend310P3"]
NPU_ARCH = {"Ascend910B1": "2201", "Ascend910B4": "2201", "Ascend310P3": "2002"}
PYTHON_LIB = re.compile(r"libpython\d|/python3\.\d+/|\.cpython-")


@pytest.fixture(scope="module")
def kernel_cache(tmp_path_factory):
    return tmp_path_factory.mktemp("home") / "kernel_cache"


@pytest.fixture(scope="module")
def element_count():
    seed = random.randrange(1 << 30)
    print(f"seed {seed}")
    return random.Random(seed).randint(1, 64) * 1024


def observe_paused_runner(om: Path, soc: str):
    """Starts the runner, inspects /proc/<pid> while it is paused, then lets it finish."""
    proc = subprocess.Popen(
        [str(t.tool("MODEL_EXEC")), "--pause_after_execute", str(om)],
        env=t.runner_env(soc),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    seen = []
    try:
        for line in proc.stdout:
            seen.append(line.rstrip("\n"))
            if line.startswith("MODEL_EXEC_PAUSED"):
                break
        assert seen and seen[-1] == f"MODEL_EXEC_PAUSED pid={proc.pid}", seen
        maps = Path(f"/proc/{proc.pid}/maps").read_text()
        environ = Path(f"/proc/{proc.pid}/environ").read_bytes().split(b"\0")
        proc.stdin.write("\n")
        proc.stdin.flush()
        proc.stdin.close()
        rest, err = proc.stdout.read(), proc.stderr.read()
        proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    return proc.returncode, seen + rest.splitlines(), err, maps, environ


def mapped_files(maps: str):
    return sorted({line.split(None, 5)[5] for line in maps.splitlines() if len(line.split(None, 5)) == 6})


@pytest.mark.parametrize("soc", SOCS)
def test_chain_runs_without_python(soc, tmp_path, kernel_cache, element_count):
    air = tmp_path / "model.air"
    built = t.graph_build(air, element_count)
    assert built.returncode == 0, built.stderr
    assert "PY_COMPILE_AIR_BUILD=PASS" in built.lines
    assert air.stat().st_size > 0

    out = tmp_path / "model"
    start = time.perf_counter()
    compiled = t.atc_compile(air, out, soc, kernel_cache)
    print(f"atc for {soc} took {time.perf_counter() - start:.2f} s:\n{compiled.stdout}")
    assert compiled.returncode == 0, compiled.stdout + compiled.stderr
    assert compiled.lines[0] == t.ATC_START
    assert t.ATC_SUCCESS in compiled.lines
    assert "PY_COMPILE_MODULE_LOADED=1" in compiled.lines
    enter = [line for line in compiled.lines if line.startswith("PY_COMPILE_CALLBACK_ENTER=1")]
    assert enter, compiled.stdout
    assert f"mode=offline soc={soc} arch={NPU_ARCH[soc]} shape=[{element_count}]" in enter[0]
    assert t.leftovers(tmp_path, ["model.air", "model.om"]) == []

    status, lines, err, maps, environ = observe_paused_runner(tmp_path / "model.om", soc)
    assert status == 0, "\n".join(lines) + err
    assert "PY_COMPILE_OFFLINE_OM=PASS" in lines
    files = mapped_files(maps)
    assert any("libascendcl" in f for f in files) or any("model_exec" in f for f in files), files
    python_maps = [f for f in files if PYTHON_LIB.search(f)]
    assert python_maps == [], f"the runner mapped Python: {python_maps}"
    plugin = str(t.plugin_dir()).encode()
    env_entries = [e for e in environ if e]
    assert not [e for e in env_entries if plugin in e], "the plugin dir reached the runner's environment"
    assert not [e for e in env_entries if e.startswith((b"PYTHONPATH=", b"PYTHONHOME="))]
    opp = [e for e in env_entries if e.startswith(b"ASCEND_CUSTOM_OPP_PATH=")]
    assert opp == [b"ASCEND_CUSTOM_OPP_PATH=" + str(t.tool("OPP_ROOT")).encode()]


def needed(path: Path):
    out = subprocess.run(["readelf", "-d", str(path)], capture_output=True, text=True, check=True).stdout
    return re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", out)


def test_runner_dynamic_dependencies_have_no_python():
    runner = t.tool("MODEL_EXEC")
    direct = needed(runner)
    assert direct, "readelf found no NEEDED entries: not a dynamic executable?"
    assert not [lib for lib in direct if "python" in lib], direct
    ldd = subprocess.run(["ldd", str(runner)], capture_output=True, text=True, check=True).stdout
    assert "not found" not in ldd, ldd
    resolved = re.findall(r"=>\s+(\S+)", ldd)
    for lib in resolved:
        assert "python" not in Path(lib).name, f"{lib} in ldd of {runner}"
        assert not [n for n in needed(Path(lib)) if "python" in n], lib


def test_runner_embeds_no_python_interpreter():
    """A statically linked interpreter would not show in NEEDED: look for its entry points."""
    for binary in [t.tool("MODEL_EXEC")]:
        symbols = subprocess.run(
            ["readelf", "-Ws", "--dyn-syms", str(binary)], capture_output=True, text=True, check=True
        ).stdout
        found = sorted(set(re.findall(r"\b(Py_Initialize\w*|PyRun_\w+|PyImport_\w+)\b", symbols)))
        assert found == [], f"{binary} carries Python interpreter symbols: {found[:5]}"


def test_atc_mode6_displays_the_om(tmp_path, kernel_cache):
    air = tmp_path / "model.air"
    assert t.graph_build(air).returncode == 0
    assert t.atc_compile(air, tmp_path / "model", "Ascend910B1", kernel_cache).returncode == 0
    shown = t.atc(["--mode=6", f"--om={tmp_path / 'model.om'}"], kernel_cache)
    assert shown.returncode == 0, shown.stdout + shown.stderr
    assert shown.lines[0] == t.ATC_START and t.ATC_SUCCESS in shown.lines
    body = shown.stdout[shown.stdout.index("{") : shown.stdout.rindex("}") + 1]
    info = json.loads(body)
    assert info["om_info"]["soc_version"] == "Ascend910B1"
    assert info["om_info"]["npu_arch"] == 2201
    assert [i["dims"] for i in info["graph"]["inputs"]] == [[8192], [8192]]
    assert [task["op_type"] for task in info["graph"]["tasks"]] == ["PythonCompilableAddCustom"]
