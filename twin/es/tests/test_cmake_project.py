"""A CANN-style CMake project (testdata/cann_project) builds its ES package against //twin:cann_home.

Runs real cmake in a clean environment after `source <cann_home>/set_env.sh`, as a CANN user does:
configure, `--target install_es_custom`, then the checks on OUTPUT_PATH, the generated Python (imported
and used with ge.es.graph_builder.GraphBuilder) and a C++ program linking es_custom.
"""

import os
import random
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

RUNFILES = Path(os.environ["RUNFILES_DIR"]) / "ascend_twin"
CANN_HOME = RUNFILES / "twin/cann_home"
PROJECT = RUNFILES / "twin/es/tests/testdata/cann_project"
OPS = ["ConcatN", "PythonCompilableAddCustom"]


def seed() -> int:
    value = int(os.environ.get("GE_TWIN_TEST_SEED", random.SystemRandom().randrange(2**32)))
    print(f"[seed] GE_TWIN_TEST_SEED={value}")
    return value


def graph_cxx11_abi() -> int:
    """The _GLIBCXX_USE_CXX11_ABI the installed graph libraries were built with (CANN's is 0)."""
    libs = [CANN_HOME / "lib64" / name for name in ("libgraph.so", "libgraph_base.so")]
    libs = [lib for lib in libs if lib.exists()]
    assert libs, "no graph library in lib64"
    symbols = "".join(
        subprocess.run(["nm", "-D", "--defined-only", str(lib)], capture_output=True, text=True, check=True).stdout
        for lib in libs
    )
    return 1 if "__cxx11" in symbols else 0


def shell(script: str, **env: str) -> subprocess.CompletedProcess:
    """`script` in bash after `source set_env.sh`, in a minimal environment."""
    base = {"PATH": "/usr/bin:/bin", "HOME": os.environ["TEST_TMPDIR"], "LANG": "C.UTF-8"}
    # cwd outside the runfiles tree: `python3 -c` puts cwd first on sys.path, and the runfiles'
    # twin/ source directory would shadow the install tree's twin.graph package.
    proc = subprocess.run(
        ["bash", "-c", f"set -e; source {CANN_HOME}/set_env.sh; {script}"],
        env={**base, **env},
        capture_output=True,
        text=True,
        timeout=600,
        cwd=os.environ["TEST_TMPDIR"],
    )
    print(f"$ {script}\n{proc.stdout}{proc.stderr}")
    return proc


@pytest.fixture(scope="module")
def build(tmp_path_factory) -> Path:
    build = tmp_path_factory.mktemp("cmake") / "build"
    proc = shell(
        f"cmake -S {PROJECT} -B {build} -DGRAPH_CXX11_ABI={graph_cxx11_abi()} && "
        f"cmake --build {build} --target install_es_custom"
    )
    assert proc.returncode == 0
    return build


def test_install_tree(build):
    out = build / "es_output"
    assert (out / "lib64/libes_custom.so").is_file()
    assert (out / "lib64/libes_custom.a").is_file()
    headers = sorted(p.name for p in (out / "include/es_custom").iterdir())
    expected = ["es_custom_ops.h", "es_custom_ops_c.h"] + [f"es_{op}{s}" for op in OPS for s in (".h", "_c.h")]
    assert headers == sorted(expected)  # EXCLUDE_OPS dropped ExcludedOp
    generated = build / "es_custom_build/generated_code"
    assert sorted(p.name for p in generated.glob("*.py")) == sorted(
        ["es_custom_ops.py"] + [f"es_{op}.py" for op in OPS]
    )
    assert (generated / "generated_code.flag").is_file()
    dynamic = subprocess.run(
        ["readelf", "-d", str(out / "lib64/libes_custom.so")], capture_output=True, text=True, check=True
    ).stdout
    assert "libeager_style_graph_builder_base.so" in dynamic
    assert "RPATH" not in dynamic and "RUNPATH" not in dynamic  # as CANN: no RPATH
    assert "BIND_NOW" in dynamic or "NOW" in dynamic
    symbols = subprocess.run(
        ["nm", "-D", "--defined-only", str(out / "lib64/libes_custom.so")], capture_output=True, text=True, check=True
    ).stdout
    assert " T EsPythonCompilableAddCustom" in symbols and " T EsConcatN" in symbols


def test_generated_python_builds_a_graph(build, tmp_path):
    rng = random.Random(seed())
    n, axis = rng.randint(1, 64), rng.randint(-3, 3)
    script = f"""
import es_custom
from ge.es.custom import ConcatN, PythonCompilableAddCustom
from ge.es.graph_builder import GraphBuilder
from ge.graph import Graph
builder = GraphBuilder("py_graph")
x = builder.create_input(0, shape=[{n}])
y = builder.create_input(1, shape=[{n}])
total = PythonCompilableAddCustom(x, y)
cat = ConcatN([total, x], None, axis={axis})
graph = builder.build_and_reset([cat])
graph.save_to_air("{tmp_path}/py.air")
loaded = Graph()
loaded.load_from_air("{tmp_path}/py.air")
node = loaded.get_node(cat.name)
assert node.type == "ConcatN", node.type
assert node.attrs["axis"].value == {axis} and node.attrs["mode"].value == "fast"
assert [e.node for e in node.inputs] == [total.name, "input_0"]
assert not hasattr(es_custom, "ExcludedOp")
print("ES_CMAKE_PYTHON=PASS")
"""
    generated = build / "es_custom_build/generated_code"
    # set_env.sh sets PYTHONPATH to the twin's site-packages; the project adds its generated code
    # and its own es_custom package (testdata/cann_project/es_custom/__init__.py).
    proc = shell(f'export PYTHONPATH="$PYTHONPATH:{generated}:{PROJECT}"; "{sys.executable}" -c \'{script}\'')
    assert proc.returncode == 0 and "ES_CMAKE_PYTHON=PASS" in proc.stdout


def test_cpp_program_links_es_custom(build, tmp_path):
    proc = shell(
        f"cmake --build {build} --target build_graph && "
        f'LD_LIBRARY_PATH="$LD_LIBRARY_PATH:{build}/es_output/lib64" {build}/build_graph {tmp_path}/cpp.air'
    )
    assert proc.returncode == 0 and "ES_CMAKE_GRAPH=PASS" in proc.stdout
    proc = shell(
        f'"{sys.executable}" -c \'from ge.graph import Graph; g = Graph(); '
        f'g.load_from_air("{tmp_path}/cpp.air"); '
        f"print(sorted(n.type for n in g.get_all_nodes()))'"
    )
    assert proc.returncode == 0
    assert "['ConcatN', 'Data', 'Data', 'PythonCompilableAddCustom']" in proc.stdout


def test_wheel_variant_builds_with_debian_python(tmp_path):
    """Regression: on Debian's python3 `import pip, setuptools` raises in setuptools' distutils
    hack, and configure used to stop with "needs pip, setuptools and wheel installed" although
    all three were. The clean shell's python3 is that interpreter; the wheel must build."""
    build = tmp_path / "whl"
    proc = shell(
        f"cmake -S {PROJECT} -B {build} -DES_SAMPLE_WHEEL=ON -DGRAPH_CXX11_ABI={graph_cxx11_abi()} && "
        f"cmake --build {build} --target install_es_custom"
    )
    assert proc.returncode == 0
    assert "not supported" not in proc.stderr
    wheels = list((build / "es_output/whl").glob("es_custom-1.0.0-*.whl"))
    assert len(wheels) == 1
    with zipfile.ZipFile(wheels[0]) as wheel:
        names = set(wheel.namelist())
    assert {"es_custom/__init__.py", "es_custom/es_custom_ops.py"} <= names
    assert {f"es_custom/es_{op}.py" for op in OPS} <= names


def test_wheel_variant_names_the_missing_modules(tmp_path):
    """An interpreter without pip and setuptools (a venv made --without-pip) stops configure with
    one error naming what is missing, before anything is built."""
    venv = tmp_path / "bare"
    subprocess.run(["/usr/bin/python3", "-m", "venv", "--without-pip", str(venv)], check=True)
    build = tmp_path / "whl"
    proc = shell(f"cmake -S {PROJECT} -B {build} -DES_SAMPLE_WHEEL=ON -DPython3_EXECUTABLE={venv}/bin/python3")
    assert proc.returncode != 0
    message = " ".join(proc.stderr.split())  # CMake wraps long messages
    assert "building the es_custom wheel is not supported" in message
    assert "missing Python module(s) pip, setuptools;" in message
    assert "use add_es_library (no wheel)" in message
    assert not (build / "es_custom_build/generated_code").exists()


def test_object_proto_library(tmp_path):
    build = tmp_path / "obj"
    proc = shell(
        f"cmake -S {PROJECT} -B {build} -DES_SAMPLE_OBJECT_PROTO=ON -DGRAPH_CXX11_ABI={graph_cxx11_abi()} && "
        f"cmake --build {build} --target install_es_custom"
    )
    assert proc.returncode == 0
    assert (build / "es_output/lib64/libes_custom.so").is_file()
    assert (build / "es_custom_build/generated_code/es_ConcatN.py").is_file()


def test_bad_keyword_is_one_clear_error(tmp_path):
    project = tmp_path / "bad"
    shutil.copytree(PROJECT, project)
    cmake = project / "CMakeLists.txt"
    cmake.write_text(
        cmake.read_text().replace("EXCLUDE_OPS ExcludedOp)\nendif()", "EXCLUDE_OPS ExcludedOp BOGUS)\nendif()")
    )
    proc = shell(f"cmake -S {project} -B {tmp_path}/build")
    assert proc.returncode != 0
    assert "add_es_library: unknown argument(s) BOGUS" in proc.stderr
