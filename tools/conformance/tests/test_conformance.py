"""The runner on synthetic examples laid out as asc-devkit's are, against a tiny fake prefix
whose set_env.sh only puts a `cmake` stand-in on PATH: the verdicts, causes and scenario
expansion come from real shell runs."""

import os
import re
import textwrap

import asc_examples
import conformance
from conformance_run import BUILD_ERROR, NOT_RUN, PASS, RUN_ERROR, WRONG, run_all

README = """# sample

## 编译运行
- 样例执行
  ```bash
  {scenario}mkdir -p build && cd build;      # 创建并进入build目录
  cmake -DCMAKE_ASC_ARCHITECTURES={arch} ..;make -j;    # 编译工程
  python3 ../scripts/gen_data.py   # 生成测试输入数据
  ./demo                           # 执行
  python3 ../scripts/verify_result.py output/output.bin output/golden.bin
  ```
  {table}
- 执行结果
  ```bash
  test pass!
  ```
"""


def _write(path, text, mode=0o644):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(textwrap.dedent(text))
    os.chmod(path, mode)


def _example(
    root,
    rel,
    arch="dav-2201",
    demo_rc=0,
    verify_ok=True,
    build_ok=True,
    scenarios=None,
    build_msg="kernel.asc:3:5: error: no member named 'Foo' in namespace 'AscendC'",
):
    folder = os.path.join(root, "examples", rel)
    scen = "SCENARIO_NUM=1\n  " if scenarios else ""
    table = f"| `SCENARIO_NUM` | {'、'.join(f'`{n}`' for n in scenarios)} | 场景编号 |" if scenarios else ""
    _write(os.path.join(folder, "README.md"), README.format(arch=arch, scenario=scen, table=table))
    # "CMakeLists.txt" is read by the fake cmake below: it writes a ./demo that prints the
    # scenario and exits with the status this example asks for.
    _write(
        os.path.join(folder, "CMakeLists.txt"),
        f'BUILD_OK={int(build_ok)}\nDEMO_RC={demo_rc}\nBUILD_MSG="{build_msg}"\n',
    )
    _write(os.path.join(folder, "kernel.asc"), "__global__ __aicore__ void k() {}\n")
    _write(os.path.join(folder, "scripts", "gen_data.py"), "import os\nos.makedirs('output', exist_ok=True)\n")
    verdict = "print('test pass!')" if verify_ok else "print('test failed: mismatch at 3'); raise SystemExit(1)"
    _write(os.path.join(folder, "scripts", "verify_result.py"), verdict + "\n")
    return folder


def _prefix(tmp_path):
    prefix = tmp_path / "prefix"
    bindir = prefix / "bin"
    bindir.mkdir(parents=True)
    _write(str(prefix / "set_env.sh"), f'export PATH="{bindir}:$PATH"\nexport TWIN_SET_ENV=1\n')
    _write(
        str(bindir / "cmake"),
        """\
        #!/bin/bash
        [ "$TWIN_SET_ENV" = 1 ] || { echo "set_env.sh not sourced"; exit 3; }
        [ -n "$HOME" ] && [ -z "$CONFORMANCE_LEAK" ] || { echo "caller env leaked"; exit 4; }
        for a in "$@"; do src=$a; done
        . "$src/CMakeLists.txt"
        [ "$BUILD_OK" = 1 ] || { echo "$BUILD_MSG"; exit 1; }
        printf '#!/bin/bash\\necho scenario=$SCENARIO_NUM\\nexit %s\\n' "$DEMO_RC" > demo; chmod +x demo
        printf 'all:\\n\\t@true\\n' > Makefile
        """,
        0o755,
    )
    return str(prefix)


def test_verdicts_and_causes(tmp_path, monkeypatch):
    monkeypatch.setenv("CONFORMANCE_LEAK", "1")  # must not reach the case's shell
    root = str(tmp_path / "checkout")
    _example(root, "a/good")
    _example(root, "a/wrong", verify_ok=False)
    _example(root, "a/crash", demo_rc=139)
    _example(root, "b/nobuild", build_ok=False)
    _example(root, "b/other_arch", arch="dav-3510")
    _example(
        root,
        "b/refuses_2201",
        build_ok=False,
        build_msg="CMake Error: SCENARIO_NUM=3 only supports dav-3510, not dav-2201",
    )
    cases = asc_examples.cases(root)
    results = {r.case.case_id: r for r in run_all(cases, _prefix(tmp_path), str(tmp_path / "scratch"), 2, 60)}
    assert results["a/good"].verdict == PASS, results["a/good"].cause
    assert results["a/wrong"].verdict == WRONG
    assert "verify_result.py" in results["a/wrong"].cause and "mismatch at 3" in results["a/wrong"].cause
    assert results["a/crash"].verdict == RUN_ERROR and "status 139" in results["a/crash"].cause
    assert results["b/nobuild"].verdict == BUILD_ERROR
    assert "kernel.asc:3:5: error: no member named 'Foo'" in results["b/nobuild"].cause
    assert results["b/other_arch"].verdict == NOT_RUN and "dav-3510" in results["b/other_arch"].cause
    assert results["b/refuses_2201"].verdict == NOT_RUN and "only supports dav-3510" in results["b/refuses_2201"].cause
    # the checkout is never written: builds happen in scratch copies
    assert not os.path.exists(os.path.join(root, "examples", "a", "good", "build"))


def test_scenarios_expand_from_the_readme_table(tmp_path):
    root = str(tmp_path / "checkout")
    _example(root, "s/multi", scenarios=[1, 2, 3])
    cases = asc_examples.cases(root)
    assert [c.case_id for c in cases] == ["s/multi #1", "s/multi #2", "s/multi #3"]
    assert cases[1].steps[0].line == "SCENARIO_NUM=2"
    assert [s.phase for s in cases[0].steps] == ["setup", "setup", "build", "setup", "run", "check"]
    assert cases[0].markers == ["test pass!"]


def test_report_section_replaces_only_its_suite(tmp_path):
    root = str(tmp_path / "checkout")
    _example(root, "a/good")
    results = run_all(asc_examples.cases(root), _prefix(tmp_path), str(tmp_path / "scratch"), 1, 60)
    out = tmp_path / "CONFORMANCE.md"
    first = conformance.merge("", "ge", "<!-- suite:ge -->\nGE rows\n<!-- /suite:ge -->\n")
    text = conformance.section("asc", "Ascend C", "repo", root, "/p", results, "")
    conformance.write_atomically(str(out), conformance.merge(first, "asc", text))
    again = conformance.merge(out.read_text(), "asc", text.replace("1 run cases", "1 run cases"))
    assert again.count("<!-- suite:asc -->") == 1 and "GE rows" in again
    assert "| a/good | vector | pass |" in out.read_text()
    assert "**1 of 1 run cases pass**" in out.read_text()


def test_comment_stripping_keeps_quoted_hashes():
    assert asc_examples.block_lines("echo '#x' # note\n  ./demo  # run\n") == ["echo '#x'", "./demo"]


def test_scenarios_for_another_arch_are_read_from_cmake():
    cmake = """
    if(SCENARIO_NUM STREQUAL "3" OR SCENARIO_NUM STREQUAL "4")
        if(CMAKE_ASC_ARCHITECTURES STREQUAL "dav-2201")
            message(FATAL_ERROR "SCENARIO_NUM=${SCENARIO_NUM} only supports dav-3510, not dav-2201")
        endif()
    endif()
    if(SCENARIO_NUM EQUAL 6)
        set(CMAKE_ASC_ARCHITECTURES "dav-3510" CACHE STRING "" FORCE)
    elseif(SCENARIO_NUM EQUAL 5)
        message(STATUS "scenario 5 builds for ${CMAKE_ASC_ARCHITECTURES}")
    endif()
    """
    assert asc_examples.other_arch_scenarios(cmake) == {3, 4, 6}


def test_a_scenario_that_refuses_dav3510_still_runs_on_dav2201():
    """asc-devkit's mmad sample stops scenario 4 on dav-3510 only; the message names dav-3510,
    but the scenario is a dav-2201 one."""
    cmake = """
    if(SCENARIO_NUM STREQUAL "4" AND CMAKE_ASC_ARCHITECTURES STREQUAL "dav-3510")
        message(FATAL_ERROR "SCENARIO_NUM=${SCENARIO_NUM} only supports dav-2201, not dav-3510")
    endif()
    """
    assert asc_examples.other_arch_scenarios(cmake) == set()


def test_a_scenario_that_must_be_built_for_dav3510_is_not_run():
    cmake = """
    if(SCENARIO_NUM STREQUAL "4" AND NOT CMAKE_ASC_ARCHITECTURES STREQUAL "dav-3510")
        message(FATAL_ERROR "When SCENARIO_NUM = ${SCENARIO_NUM}, CMAKE_ASC_ARCHITECTURES must be dav-3510, but got x")
    endif()
    """
    assert asc_examples.other_arch_scenarios(cmake) == {4}


def test_a_scenario_only_supported_on_dav3510_is_not_run():
    """asc-devkit's data_copy_gm2l1 stops scenario 3 on dav-2201 with "only
    CMAKE_ASC_ARCHITECTURES=dav-3510 is supported"; the runner built it and reported make's
    "No targets specified" as a build error."""
    cmake = """
    if(SCENARIO_NUM EQUAL 3 AND CMAKE_ASC_ARCHITECTURES STREQUAL "dav-2201")
        message(FATAL_ERROR "When SCENARIO_NUM=3, only CMAKE_ASC_ARCHITECTURES=dav-3510 is supported.")
    endif()
    """
    assert asc_examples.other_arch_scenarios(cmake) == {3}
    assert re.search(
        asc_examples.NEEDS_DAV3510,
        "CMake Error at CMakeLists.txt:38 (message):\n"
        "  When SCENARIO_NUM=3, only CMAKE_ASC_ARCHITECTURES=dav-3510 is supported.",
    )
    assert not re.search(asc_examples.NEEDS_DAV3510, "only dav-2201 is supported, not dav-3510")


def test_python_env_supplies_the_examples_prerequisites(tmp_path):
    """An example whose gen_data imports a package the system python lacks (asc-devkit's bf16
    samples import ml_dtypes) is a run error without --python-env and passes with one."""
    root = str(tmp_path / "checkout")
    folder = _example(root, "p/needs_pkg")
    _write(
        os.path.join(folder, "scripts", "gen_data.py"),
        "import twin_example_prereq, os\nos.makedirs('output', exist_ok=True)\n",
    )
    env = tmp_path / "pyenv"
    (env / "site").mkdir(parents=True)
    (env / "site" / "twin_example_prereq.py").write_text("")
    _write(str(env / "bin" / "python3"), f'#!/bin/bash\nPYTHONPATH="{env}/site" exec /usr/bin/python3 "$@"\n', 0o755)
    cases, prefix = asc_examples.cases(root), _prefix(tmp_path)
    (without,) = run_all(cases, prefix, str(tmp_path / "s1"), 1, 60)
    assert without.verdict == RUN_ERROR
    assert "ModuleNotFoundError: No module named 'twin_example_prereq'" in without.cause
    (with_env,) = run_all(cases, prefix, str(tmp_path / "s2"), 1, 60, python_env=str(env))
    assert with_env.verdict == PASS, with_env.cause


def test_op_package_examples_are_op_projects(tmp_path):
    root = str(tmp_path / "checkout")
    aclnn = _example(root, "o/aclnn_call")
    _write(os.path.join(aclnn, "main.cpp"), '#include "aclnn_add_custom.h"\nint main() {}\n')
    deployed = _example(root, "o/needs_deploy")
    with open(os.path.join(deployed, "README.md"), "a") as f:
        f.write("运行此样例前，需先进入[自定义算子工程样例](../../00_acl_compilation/custom_op)目录完成部署。\n")
    plain = _example(root, "o/plain")
    assert [asc_examples.kind_of(f) for f in (aclnn, deployed, plain)] == ["op project", "op project", "vector"]


def test_kinds_from_the_folder_and_the_sources(tmp_path):
    root = str(tmp_path / "checkout")
    adv = _example(root, "01_simd_cpp_api/04_advanced_api/08_transpose/fill_like")  # basic calls only
    aicpu = _example(root, "04_aicpu/00_introduction/tiling")
    _write(os.path.join(aicpu, "tiling.aicpu"), "__aicpu__ void k() {}\n")
    eager = _example(root, "f/eager")
    _write(os.path.join(eager, "op.cpp"), "class AddCustom : public ge::EagerExecuteOp {};\n")
    assert [asc_examples.kind_of(f) for f in (adv, aicpu, eager)] == ["advanced API", "AI CPU", "GE C++ custom op"]
