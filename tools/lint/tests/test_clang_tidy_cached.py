"""clang_tidy_cached.py: findings counted once, unchanged files answered from the cache, an
edited header re-analyses exactly the files that include it.

clang-tidy itself is replaced by a small script that reports one finding per `FINDING` line of
the file it is given and of the workspace headers that file includes, and logs each file it is run
on: what is under test is the runner's caching and reporting, not clang-tidy."""

import json
import os
import stat
import textwrap

import clang_tidy_cached

FAKE_CLANG_TIDY = textwrap.dedent("""\
    #!/usr/bin/env python3
    import os, re, sys
    if sys.argv[1:] == ["--version"]:
        print("fake clang-tidy 1"); sys.exit(0)
    source = sys.argv[-1]
    with open(os.environ["FAKE_TIDY_LOG"], "a") as log:
        log.write(source + "\\n")
    found = 0
    for path in [source] + re.findall(r'#include "([^"]+)"', open(source).read()):
        for number, line in enumerate(open(path), 1):
            if "FINDING" in line:
                print(f"{os.path.abspath(path)}:{number}:1: warning: a finding [fake-check]")
                found += 1
    sys.exit(0)  # as clang-tidy: warnings do not fail the run, compile errors do
    """)


def _workspace(tmp_path):
    root = tmp_path / "repo"
    (root / "twin").mkdir(parents=True)
    (root / ".clang-tidy").write_text("Checks: fake\n")
    (root / "twin" / "shared.h").write_text("// FINDING in a header two files include\n")
    (root / "twin" / "only_b.h").write_text("int b();\n")
    (root / "twin" / "a.cc").write_text('#include "twin/shared.h"\n#include <vector>\nint a;\n')
    (root / "twin" / "b.cc").write_text('#include "twin/shared.h"\n#include "twin/only_b.h"\nint b() { return 0; }\n')
    (root / "twin" / "c.cc").write_text("int c;\n")
    db = root / "compile_commands.json"
    db.write_text(
        json.dumps(
            [
                {
                    "directory": str(root),
                    "file": f"twin/{n}.cc",
                    "arguments": ["clang-16", "-iquote", ".", "-c", f"twin/{n}.cc"],
                }
                for n in "abc"
            ]
        )
    )
    tool = tmp_path / "clang-tidy"
    tool.write_text(FAKE_CLANG_TIDY)
    tool.chmod(tool.stat().st_mode | stat.S_IXUSR)
    return root, db, tool


def _run(root, db, tool, cache, log, capsys):
    os.environ["FAKE_TIDY_LOG"] = str(log)
    log.write_text("")
    status = clang_tidy_cached.main(
        ["--root", str(root), "--db", str(db), "--cache", str(cache), "--clang-tidy", str(tool), "-j", "2"]
    )
    out = capsys.readouterr().out.splitlines()
    return status, out, sorted(log.read_text().split())


def test_cache_and_include_tracking(tmp_path, capsys):
    root, db, tool = _workspace(tmp_path)
    cache, log = tmp_path / "cache", tmp_path / "log"

    status, out, ran = _run(root, db, tool, cache, log, capsys)
    assert status == 1
    assert out == ["twin/shared.h:1:1: warning: a finding [fake-check]"]  # two files report it: printed once
    assert ran == ["twin/a.cc", "twin/b.cc", "twin/c.cc"]

    status, out, ran = _run(root, db, tool, cache, log, capsys)
    assert (status, ran) == (1, []) and out == ["twin/shared.h:1:1: warning: a finding [fake-check]"]

    (root / "twin" / "only_b.h").write_text("int b(); // FINDING\n")
    status, out, ran = _run(root, db, tool, cache, log, capsys)
    assert ran == ["twin/b.cc"]
    assert out == [
        "twin/only_b.h:1:1: warning: a finding [fake-check]",
        "twin/shared.h:1:1: warning: a finding [fake-check]",
    ]

    (root / "twin" / "shared.h").write_text("// fixed\n")
    (root / "twin" / "only_b.h").write_text("int b();\n")
    status, out, ran = _run(root, db, tool, cache, log, capsys)
    assert (status, out, ran) == (0, [], ["twin/a.cc", "twin/b.cc"])


def test_a_changed_config_reanalyses_everything(tmp_path, capsys):
    root, db, tool = _workspace(tmp_path)
    cache, log = tmp_path / "cache", tmp_path / "log"
    _run(root, db, tool, cache, log, capsys)
    (root / ".clang-tidy").write_text("Checks: fake,other\n")
    assert _run(root, db, tool, cache, log, capsys)[2] == ["twin/a.cc", "twin/b.cc", "twin/c.cc"]


def test_a_missing_source_is_named_with_the_cause(tmp_path, capsys):
    root, db, tool = _workspace(tmp_path)
    (root / "twin" / "c.cc").unlink()
    status = clang_tidy_cached.main(
        ["--root", str(root), "--db", str(db), "--cache", str(tmp_path / "cache"), "--clang-tidy", str(tool)]
    )
    err = capsys.readouterr().err.strip().splitlines()
    assert status == 2 and len(err) == 1 and "twin/c.cc: cannot read" in err[0]
