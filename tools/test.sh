#!/usr/bin/env bash
# Runs every test: bootstrap (installs what is missing), then `bazel test //...`.
# Extra arguments replace the target pattern and flags (e.g. `tools/test.sh //twin/...`).
# Ends with one line "N passed, M failed" summarizing Bazel's test targets.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bash "$root/tools/bootstrap.sh"
cd "$root"
(($#)) || set -- //...
log=$(mktemp)
trap 'rm -f "$log"' EXIT
set +e
bazel test "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
set -e
# Bazel's per-target summary lines: "//pkg:target   PASSED in 1.2s", "(cached) PASSED", "FAILED", ...
clean=$(sed 's/\x1b\[[0-9;]*m//g' "$log")
passed=$(grep -cE '^//[^ ]+ +(\(cached\) )?PASSED' <<<"$clean" || true)
failed=$(grep -cE '^//[^ ]+ +(\(cached\) )?(FAILED|TIMEOUT|NO STATUS|FLAKY|INCOMPLETE|FAILED TO BUILD)' <<<"$clean" || true)
printf "\n%s passed, %s failed\n" "$passed" "$failed"
exit "$status"
