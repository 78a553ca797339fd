"""gen_esb as a CLI: CANN's flags, what it writes, and bad input (one line, non-zero, no output)."""

import os
import random
import shutil
import subprocess
from pathlib import Path

import pytest

RUNFILES = Path(os.environ["RUNFILES_DIR"]) / "ascend_twin"
GEN_ESB = RUNFILES / "twin/es/gen_esb"
PROTO_LIB = RUNFILES / "twin/es/tests/libes_test_ops.so"
OPS = ["AllAttrs", "Gather", "MakeSeed", "PickAny", "PythonCompilableAddCustom", "Renamed", "Scale", "Sink", "SplitN"]


def opp_root(tmp_path: Path, lib: Path) -> Path:
    """An OPP root holding lib where the twin's loader finds it: op_graph/lib/linux/<arch>/."""
    root = tmp_path / "opp"
    lib_dir = root / "op_graph/lib/linux" / os.uname().machine
    lib_dir.mkdir(parents=True)
    shutil.copy(lib, lib_dir / lib.name)
    return root


def run(*args: str, opp=None) -> subprocess.CompletedProcess:
    env = {"PATH": "/usr/bin:/bin", "HOME": os.environ["TEST_TMPDIR"]}  # CANN's logs go under $HOME
    if opp is not None:
        env["ASCEND_CUSTOM_OPP_PATH"] = str(opp)
    proc = subprocess.run([str(GEN_ESB), *args], env=env, capture_output=True, text=True, timeout=60)
    print(f"$ gen_esb {' '.join(args)}\n{proc.stdout}{proc.stderr}")
    return proc


def one_error_line(proc: subprocess.CompletedProcess, text: str) -> None:
    assert proc.returncode != 0
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("gen_esb: error: "), proc.stderr
    assert text in lines[0]


def test_generates_every_file_and_honours_exclude_ops(tmp_path):
    seed = int(os.environ.get("GE_TWIN_TEST_SEED", random.SystemRandom().randrange(2**32)))
    print(f"[seed] GE_TWIN_TEST_SEED={seed}")
    rng = random.Random(seed)
    excluded = rng.sample(OPS, rng.randint(0, len(OPS) - 1))
    out = tmp_path / "nested/out"
    args = [f"--output_dir={out}", "--module_name=mine", "--h_guard_prefix=MY_GUARD", "--es_mode=codegen"]
    if excluded:
        args.append("--exclude_ops=" + ",".join(excluded + ["NotAnOp"]))
    proc = run(*args, opp=opp_root(tmp_path, PROTO_LIB))
    assert proc.returncode == 0, proc.stderr
    kept = [op for op in OPS if op not in excluded]
    expected = {"es_mine_ops_c.h", "es_mine_ops.h", "es_mine_ops.py", "generated_code.flag"}
    for op in kept:
        expected |= {f"es_{op}_c.h", f"es_{op}.cpp", f"es_{op}.h", f"es_{op}.py"}
    assert {p.name for p in out.iterdir()} == expected
    assert "#ifndef MY_GUARD_ES_MINE_OPS_H_" in (out / "es_mine_ops.h").read_text()
    for op in kept:
        assert "EsCTensorHolder" in (out / f"es_{op}_c.h").read_text()
        assert f"def {op}(" in (out / f"es_{op}.py").read_text()
    assert not [p for p in (tmp_path / "nested").iterdir() if p.name.startswith(".gen_esb")]

    # A second run into the existing directory replaces the files.
    (out / "es_mine_ops.py").write_text("stale")
    assert run(*args, opp=tmp_path / "opp").returncode == 0
    assert (out / "es_mine_ops.py").read_text() != "stale"


@pytest.mark.parametrize(
    "args, message, status",
    [
        (["--bogus=1"], "unknown flag '--bogus'", 2),
        (["--output_dir"], "flag '--output_dir' needs a value", 2),
        (["stray"], "unexpected argument 'stray'", 2),
        (["--es_mode=extract_history"], "--es_mode=extract_history is not supported", 2),
        (["--es_mode=fast"], "--es_mode must be codegen or extract_history", 2),
        (["--module_name=bad-name"], "--module_name 'bad-name' is not a valid identifier", 2),
    ],
)
def test_bad_flags(tmp_path, args, message, status):
    out = tmp_path / "out"
    proc = run(f"--output_dir={out}", *args, opp=opp_root(tmp_path, PROTO_LIB))
    one_error_line(proc, message)
    assert proc.returncode == status
    assert not out.exists()


def test_missing_broken_and_empty_proto_libraries(tmp_path):
    out = tmp_path / "out"
    one_error_line(run(f"--output_dir={out}"), "ASCEND_CUSTOM_OPP_PATH is not set")
    one_error_line(run(f"--output_dir={out}", opp=tmp_path / "missing"), str(tmp_path / "missing"))
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "libcust_opapi.so").write_bytes(b"\x7fELF not really a library")
    one_error_line(run(f"--output_dir={out}", opp=broken), "libcust_opapi.so")
    # A loadable library that registers no prototype.
    empty = opp_root(tmp_path / "e", RUNFILES / "twin/es/libeager_style_graph_builder_base.so")
    one_error_line(run(f"--output_dir={out}", opp=empty), "register no operator prototype")
    # Everything excluded.
    one_error_line(
        run(f"--output_dir={out}", "--exclude_ops=" + ",".join(OPS), opp=opp_root(tmp_path, PROTO_LIB)),
        "outside --exclude_ops",
    )
    assert not out.exists()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".gen_esb")]


def test_output_dir_that_is_a_file(tmp_path):
    target = tmp_path / "file"
    target.write_text("keep")
    one_error_line(run(f"--output_dir={target}", opp=opp_root(tmp_path, PROTO_LIB)), "is not a directory")
    assert target.read_text() == "keep"


def test_help():
    proc = run("--help")
    assert proc.returncode == 0 and "--module_name" in proc.stdout
