// Opcodes and entry points of the test kernels (test_kernels.cpp).
#ifndef ASC_TWIN_TESTS_TEST_KERNELS_H_
#define ASC_TWIN_TESTS_TEST_KERNELS_H_

#include <cstddef>
#include <cstdint>

#include "asc_twin/aicore_abi.h"

namespace asc_twin_test {
enum BinaryOp : uint32_t { kAdd, kSub, kMul, kDiv, kMax, kMin, kExprAdd, kExprMul, kBinaryOpCount };
enum UnaryOp : uint32_t { kAbs, kRelu, kExp, kLn, kSqrt, kRsqrt, kReciprocal, kUnaryOpCount };
enum ScalarOp : uint32_t { kAdds, kMuls, kMaxs, kMins, kLeakyRelu, kScalarOpCount };

// By-value tiling struct, as direct-launch kernels take it.
struct ArgsTiling {
  uint32_t a;
  uint16_t b;
  uint64_t c;
};
}  // namespace asc_twin_test

#define ASC_TWIN_DECLARE_ENTRY(name)                                                                  \
  extern "C" int __asc_twin_entry_##name(const AscTwinBlockEnv*, const void*, size_t, char*, size_t); \
  extern "C" const AscTwinKernelInfo __asc_twin_info_##name;

// (x, y, z, total, tile, op) with depth-2 double buffering, or depth 1 (_d1).
ASC_TWIN_DECLARE_ENTRY(binary_f32)
ASC_TWIN_DECLARE_ENTRY(binary_f16)
ASC_TWIN_DECLARE_ENTRY(binary_i32)
ASC_TWIN_DECLARE_ENTRY(binary_i16)
ASC_TWIN_DECLARE_ENTRY(binary_f32_d1)
// (x, z, total, tile, op)
ASC_TWIN_DECLARE_ENTRY(unary_f32)
ASC_TWIN_DECLARE_ENTRY(unary_f16)
ASC_TWIN_DECLARE_ENTRY(unary_i32)
// (x, z, total, tile, op, scalar T)
ASC_TWIN_DECLARE_ENTRY(scalar_f32)
ASC_TWIN_DECLARE_ENTRY(scalar_f16)
ASC_TWIN_DECLARE_ENTRY(scalar_i32)
ASC_TWIN_DECLARE_ENTRY(scalar_i16)
// (z, total, tile, value T)
ASC_TWIN_DECLARE_ENTRY(duplicate_f32)
ASC_TWIN_DECLARE_ENTRY(duplicate_f16)
ASC_TWIN_DECLARE_ENTRY(duplicate_i32)
ASC_TWIN_DECLARE_ENTRY(duplicate_bf16)
// (x, z, total, tile, roundMode)
ASC_TWIN_DECLARE_ENTRY(cast_f16_f32)
ASC_TWIN_DECLARE_ENTRY(cast_bf16_f32)
ASC_TWIN_DECLARE_ENTRY(cast_f32_f16)
ASC_TWIN_DECLARE_ENTRY(cast_f32_bf16)
ASC_TWIN_DECLARE_ENTRY(cast_f32_i32)
ASC_TWIN_DECLARE_ENTRY(cast_f16_i32)
ASC_TWIN_DECLARE_ENTRY(cast_i32_f32)
ASC_TWIN_DECLARE_ENTRY(cast_f32_f32)
// (x, z, ubDump, rows, cols, isPad, left, right, padValue, gmGap)
ASC_TWIN_DECLARE_ENTRY(pad_copy_f16)
// (x, z, blockCount, blockLen, srcGap, dstGap)
ASC_TWIN_DECLARE_ENTRY(strided_copy_f32)
// (out, int8, int64, float, double, ArgsTiling, half, uint16)
ASC_TWIN_DECLARE_ENTRY(args_probe)
// (x, z, total): TBuf, LocalMemAllocator, GetTPipePtr, Reset, UB->UB copy, GetValue/SetValue
ASC_TWIN_DECLARE_ENTRY(misc_api)
// (x, z, n, which): one trap per `which`
ASC_TWIN_DECLARE_ENTRY(trap_probe)
// (x, z, n): a C++ exception that is not a Trap
ASC_TWIN_DECLARE_ENTRY(throws_std)

// (out): where the block's API calls find its state; two int32 per block (see test_kernels.cpp)
ASC_TWIN_DECLARE_ENTRY(block_slot_probe)

// 1 when the kernels were compiled to read a host's block slot (clang on x86-64), else 0.
extern "C" int asc_twin_test_kernels_read_block_slot();

// Store fences the kernels' block ends issued on the calling thread so far.
extern "C" uint64_t asc_twin_test_block_end_fences();

#endif  // ASC_TWIN_TESTS_TEST_KERNELS_H_
