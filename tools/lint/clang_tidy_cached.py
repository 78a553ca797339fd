"""Runs clang-tidy over compile_commands.json, in parallel, reusing the findings of unchanged files.

A file's result is cached under a key made of: the clang-tidy version, .clang-tidy, the file's
compile command, and the contents of the file and of every header it includes from the
workspace (found by following `#include` lines through the command's include folders; a header
that is not found there is a system header, covered by the clang-tidy version). Scanning
includes costs milliseconds; asking the preprocessor costs half a second per file.
Findings are printed once each (a header's finding is reported by every file including it),
with paths relative to the repository, and counted; the exit status is 1 when there are any.

    python3 clang_tidy_cached.py --root REPO --db compile_commands.json --cache DIR [-j N] [FILE...]
"""

import argparse
import concurrent.futures
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
from typing import Any

_INCLUDE = re.compile(rb'^[ \t]*#[ \t]*include[ \t]*([<"])([^">]+)[">]', re.MULTILINE)
# "path:line:col: warning: message [check]" and the same with error:, as clang-tidy prints them.
_FINDING = re.compile(r"^(?P<path>[^:\s][^:]*):(?P<line>\d+):(?P<col>\d+): (?P<kind>warning|error): (?P<text>.*)$")


class IncludeScanner:
    """The workspace files one translation unit reads, by `#include` lines (memoized per path)."""

    def __init__(self, directory: str):
        self.directory = directory
        self._includes: dict[str, list[tuple[bool, str]]] = {}
        self._digest: dict[str, str] = {}

    def _read(self, path: str) -> bytes:
        with open(os.path.join(self.directory, path), "rb") as f:
            return f.read()

    def digest(self, path: str) -> str:
        if path not in self._digest:
            data = self._read(path)
            self._digest[path] = hashlib.sha256(data).hexdigest()
            self._includes[path] = [(m.group(1) == b'"', m.group(2).decode()) for m in _INCLUDE.finditer(data)]
        return self._digest[path]

    def _resolve(self, includer: str, quoted: bool, name: str, quote_dirs: list[str], dirs: list[str]) -> str | None:
        candidates = ([os.path.dirname(includer)] + quote_dirs if quoted else []) + dirs
        for folder in candidates:
            path = os.path.normpath(os.path.join(folder, name))
            if not path.startswith("/") and os.path.isfile(os.path.join(self.directory, path)):
                return path
        return None

    def closure(self, source: str, arguments: list[str]) -> list[tuple[str, str]]:
        quote_dirs, dirs = _include_dirs(arguments)
        seen: dict[str, str] = {}
        pending = [source]
        while pending:
            path = pending.pop()
            if path in seen:
                continue
            seen[path] = self.digest(path)
            for quoted, name in self._includes[path]:
                found = self._resolve(path, quoted, name, quote_dirs, dirs)
                if found is not None and found not in seen:
                    pending.append(found)
        return sorted(seen.items())


def _include_dirs(arguments: list[str]) -> tuple[list[str], list[str]]:
    quote_dirs: list[str] = []
    dirs: list[str] = []
    for flag, value in zip(arguments, arguments[1:]):
        if flag == "-iquote":
            quote_dirs.append(value)
        elif flag in ("-I", "-isystem"):
            dirs.append(value)
    dirs += [a[2:] for a in arguments if a.startswith("-I") and len(a) > 2]
    return quote_dirs, dirs


def _relative(path: str, roots: list[str]) -> str:
    real = os.path.realpath(path)
    for root in roots:
        if real.startswith(root + os.sep):
            return real[len(root) + 1 :]
    return path


def run_clang_tidy(entry: dict[str, Any], clang_tidy: str, roots: list[str]) -> list[str]:
    """The findings of one file, as 'path:line:col: kind: text [check]' lines."""
    result = subprocess.run(
        [clang_tidy, "--quiet", "-p", entry["db_dir"], entry["file"]],
        cwd=entry["directory"],
        capture_output=True,
        text=True,
    )
    findings = []
    for line in result.stdout.splitlines():
        m = _FINDING.match(line)
        if m:
            path = os.path.join(entry["directory"], m.group("path"))
            findings.append(
                f"{_relative(path, roots)}:{m.group('line')}:{m.group('col')}: {m.group('kind')}: {m.group('text')}"
            )
    if result.returncode != 0 and not any(": error: " in f for f in findings):
        # clang-tidy failed without saying where (a crash, a bad command, an unreadable file): that
        # is a finding too, named by clang's own first error line rather than its closing
        # "Error while processing", which says nothing about the cause.
        output = (result.stdout + result.stderr).strip().splitlines()
        cause = next((line for line in output if "error:" in line), output[-1] if output else "no output")
        findings.append(f"{entry['file']}:1:1: error: clang-tidy exited {result.returncode}: {cause.strip()}")
    return findings


def _write_atomically(path: str, text: str) -> None:
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path), prefix=".tmp.")
    with os.fdopen(fd, "w") as out:
        out.write(text)
    os.replace(tmp, path)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", required=True, help="the repository (where .clang-tidy is)")
    parser.add_argument("--db", required=True, help="compile_commands.json")
    parser.add_argument("--cache", required=True, help="folder for cached results")
    parser.add_argument("--clang-tidy", default="clang-tidy-16")
    parser.add_argument("-j", type=int, default=os.cpu_count() or 1)
    parser.add_argument("files", nargs="*", help="only these sources (repository paths)")
    args = parser.parse_args(argv)

    try:
        with open(args.db) as f:
            entries = json.load(f)
        with open(os.path.join(args.root, ".clang-tidy"), "rb") as f:
            config = f.read()
        version = subprocess.run([args.clang_tidy, "--version"], capture_output=True, text=True, check=True).stdout
    except (OSError, ValueError, subprocess.CalledProcessError) as e:
        print(f"clang-tidy: cannot start: {e}", file=sys.stderr)
        return 2
    os.makedirs(args.cache, exist_ok=True)
    roots = [os.path.realpath(args.root)]
    if args.files:
        wanted = set(args.files)
        entries = [e for e in entries if e["file"] in wanted]

    scanners: dict[str, IncludeScanner] = {}
    todo = []
    findings: dict[str, list[str]] = {}
    for entry in entries:
        entry["db_dir"] = os.path.dirname(os.path.abspath(args.db))
        scanner = scanners.setdefault(entry["directory"], IncludeScanner(entry["directory"]))
        key = hashlib.sha256()
        for part in (version.encode(), config, json.dumps(entry["arguments"]).encode()):
            key.update(hashlib.sha256(part).digest())
        try:
            for path, digest in scanner.closure(entry["file"], entry["arguments"]):
                key.update(f"{path}\0{digest}\0".encode())
        except OSError as e:
            print(f"clang-tidy: {entry['file']}: cannot read: {e} (build the C++ targets first)", file=sys.stderr)
            return 2
        cached = os.path.join(args.cache, key.hexdigest())
        try:
            with open(cached) as f:
                findings[entry["file"]] = json.load(f)
        except (OSError, ValueError):
            todo.append((entry, cached))

    # Each result is cached as soon as it is known, so an interrupted run keeps what it did.
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.j)) as pool:
        futures = {
            pool.submit(run_clang_tidy, entry, args.clang_tidy, roots): (entry, cached) for entry, cached in todo
        }
        for future in concurrent.futures.as_completed(futures):
            entry, cached = futures[future]
            findings[entry["file"]] = future.result()
            # A compile error may come from the execroot rather than the code (a concurrent bazel
            # command re-plants external/): such a result is reported but never cached.
            if not any(": error: " in f for f in findings[entry["file"]]):
                _write_atomically(cached, json.dumps(findings[entry["file"]]))

    unique = sorted({f for found in findings.values() for f in found})
    for line in unique:
        print(line)
    print(
        f"clang-tidy: {len(entries)} files, {len(todo)} analysed, {len(entries) - len(todo)} from cache",
        file=sys.stderr,
    )
    return 1 if unique else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
