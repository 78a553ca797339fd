#!/usr/bin/env bash
# Runs every test: bootstrap (installs what is missing), then `bazel test //...`.
# Extra arguments go to `bazel test` (e.g. a narrower pattern after `--`).
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
bash "$root/tools/bootstrap.sh"
cd "$root"
if (($#)); then
  exec bazel test "$@"
fi
exec bazel test //...
