"""compile_commands.py: Bazel's CppCompile actions become clang-tidy's compile commands."""

import json

import compile_commands
import pytest


def _action(source, *flags, mnemonic="CppCompile"):
    return {
        "mnemonic": mnemonic,
        "arguments": [
            "/usr/bin/gcc",
            *flags,
            "-MD",
            "-MF",
            "bazel-out/x.d",
            "-frandom-seed=bazel-out/x.o",
            "-c",
            source,
            "-o",
            "bazel-out/x.o",
        ],
    }


def test_flags_become_clangs_and_repository_headers_are_checked():
    aquery = {
        "actions": [
            _action(
                "twin/a.cc",
                "-fno-canonical-system-headers",
                "-isystem",
                "twin/asc/include",
                "-isystem",
                "external/com_google_googletest/include",
                "-iquote",
                ".",
                "-std=c++17",
            )
        ]
    }
    [entry] = compile_commands.compile_commands(aquery, "/exec")
    assert entry["directory"] == "/exec" and entry["file"] == "twin/a.cc"
    assert entry["arguments"] == [
        "clang-16",
        "-I",
        "twin/asc/include",
        "-isystem",
        "external/com_google_googletest/include",
        "-iquote",
        ".",
        "-std=c++17",
        "-c",
        "twin/a.cc",
    ]


def test_generated_sources_and_other_actions_are_skipped_and_the_first_action_wins():
    aquery = {
        "actions": [
            _action("bazel-out/k8/bin/es_Gen.cpp"),
            _action("external/gtest/src/gtest.cc"),
            _action("twin/b.cc", "-DFIRST"),
            _action("twin/b.cc", "-DSECOND"),
            _action("twin/a.cc"),
            _action("twin/c.cc", mnemonic="Genrule"),
        ]
    }
    entries = compile_commands.compile_commands(aquery, "/exec")
    assert [e["file"] for e in entries] == ["twin/a.cc", "twin/b.cc"]
    assert "-DFIRST" in entries[1]["arguments"] and "-DSECOND" not in entries[1]["arguments"]


@pytest.mark.parametrize(
    "aquery, message",
    [
        ({"artifacts": []}, "no 'actions' list"),
        ({"actions": [{"mnemonic": "CppCompile", "arguments": []}]}, "has no arguments"),
        ({"actions": [{"mnemonic": "CppCompile", "arguments": ["/usr/bin/gcc", "-o", "x.o"]}]}, "no '-c SOURCE'"),
    ],
)
def test_output_that_is_not_aquerys_is_refused(aquery, message):
    with pytest.raises(compile_commands.AqueryError, match=message):
        compile_commands.compile_commands(aquery, "/exec")


def test_main_writes_the_file_or_names_the_cause_and_writes_nothing(tmp_path, capsys):
    good, bad, out = tmp_path / "good.json", tmp_path / "bad.json", tmp_path / "compile_commands.json"
    good.write_text(json.dumps({"actions": [_action("twin/a.cc")]}))
    assert compile_commands.main(["--aquery", str(good), "--execroot", "/exec", "--out", str(out)]) == 0
    assert [e["file"] for e in json.loads(out.read_text())] == ["twin/a.cc"]

    bad.write_text("{not json")
    out.unlink()
    assert compile_commands.main(["--aquery", str(bad), "--execroot", "/exec", "--out", str(out)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"compile_commands: {bad}: ")
    assert sorted(tmp_path.iterdir()) == sorted([good, bad])  # no output, no temp file left


def _genrule(command):
    return {
        "mnemonic": "Genrule",
        "arguments": ["/bin/bash", "-c", f"source external/bazel_tools/tools/genrule/genrule-setup.sh; {command}"],
    }


def test_a_genrules_clang_command_gives_its_sources_their_parse_flags():
    kernel = _genrule(
        "external/llvm_toolchain/bin/clang -x c++ -std=c++17 -O1 -fPIC -shared -nostartfiles "
        "-fuse-ld=lld -nostdlib++ -Wall -Wno-infinite-recursion -Itwin/abi/include "
        "twin/runtime/tests/kernels/fault_kernels.cc -o bazel-out/k8/bin/fault.so"
    )
    fuzzer = _genrule(
        "printf '' | external/llvm_toolchain/bin/clang -x c -c - -o e.o && "
        "external/llvm_toolchain/bin/clang++ --driver-mode=g++ -fsanitize=fuzzer -isystem twin/asc/include "
        "-I. twin/a_fuzzer.cc twin/b.cc -Wl,-z,now -o bazel-out/k8/bin/fuzzer; "
        "CC='clang -O2' && $CC twin/by_variable.cc -o x.so"
    )
    entries = compile_commands.compile_commands({"actions": [kernel, fuzzer]}, "/exec")
    by_file = {e["file"]: e["arguments"] for e in entries}
    assert sorted(by_file) == ["twin/a_fuzzer.cc", "twin/b.cc", "twin/runtime/tests/kernels/fault_kernels.cc"]
    assert by_file["twin/runtime/tests/kernels/fault_kernels.cc"] == [
        "clang-16",
        "-x",
        "c++",
        "-std=c++17",
        "-O1",
        "-fPIC",
        "-Wall",
        "-Wno-infinite-recursion",
        "-Itwin/abi/include",
        "-c",
        "twin/runtime/tests/kernels/fault_kernels.cc",
    ]
    assert by_file["twin/b.cc"] == [
        "clang-16",
        "--driver-mode=g++",
        "-fsanitize=fuzzer",
        "-I",
        "twin/asc/include",
        "-I.",
        "-c",
        "twin/b.cc",
    ]


def test_a_cppcompile_action_wins_over_a_genrule_compiling_the_same_source():
    aquery = {"actions": [_genrule("clang -DGENRULE twin/a.cc -o a.so"), _action("twin/a.cc", "-DBAZEL")]}
    [entry] = compile_commands.compile_commands(aquery, "/exec")
    assert "-DBAZEL" in entry["arguments"] and "-DGENRULE" not in entry["arguments"]


def test_a_genrule_command_that_is_not_shell_words_is_refused():
    with pytest.raises(compile_commands.AqueryError, match="does not split as shell words"):
        compile_commands.compile_commands({"actions": [_genrule("clang 'twin/a.cc")]}, "/exec")


def test_each_source_without_a_compile_command_is_a_finding_unless_it_is_not_host_cxx(tmp_path, capsys):
    aquery, sources, out = tmp_path / "aquery.json", tmp_path / "sources", tmp_path / "compile_commands.json"
    aquery.write_text(json.dumps({"actions": [_action("twin/a.cc")]}))
    sources.write_text("twin/a.cc\ntwin/a.h\ntwin/forgotten.cc\ntests/cann_consumer/abs_sub_custom/src/ir_build.cc\n")
    assert (
        compile_commands.main(
            ["--aquery", str(aquery), "--execroot", "/exec", "--out", str(out), "--sources", str(sources)]
        )
        == 0
    )
    [line] = capsys.readouterr().out.splitlines()
    assert line.startswith("twin/forgotten.cc:1:1: error: no compile command: no Bazel action compiles it")
