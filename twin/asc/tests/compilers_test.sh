#!/bin/bash
# Compiles the test kernels (all twin headers) with clang-16 and g++ at
# -Wall -Wextra -Werror, like bisheng: -std=c++17 -O2 -fPIC -shared, and checks
# that every kernel exports its entry and info symbols with default visibility.
set -euo pipefail
clang="external/llvm_toolchain/bin/clang++"
src="twin/asc/tests/test_kernels.cpp"
out="${TEST_TMPDIR:-/tmp}/asc_compilers_test"
mkdir -p "$out"
flags=(-std=c++17 -O2 -fPIC -shared -Wall -Wextra -Werror -D__NPU_ARCH__=2201
       -Itwin/asc/include -Itwin/abi/include -Itwin/asc/tests)
"$clang" "${flags[@]}" "$src" -o "$out/kernels_clang.so"
g++ "${flags[@]}" "$src" -o "$out/kernels_gcc.so"
for so in "$out/kernels_clang.so" "$out/kernels_gcc.so"; do
  syms=$(nm -D --defined-only "$so")
  for k in binary_f32 unary_f16 cast_f32_f16 pad_copy_f16 args_probe trap_probe; do
    grep -q " T __asc_twin_entry_${k}$" <<<"$syms" || { echo "FAIL: $so lacks __asc_twin_entry_${k}"; exit 1; }
    grep -q " R __asc_twin_info_${k}$" <<<"$syms" || { echo "FAIL: $so lacks __asc_twin_info_${k}"; exit 1; }
  done
done
# Without __NPU_ARCH__ the headers still compile (arch defaults to 2201 constants).
"$clang" -std=c++17 -fsyntax-only -Wall -Wextra -Werror -Itwin/asc/include -Itwin/abi/include -Itwin/asc/tests "$src"
echo "PASS: clang-16 and g++ build the kernels warning-free; entries exported"
