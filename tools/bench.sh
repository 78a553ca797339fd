#!/usr/bin/env bash
# Runs every benchmark once (-c opt) and prints each one's table, then the performance table of
# all goals (tests/bench/perf_table.py) with ratios from this one run. Asserts nothing about time.
#   tools/bench.sh            (about 5 minutes on 2 cores; run it on a quiet machine)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bash "$root/tools/bootstrap.sh"
cd "$root"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

run() {  # run <json name> <target> [args...]
  local name=$1 target=$2
  shift 2
  echo "== $target"
  if ! bazel run -c opt --ui_event_filters=-info,-stdout,-stderr --noshow_progress "$target" -- \
      --json-out "$out/$name.json" "$@"; then
    echo "bench: $target failed; its rows are left out" >&2
  fi
  echo
}

run online //ops/add_custom:bench_add_custom
run offline //offline/bench:offline_bench
run runtime //twin/runtime/bench:add_bench
echo "== bisheng compile time"
python3 tests/bench/bisheng_compile_bench.py --json-out "$out/compile.json" ||
  echo "bench: bisheng_compile_bench failed; its rows are left out" >&2
python3 tests/bench/perf_table.py --online "$out/online.json" --offline "$out/offline.json" \
  --runtime "$out/runtime.json" --compile "$out/compile.json"
