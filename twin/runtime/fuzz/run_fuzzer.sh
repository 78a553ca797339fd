#!/usr/bin/env bash
# Runs a libFuzzer binary on a copy of its seed corpus.
#   run_fuzzer.sh <fuzzer> <seed files...> -- [libFuzzer flags]
# Without flags: a short CI run (FUZZ_RUNS inputs, default 200000) with a printed seed.
# Longer: bazel run //twin/runtime/fuzz:image_check_fuzz -- -max_total_time=3600
set -euo pipefail
fuzzer=$1
shift
corpus=$(mktemp -d)
trap 'rm -rf "$corpus"' EXIT
while (($#)) && [[ $1 != -- ]]; do
  cp "$1" "$corpus/"
  shift
done
(($#)) && shift  # the --
seed=${FUZZ_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
echo "fuzz seed: $seed (FUZZ_SEED=$seed reproduces)"
if (($#)); then
  exec "$fuzzer" -seed="$seed" "$@" "$corpus"
fi
# Findings land in Bazel's undeclared outputs (test.outputs/), ready to add to fuzz/regressions/.
"$fuzzer" -seed="$seed" -runs="${FUZZ_RUNS:-200000}" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
  -artifact_prefix="${TEST_UNDECLARED_OUTPUTS_DIR:-.}/" "$corpus"
