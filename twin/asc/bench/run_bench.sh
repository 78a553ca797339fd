#!/bin/sh
# Runs softmax_norm_bench.py with the venv's numpy on the binary Bazel built beside it.
set -e
here="${RUNFILES_DIR:-$0.runfiles}/ascend_twin/twin/asc/bench"
[ -d "$here" ] || here="$(dirname "$0")"
exec /opt/ascend-twin-venv/bin/python3 "$here/softmax_norm_bench.py" --binary "$here/softmax_norm_bench_bin.exe" "$@"
