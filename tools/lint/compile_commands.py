"""Writes compile_commands.json for the repository's C++ sources from `bazel aquery` output.

Bazel 4.2.3 has no built-in generator, so this reads the CppCompile actions of
`bazel aquery --output=jsonproto` (the exact flags Bazel compiles with) and keeps one entry per
source file of the repository (generated sources are skipped: they are not ours to lint).
The flags are made clang-tidy's: gcc-only options dropped, dependency-file and output options
dropped, and the repository's include folders passed with -I instead of -isystem so that
clang-tidy reports findings in our headers too (it stays quiet about system headers).

    python3 compile_commands.py --aquery aquery.json --execroot DIR --out compile_commands.json
"""
import argparse
import json
import os
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


def compile_commands(aquery: dict[str, Any], execroot: str) -> list[dict[str, Any]]:
    """One entry per repository source file, in a stable order (the first action wins)."""
    if not isinstance(aquery.get("actions"), list):
        raise AqueryError("no 'actions' list (was it run with --output=jsonproto?)")
    by_source: dict[str, dict[str, Any]] = {}
    for action in aquery["actions"]:
        if action.get("mnemonic") != "CppCompile":
            continue
        arguments = action.get("arguments")
        if not isinstance(arguments, list) or not arguments:
            raise AqueryError("a CppCompile action has no arguments")
        source = _source_of(arguments)
        if source.startswith(_GENERATED_PREFIXES) or source in by_source:
            continue
        by_source[source] = {"directory": execroot, "file": source, "arguments": clang_tidy_arguments(arguments)}
    return [by_source[s] for s in sorted(by_source)]


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
    args = parser.parse_args(argv)
    try:
        with open(args.aquery) as f:
            aquery = json.load(f)
        entries = compile_commands(aquery, args.execroot)
    except (OSError, ValueError, AqueryError) as e:
        print(f"compile_commands: {args.aquery}: {e}", file=sys.stderr)
        return 1
    write_atomically(args.out, json.dumps(entries, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
