#!/usr/bin/env bash
# Formatters and linters over the repository (README.md "Linters").
#   tools/lint.sh          check: prints each finding, then one summary line per tool with its
#                          count; exits 1 when any tool found anything
#   tools/lint.sh --fix    formats in place: clang-format, buildifier (format and its safe lint
#                          fixes), ruff's import sorting, then ruff format; then checks as above
# Tools: buildifier (BUILD/.bzl), ruff format (the Python formatter) and ruff check (Python lint),
# mypy (the public Python packages), clang-format
# and clang-tidy (C++; clang-tidy over compile_commands.json from `bazel aquery`, results cached
# per file in $ASCEND_TWIN_HOME/clang-tidy, so an unchanged tree is checked in seconds).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
fix=0
case ${1:-} in
  --fix) fix=1 ;;
  "") ;;
  *) echo "usage: tools/lint.sh [--fix]" >&2; exit 2 ;;
esac
bash "$root/tools/bootstrap.sh"
cd "$root"
venv=${ASCEND_TWIN_VENV:-/opt/ascend-twin-venv}
twin_home=${ASCEND_TWIN_HOME:-${XDG_CACHE_HOME:-$HOME/.cache}/ascend-twin}
buildifier=${ASCEND_TWIN_LINT_TOOLS:-/opt/ascend-twin-lint}/node_modules/@bazel/buildifier/buildifier-linux_amd64
jobs=$(nproc)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The files each tool owns: tracked ones plus new ones not ignored (what a commit would hold).
git ls-files -z --cached --others --exclude-standard | tr '\0' '\n' | sort -u > "$work/files"
filter() { grep -E "$1" "$work/files" | while read -r f; do [[ -f $f ]] && echo "$f"; done || true; }
filter '(^|/)(BUILD(\.bazel)?|WORKSPACE(\.bazel)?|[^/]*\.bzl)$' | grep -v '^tools/bazel/rules_' > "$work/starlark" || true
filter '\.(cc|h|cpp|hpp|c)$' > "$work/cxx"

summary=()
total=0
report() {  # report TOOL COUNT FILE-OF-FINDINGS
  [[ -s $3 ]] && cat "$3"
  summary+=("$(printf '%-13s %4d finding(s)' "$1:" "$2")")
  total=$((total + $2))
}

if ((fix)); then
  xargs -a "$work/cxx" -P "$jobs" -n 20 clang-format-16 -i
  xargs -a "$work/starlark" "$buildifier" --mode=fix --lint=fix
  "$venv/bin/ruff" check --quiet --fix --select I . || true  # import order first: format lays out what it leaves
  "$venv/bin/ruff" format --quiet . || true
fi

# buildifier: formatting ("needs reformatting") and lint warnings, one line each.
"$buildifier" --mode=check --lint=warn $(cat "$work/starlark") > "$work/bzl.raw" 2>&1 || true
grep -E '^[^ ]+(:[0-9]+:| # reformat)' "$work/bzl.raw" | sed -E 's/ \(https:[^)]*\)$//' > "$work/bzl" || true
report buildifier "$(wc -l < "$work/bzl")" "$work/bzl"

# ruff format: each Python file the formatter would change, one line each (ruff.toml [format]).
"$venv/bin/ruff" format --check --quiet --output-format concise . > "$work/rfmt" 2>&1 || true
grep -E '^[^ ]+:[0-9]+:[0-9]+: ' "$work/rfmt" > "$work/rfmt.found" || true
if [[ ! -s $work/rfmt.found && -s $work/rfmt ]]; then cp "$work/rfmt" "$work/rfmt.found"; fi  # ruff itself failed
report ruff-format "$(wc -l < "$work/rfmt.found")" "$work/rfmt.found"

# ruff: pyflakes, pycodestyle, isort (ruff.toml).
"$venv/bin/ruff" check --quiet --output-format concise . > "$work/ruff" 2>&1 || true
grep -E '^[^ ]+:[0-9]+:[0-9]+: ' "$work/ruff" > "$work/ruff.found" || true
if [[ ! -s $work/ruff.found && -s $work/ruff ]]; then cp "$work/ruff" "$work/ruff.found"; fi  # ruff itself failed
report ruff "$(wc -l < "$work/ruff.found")" "$work/ruff.found"

# mypy: the public Python packages (mypy.ini).
"$venv/bin/mypy" --cache-dir "$twin_home/mypy-cache" -p ge -p acl -p ascendc_jit -p bisheng_driver \
  > "$work/mypy.raw" 2>&1 || true
grep -E '^[^ ]+:[0-9]+: error: ' "$work/mypy.raw" > "$work/mypy" || true
if [[ ! -s $work/mypy ]] && ! grep -q '^Success' "$work/mypy.raw"; then cp "$work/mypy.raw" "$work/mypy"; fi
report mypy "$(wc -l < "$work/mypy")" "$work/mypy"

# clang-format: each file whose formatting differs, at its first differing line (many files per
# process: a process per file took minutes on a loaded machine; one at a time, so that their
# reports do not interleave).
xargs -a "$work/cxx" -n 100 clang-format-16 --dry-run -Werror --ferror-limit=1 2>&1 |
  grep -E '^[^ ]+:[0-9]+:[0-9]+: error: ' | sort > "$work/cf" || true
report clang-format "$(wc -l < "$work/cf")" "$work/cf"

# clang-tidy: compile flags from Bazel's own CppCompile actions; the generated headers and
# virtual include folders those flags name are built first (no object is compiled for this).
# ASCEND_TWIN_LINT_TIDY: enforce (default: findings fail the run), report (printed and counted
# apart, not failing), off (skipped; .ci/run, while the tree still has open clang-tidy findings).
tidy_mode=${ASCEND_TWIN_LINT_TIDY:-enforce}
case $tidy_mode in enforce|report|off) ;; *) echo "ASCEND_TWIN_LINT_TIDY must be enforce, report or off, not '$tidy_mode'" >&2; exit 2 ;; esac
if [[ $tidy_mode == off ]]; then
  summary+=("$(printf '%-13s  skipped (ASCEND_TWIN_LINT_TIDY=off)' "clang-tidy:")")
else
targets=(//twin/... //offline/... //ops/... //tests/... //tools/...)
# CppCompile actions, and the genrules some sources are compiled by (test kernels, fuzzers).
query="mnemonic(\"CppCompile|Genrule\", $(IFS=+; echo "${targets[*]}"))"
: > "$work/tidy"
if bazel build -k --output_groups=compilation_prerequisites_INTERNAL_ "${targets[@]}" > "$work/bazel.log" 2>&1 &&
   bazel aquery "$query" --output=jsonproto > "$work/aquery.json" 2>> "$work/bazel.log" &&
   python3 tools/lint/compile_commands.py --aquery "$work/aquery.json" \
     --execroot "$(bazel info execution_root 2>/dev/null)" --out "$root/compile_commands.json" \
     --sources "$work/cxx" > "$work/tidy.unanalysed"; then
  python3 tools/lint/clang_tidy_cached.py --root "$root" --db "$root/compile_commands.json" \
    --cache "$twin_home/clang-tidy" -j "$jobs" > "$work/tidy" || true
  cat "$work/tidy.unanalysed" >> "$work/tidy"
else
  tail -20 "$work/bazel.log" >&2
  echo "clang-tidy: could not get the compile commands from Bazel (log above)" > "$work/tidy"
fi
if [[ $tidy_mode == report ]]; then
  [[ -s $work/tidy ]] && cat "$work/tidy"
  summary+=("$(printf '%-13s %4d finding(s), reported only (ASCEND_TWIN_LINT_TIDY=report)' "clang-tidy:" "$(wc -l < "$work/tidy")")")
else
  report clang-tidy "$(wc -l < "$work/tidy")" "$work/tidy"
fi
fi

printf '%s\n' "${summary[@]}"
if ((total)); then
  echo "lint: $total finding(s); \`tools/lint.sh --fix\` formats; see README.md \"Linters\" to suppress one" >&2
  exit 1
fi
echo "lint: clean"
