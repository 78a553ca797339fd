"""aclgrphBuildModel + aclgrphSaveModel (ir_build_tool, C++) against atc on the AIR of the same
graph: the OMs must be byte-identical; the saved OM runs with model_exec (aclmdlLoadFromFile);
and libge_compiler.so finds the install tree from its own lib64 when ASCEND_HOME_PATH is unset.
"""

import os
import random
from pathlib import Path

import offline_tools as tools
import pytest

SOCS = ["Ascend910B1", "Ascend310P3"]


def _python() -> str:
    return tools.tool("GE_TEST_PYTHON_FILE").read_text().strip()


def _ge_env(tmp: Path, kernel_cache: Path) -> dict:
    env = tools.atc_env(kernel_cache)
    env["ASCEND_TWIN_PYTHON"] = _python()
    ge_tmp = tmp / "ge_tmp"
    ge_tmp.mkdir(exist_ok=True)
    env["TMPDIR"] = str(ge_tmp)
    return env


@pytest.fixture(scope="module")
def kernel_cache(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("kernel_cache")


@pytest.fixture(scope="module")
def n() -> int:
    seed = int(os.environ.get("GE_API_TEST_SEED", random.SystemRandom().randrange(2**32)))
    print(f"seed {seed} (replay with GE_API_TEST_SEED={seed})")
    return 1024 * random.Random(seed).randint(1, 32)


@pytest.mark.parametrize("soc", SOCS)
def test_om_equals_atc_and_runs(tmp_path: Path, kernel_cache: Path, n: int, soc: str) -> None:
    air = tmp_path / "model.air"
    out = tmp_path / "ir_model"
    env = _ge_env(tmp_path, kernel_cache)
    built = tools.run([tools.tool("IR_BUILD_TOOL"), out, air, str(n), soc], env)
    assert built.returncode == 0, built.stdout + built.stderr
    assert "IR_BUILD_OM=PASS" in built.lines
    # The holder's prints reach the caller's stdout; atc's console banner does not.
    assert any(line.startswith(f"PY_COMPILE_CALLBACK_ENTER=1 mode=offline soc={soc}") for line in built.lines), (
        built.stdout
    )
    assert tools.ATC_START not in built.stdout and tools.ATC_SUCCESS not in built.stdout
    assert list((tmp_path / "ge_tmp").iterdir()) == [], "aclgrphBuildModel left temp files"

    atc = tools.atc_compile(air, tmp_path / "atc_model", soc, kernel_cache)
    assert atc.returncode == 0, atc.stdout + atc.stderr
    ours = (tmp_path / "ir_model.om").read_bytes()
    theirs = (tmp_path / "atc_model.om").read_bytes()
    assert len(ours) == len(theirs) and ours == theirs, f"OM differs from atc's ({len(ours)} vs {len(theirs)} bytes)"
    assert tools.leftovers(tmp_path, ["model.air", "ir_model.om", "atc_model.om", "ge_tmp"]) == []

    if soc == "Ascend910B1":  # the twin device of model_exec must have the OM's NpuArch
        ran = tools.model_exec(tmp_path / "ir_model.om", soc)
        assert ran.returncode == 0, ran.stdout + ran.stderr
        assert "PY_COMPILE_OFFLINE_OM=PASS" in ran.lines


def test_tree_found_from_the_librarys_own_lib64(tmp_path: Path, kernel_cache: Path) -> None:
    """With ASCEND_HOME_PATH unset, the tree's lib64/libge_compiler.so (picked up through
    LD_LIBRARY_PATH, which precedes the tool's RUNPATH) locates the tree with dladdr."""
    env = _ge_env(tmp_path, kernel_cache)
    home = env.pop("ASCEND_HOME_PATH")
    env["LD_LIBRARY_PATH"] = f"{home}/lib64"
    out = tmp_path / "m"
    built = tools.run([tools.tool("IR_BUILD_TOOL"), out, tmp_path / "m.air", "1024", "Ascend910B1"], env)
    assert built.returncode == 0, built.stdout + built.stderr
    assert (tmp_path / "m.om").read_bytes()[:4] == b"IMOD"

    # Neither rule gives a tree: one clear line.
    env.pop("LD_LIBRARY_PATH")
    failed = tools.run([tools.tool("IR_BUILD_TOOL"), out, tmp_path / "m.air", "1024", "Ascend910B1"], env)
    assert failed.returncode != 0
    assert "cannot find the CANN install tree" in failed.stderr, failed.stderr


def test_missing_interpreter_is_one_line(tmp_path: Path, kernel_cache: Path) -> None:
    env = _ge_env(tmp_path, kernel_cache)
    env["ASCEND_TWIN_PYTHON"] = str(tmp_path / "no_such_python")
    built = tools.run([tools.tool("IR_BUILD_TOOL"), tmp_path / "m", tmp_path / "m.air", "1024", "Ascend910B1"], env)
    assert built.returncode != 0
    assert "cannot start " + str(tmp_path / "no_such_python") in built.stderr, built.stderr
    assert "set ASCEND_TWIN_PYTHON" in built.stderr
    assert list((tmp_path / "ge_tmp").iterdir()) == []
