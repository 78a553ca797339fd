#!/bin/bash
# The cube APIs refuse dtype combinations the A2/A3 cube does not have at compile time, as
# bisheng does, with one message naming the API and the supported combinations.
set -euo pipefail
clang="external/llvm_toolchain/bin/clang++"
out="${TEST_TMPDIR:-/tmp}/cube_type_errors"
mkdir -p "$out"
expect_error() {  # expect_error NAME 'statement' 'message'
  printf '#include "kernel_operator.h"\nusing namespace AscendC;\nvoid f(LocalTensor<float> f32, LocalTensor<half> f16, LocalTensor<int8_t> i8, LocalTensor<int32_t> i32, GlobalTensor<int32_t> gi32, GlobalTensor<half> gf16) { %s; }\n' "$2" > "$out/$1.cpp"
  if "$clang" -std=c++17 -fsyntax-only -D__NPU_ARCH__=2201 -Itwin/asc/include -Itwin/abi/include "$out/$1.cpp" 2> "$out/$1.err"; then
    echo "FAIL: $1 compiled"; exit 1
  fi
  grep -qF "$3" "$out/$1.err" || { echo "FAIL: $1: no '$3' in:"; cat "$out/$1.err"; exit 1; }
}
expect_error mmad_half_int8 'Mmad(f32, f16, i8, MmadParams())' 'Mmad: supported (dst, fm, filter) are'
expect_error mmad_int8_to_float 'Mmad(f32, i8, i8, MmadParams())' 'Mmad: supported (dst, fm, filter) are'
expect_error mmad_bias_type 'Mmad(f32, f16, f16, f16, MmadParams())' 'Mmad with bias: the bias type must be the dst type'
expect_error fixpipe_pair 'Fixpipe(gi32, f32, FixpipeParamsV220())' 'Fixpipe: (dst, src) must be'
expect_error fixpipe_column_major 'Fixpipe<half, float, CFG_COLUMN_MAJOR>(gf16, f32, FixpipeParamsV220())' 'CFG_COLUMN_MAJOR needs NpuArch 3510'
echo "PASS: every refused cube dtype combination fails to compile with its message"
