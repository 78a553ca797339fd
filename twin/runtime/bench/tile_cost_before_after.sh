#!/bin/sh
# One kernel built twice, with the Ascend C twin headers of a git revision ("before") and with
# the working tree's ("after"), then both timed by tile_cost_bench in the same run (with its
# staged and fused baselines). Run from the repository root:
#
#   twin/runtime/bench/tile_cost_before_after.sh <git revision> [kernel.asc] [bench arguments...]
#
# kernel.asc defaults to the runtime-tiled add (twin/runtime/tests/kernels/add_custom.asc); the
# Ascend C sample, ops/add_custom/kernel/add_custom.asc, takes the same bench.
set -eu
[ $# -ge 1 ] || { echo "usage: $0 <git revision> [kernel.asc] [bench arguments...]" >&2; exit 2; }
rev=$1
shift
kernel=twin/runtime/tests/kernels/add_custom.asc
if [ $# -ge 1 ] && [ "${1%.asc}" != "$1" ]; then
  kernel=$1
  shift
fi
[ -f "$kernel" ] || { echo "$0: no kernel $kernel (run from the repository root)" >&2; exit 2; }
git rev-parse --verify -q "$rev^{commit}" >/dev/null || { echo "$0: $rev is not a git revision" >&2; exit 2; }

bazel build -c opt //tools/bisheng:bisheng //twin/runtime/bench:tile_cost_bench >/dev/null 2>&1 ||
  { echo "$0: bazel build of bisheng and tile_cost_bench failed" >&2; exit 1; }
root=$(pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
llvm=$(dirname "$(readlink -f "$(command -v clang-16)")")

# A header root as bisheng finds one through ASCEND_HOME_PATH: <root>/asc/include with the twin's
# Ascend C and ABI headers.
for side in before after; do
  mkdir -p "$work/$side/asc/include" "$work/$side/src"
  if [ $side = before ]; then
    git archive "$rev" twin/asc/include twin/abi/include | tar -x -C "$work/$side/src"
  else
    mkdir -p "$work/$side/src/twin/asc" "$work/$side/src/twin/abi"
    cp -r twin/asc/include "$work/$side/src/twin/asc/" && cp -r twin/abi/include "$work/$side/src/twin/abi/"
  fi
  cp -r "$work/$side/src/twin/asc/include/." "$work/$side/asc/include/"
  cp -r "$work/$side/src/twin/abi/include/." "$work/$side/asc/include/"
  ASCEND_HOME_PATH="$work/$side" BISHENG_CLANG="$llvm/clang" BISHENG_LLD="$llvm/ld.lld" \
    BISHENG_OBJCOPY="$llvm/llvm-objcopy" "$root/bazel-bin/tools/bisheng/bisheng" --npu-arch=dav-2201 \
    -c "$root/$kernel" -o "$work/$side.host.o"
  "$llvm/llvm-objcopy" -O binary --only-section=.aicore_binary "$work/$side.host.o" "$work/$side.aicore.o"
done
"$root/bazel-bin/twin/runtime/bench/tile_cost_bench" --image="before=$work/before.aicore.o" \
  --image="after=$work/after.aicore.o" "$@"
