"""compile_commands.py: Bazel's CppCompile actions become clang-tidy's compile commands."""
import json

import compile_commands
import pytest


def _action(source, *flags, mnemonic="CppCompile"):
    return {"mnemonic": mnemonic,
            "arguments": ["/usr/bin/gcc", *flags, "-MD", "-MF", "bazel-out/x.d", "-frandom-seed=bazel-out/x.o",
                          "-c", source, "-o", "bazel-out/x.o"]}


def test_flags_become_clangs_and_repository_headers_are_checked():
    aquery = {"actions": [_action("twin/a.cc", "-fno-canonical-system-headers", "-isystem", "twin/asc/include",
                                  "-isystem", "external/com_google_googletest/include", "-iquote", ".",
                                  "-std=c++17")]}
    [entry] = compile_commands.compile_commands(aquery, "/exec")
    assert entry["directory"] == "/exec" and entry["file"] == "twin/a.cc"
    assert entry["arguments"] == ["clang-16", "-I", "twin/asc/include", "-isystem",
                                  "external/com_google_googletest/include", "-iquote", ".", "-std=c++17",
                                  "-c", "twin/a.cc"]


def test_generated_sources_and_other_actions_are_skipped_and_the_first_action_wins():
    aquery = {"actions": [_action("bazel-out/k8/bin/es_Gen.cpp"), _action("external/gtest/src/gtest.cc"),
                          _action("twin/b.cc", "-DFIRST"), _action("twin/b.cc", "-DSECOND"),
                          _action("twin/a.cc"), _action("twin/c.cc", mnemonic="Genrule")]}
    entries = compile_commands.compile_commands(aquery, "/exec")
    assert [e["file"] for e in entries] == ["twin/a.cc", "twin/b.cc"]
    assert "-DFIRST" in entries[1]["arguments"] and "-DSECOND" not in entries[1]["arguments"]


@pytest.mark.parametrize("aquery, message", [
    ({"artifacts": []}, "no 'actions' list"),
    ({"actions": [{"mnemonic": "CppCompile", "arguments": []}]}, "has no arguments"),
    ({"actions": [{"mnemonic": "CppCompile", "arguments": ["/usr/bin/gcc", "-o", "x.o"]}]}, "no '-c SOURCE'"),
])
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
