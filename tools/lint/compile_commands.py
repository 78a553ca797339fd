"""Writes compile_commands.json for the repository's C++ sources from `bazel aquery` output.

Bazel 4.2.3 has no built-in generator, so this reads the CppCompile actions of
`bazel aquery --output=jsonproto` (the exact flags Bazel compiles with) and keeps one entry per
source file of the repository (generated sources are skipped: they are not ours to lint).
Sources that genrules compile with clang (the hand-written test kernels, the libFuzzer fuzzers,
benchmarks built the way bisheng builds kernels) get the flags of that clang command, read from
the Genrule action's shell text. The flags are made clang-tidy's: gcc-only options dropped,
dependency-file, output and link options dropped, and the repository's include folders passed
with -I instead of -isystem so that clang-tidy reports findings in our headers too (it stays quiet
about system headers).

With --sources (the repository's C and C++ sources, one a line), every source that has no
compile command and is not in NOT_HOST_CXX is printed as a finding, so none goes unanalysed
without saying so.

    python3 compile_commands.py --aquery aquery.json --execroot DIR --out compile_commands.json \
        [--sources FILE]
"""

import argparse
import json
import os
import re
import shlex
import sys
import tempfile
from typing import Any

# gcc accepts these, clang does not know them (clang-tidy would report each as an error).
_GCC_ONLY_FLAGS = {
    "-fno-canonical-system-headers",
    "-Wunused-but-set-parameter",
    "-Wno-free-nonheap-object",
}
# Flags whose value is the next argument and that only concern the object or dependency file.
_FLAGS_WITH_OUTPUT_VALUE = {"-MF", "-o"}
_GENERATED_PREFIXES = ("bazel-out/", "external/")
_SOURCE_SUFFIXES = (".cc", ".cpp", ".cxx", ".c")
# A genrule's compiler: clang or clang++ by any path, optionally versioned (clang-16).
_CLANG = re.compile(r"(^|/)clang(\+\+)?(-[0-9]+)?$")
# Of a genrule's clang command, the flags that shape how a source parses (the rest link or name
# outputs); the ones whose value is the next word are listed apart.
_PARSE_FLAG_PREFIXES = ("-std=", "-D", "-U", "-I", "-W", "-f", "-O", "-m", "--driver-mode=", "-nostdinc")
_PARSE_FLAGS_WITH_VALUE = {"-x", "-isystem", "-iquote", "-idirafter", "-include"}
_LINK_FLAG_PREFIXES = ("-Wl,", "-fuse-ld=")

# C and C++ files in the repository that no Bazel action compiles as host C++, and why. These
# are CANN users' projects kept as test data: the tests build them with their own CMake against
# an installed tree, and they include headers that build generates (aclrtlaunch_<kernel>.h,
# es_<ops>.h, the kernel's <<<>>> launch stubs), so outside that build there is no compile
# command that could parse them; their tests build and run them instead.
NOT_HOST_CXX = (
    "tests/asc_programs/project_",  # CMake projects with .asc kernels and <<<>>> launches
    "tests/cann_consumer/",  # a CANN user's custom-operator project (OPP, GE, ACL)
    "twin/es/tests/testdata/cann_project/",  # a user project over the generated es_*.h headers
    "tools/bisheng/tests/testdata/",  # inputs of the bisheng driver's own tests (bisheng compiles them)
)


class AqueryError(Exception):
    """The aquery output is not what `bazel aquery --output=jsonproto` writes."""


def _source_of(arguments: list[str]) -> str:
    if "-c" not in arguments or arguments.index("-c") + 1 >= len(arguments):
        raise AqueryError(f"a CppCompile action has no '-c SOURCE': {' '.join(arguments[:8])} ...")
    return arguments[arguments.index("-c") + 1]


def clang_tidy_arguments(arguments: list[str]) -> list[str]:
    """The compile command of one action, as clang-tidy should parse it."""
    kept: list[str] = []
    skip_next = False
    for i, arg in enumerate(arguments):
        if skip_next:
            skip_next = False
            continue
        if arg in _FLAGS_WITH_OUTPUT_VALUE:
            skip_next = True
            continue
        if arg in _GCC_ONLY_FLAGS or arg in ("-MD", "-MMD") or arg.startswith("-frandom-seed="):
            continue
        if arg == "-isystem" and i + 1 < len(arguments) and not arguments[i + 1].startswith(_GENERATED_PREFIXES):
            kept.append("-I")
            continue
        kept.append(arg)
    # clang's driver picks C or C++ from the file name, as gcc's did.
    kept[0] = "clang-16"
    return kept


def genrule_compiles(command: str) -> list[tuple[str, list[str]]]:
    """(source, compile command) of each repository source a genrule's shell text hands to clang.

    The text is split into simple commands at ; && || | and parentheses; a command whose first
    word is clang compiles each of its C/C++ source words with the parse flags around them.
    Commands that name their compiler through a shell variable are not read (their sources are
    compiled by a literal clang command elsewhere, or are reported as having none)."""
    lexer = shlex.shlex(command, posix=True, punctuation_chars=";&|()")
    lexer.whitespace_split = True
    try:
        words = list(lexer)
    except ValueError as e:
        raise AqueryError(f"a Genrule command does not split as shell words: {e}") from e
    commands: list[list[str]] = [[]]
    for word in words:
        if word and set(word) <= set(";&|()"):
            commands.append([])
        else:
            commands[-1].append(word)
    found = []
    for words in commands:
        if not words or not _CLANG.search(words[0]):
            continue
        flags: list[str] = []
        sources: list[str] = []
        i = 1
        while i < len(words):
            word = words[i]
            if word in _PARSE_FLAGS_WITH_VALUE and i + 1 < len(words):
                flags += [word, words[i + 1]]
                i += 1
            elif word in _FLAGS_WITH_OUTPUT_VALUE:
                i += 1
            elif word.startswith(_PARSE_FLAG_PREFIXES) and not word.startswith(_LINK_FLAG_PREFIXES):
                flags.append(word)
            elif not word.startswith("-") and word.endswith(_SOURCE_SUFFIXES):
                sources.append(word)
            i += 1
        found += [(source, clang_tidy_arguments(["clang", *flags, "-c", source])) for source in sources]
    return found


def compile_commands(aquery: dict[str, Any], execroot: str) -> list[dict[str, Any]]:
    """One entry per repository source file, in a stable order (the first action wins; a
    CppCompile action before any genrule's clang command)."""
    if not isinstance(aquery.get("actions"), list):
        raise AqueryError("no 'actions' list (was it run with --output=jsonproto?)")
    by_source: dict[str, dict[str, Any]] = {}
    genrules: list[tuple[str, list[str]]] = []
    for action in aquery["actions"]:
        if action.get("mnemonic") not in ("CppCompile", "Genrule"):
            continue
        arguments = action.get("arguments")
        if not isinstance(arguments, list) or not arguments:
            raise AqueryError(f"a {action['mnemonic']} action has no arguments")
        if action["mnemonic"] == "Genrule":
            genrules += genrule_compiles(arguments[-1])
            continue
        source = _source_of(arguments)
        if source.startswith(_GENERATED_PREFIXES) or source in by_source:
            continue
        by_source[source] = {"directory": execroot, "file": source, "arguments": clang_tidy_arguments(arguments)}
    for source, arguments in genrules:
        if not source.startswith(_GENERATED_PREFIXES) and source not in by_source:
            by_source[source] = {"directory": execroot, "file": source, "arguments": arguments}
    return [by_source[s] for s in sorted(by_source)]


def unanalysed(entries: list[dict[str, Any]], sources: list[str]) -> list[str]:
    """The sources with no compile command that NOT_HOST_CXX does not account for."""
    compiled = {e["file"] for e in entries}
    return [s for s in sources if s.endswith(_SOURCE_SUFFIXES) and s not in compiled and not s.startswith(NOT_HOST_CXX)]


def write_atomically(path: str, text: str) -> None:
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".compile_commands.")
    try:
        with os.fdopen(fd, "w") as out:
            out.write(text)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--aquery", required=True, help="bazel aquery --output=jsonproto output")
    parser.add_argument("--execroot", required=True, help="bazel info execution_root")
    parser.add_argument("--out", required=True)
    parser.add_argument("--sources", help="the repository's C/C++ files, one a line: report those not analysed")
    args = parser.parse_args(argv)
    try:
        with open(args.aquery) as f:
            aquery = json.load(f)
        entries = compile_commands(aquery, args.execroot)
        sources = []
        if args.sources:
            with open(args.sources) as f:
                sources = f.read().split()
    except (OSError, ValueError, AqueryError) as e:
        print(f"compile_commands: {args.aquery}: {e}", file=sys.stderr)
        return 1
    write_atomically(args.out, json.dumps(entries, indent=1) + "\n")
    for source in unanalysed(entries, sources):
        print(
            f"{source}:1:1: error: no compile command: no Bazel action compiles it, so clang-tidy cannot "
            "analyse it (build it, or list it in tools/lint/compile_commands.py NOT_HOST_CXX with the reason)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
