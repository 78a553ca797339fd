"""The ABI guard through Python: ge._compiler (what Session, atc and ES generation use) reports a
proto library built with the other _GLIBCXX_USE_CXX11_ABI with the graph library's one line, and
loads and infers one built with the twin's ABI, in the same process."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest


def runfile(path: str) -> Path:
    return Path(os.environ.get("TEST_SRCDIR", ".")) / os.environ.get("TEST_WORKSPACE", "") / path


def twin_abi() -> int:
    text = runfile("twin/graph/include/ge_twin/abi_config.h").read_text()
    return int(re.search(r"#define GE_TWIN_CXX11_ABI (\d)", text).group(1))


@pytest.fixture(scope="module")
def opp_lib():
    os.environ["ASCEND_TWIN_GRAPH_LIB"] = str(runfile("twin/graph/libgraph.so"))
    os.environ.pop("ASCEND_OPP_PATH", None)
    from ge._compiler import opp_lib as module

    return module


def root_with(tmp_path: Path, library: str) -> Path:
    shutil.copy(runfile(f"twin/graph/tests/{library}"), tmp_path / "libcust_opapi.so")
    return tmp_path


def test_other_abi_is_refused_with_one_line(opp_lib, tmp_path):
    root = root_with(tmp_path, "libabi_other_opp.so")
    abi, other = twin_abi(), 1 - twin_abi()
    with pytest.raises(opp_lib.OppLibError) as info:
        opp_lib.load_opp_protos(str(root))
    assert str(info.value) == (
        f"{root}/libcust_opapi.so: built with _GLIBCXX_USE_CXX11_ABI={other}; "
        f"CANN libraries use _GLIBCXX_USE_CXX11_ABI={abi}: "
        f"rebuild it with -D_GLIBCXX_USE_CXX11_ABI={abi}"
    )


def test_compiler_error_carries_the_line(opp_lib, tmp_path, monkeypatch):
    from ge._compiler.errors import GraphCompileError
    from ge._compiler.op_catalog import OpCatalog

    root = root_with(tmp_path, "libabi_other_opp.so")
    monkeypatch.setenv("ASCEND_CUSTOM_OPP_PATH", str(root))
    with pytest.raises(GraphCompileError, match=r"built with _GLIBCXX_USE_CXX11_ABI=\d; CANN libraries use"):
        OpCatalog().op_info("TwinAbiScaleTest")


def test_same_abi_loads_and_infers(opp_lib, tmp_path):
    root = root_with(tmp_path, "libabi_same_opp.so")
    protos = opp_lib.load_opp_protos(str(root))
    assert "TwinAbiScaleTest" in protos
    from ge.graph._c_api import capi_pb2

    request = capi_pb2().InferRequest(op_type="TwinAbiScaleTest")
    request.inputs.add().instances.add(shape=[4, 1, 3], dtype=0)  # DT_FLOAT
    out = protos["TwinAbiScaleTest"].api.infer(request)
    assert list(out.outputs[0].shape) == [8, 2, 6]


def test_executable_of_the_other_abi_fails_to_link_naming_the_problem(tmp_path):
    compiler = shutil.which("c++") or shutil.which("g++")
    if compiler is None:
        pytest.skip("no host C++ compiler on PATH")
    abi, other = twin_abi(), 1 - twin_abi()
    source = tmp_path / "main.cc"
    source.write_text('#include "graph/graph.h"\nint main() { ge::Graph g("g"); return g.IsValid() ? 0 : 1; }\n')
    graph_dir = runfile("twin/graph")
    command = [
        compiler,
        "-std=c++17",
        f"-D_GLIBCXX_USE_CXX11_ABI={other}",
        f"-I{graph_dir / 'include'}",
        str(source),
        f"-L{graph_dir}",
        "-lgraph",
        "-lgraph_base",
        "-lopp_registry",
        "-o",
        str(tmp_path / "main"),
    ]
    result = subprocess.run(command, capture_output=True, text=True)
    assert result.returncode != 0
    assert f"ge::twin_abi::built_with__GLIBCXX_USE_CXX11_ABI_{other}__but_this_CANN_needs_{abi}()" in result.stderr, (
        result.stderr
    )
    # The same program with the twin's ABI links.
    command[2] = f"-D_GLIBCXX_USE_CXX11_ABI={abi}"
    result = subprocess.run(command, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
