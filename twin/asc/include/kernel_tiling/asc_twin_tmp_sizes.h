// The twin's temporary-space model of Ascend C's element-wise high-level APIs, shared by the
// host (Get<Api>MaxMinTmpSize / Get<Api>TmpBufferFactorSize in libtiling_api.a) and the kernel
// headers (which trap when a sharedTmpBuffer is smaller than the minimum), so both sides agree.
//
// CANN's factor form: tmp bytes = maxLiveNodeCount * count * typeSize + extraBuf. The NPU code
// loops over the source in slices that fit the buffer; the smallest slice is one 256-byte
// repeat, so the minimum is maxLiveNodeCount * min(256, count * typeSize rounded up to 32 B)
// + extraBuf and the maximum (one slice for the whole source) uses the whole count.
#ifndef ASC_TWIN_KERNEL_TILING_ASC_TWIN_TMP_SIZES_H_
#define ASC_TWIN_KERNEL_TILING_ASC_TWIN_TMP_SIZES_H_

#include <cstdint>

namespace asc_twin_tmp {

struct TmpFactor {
  uint32_t maxLiveNodeCount;  // temporaries of count elements of typeSize bytes each
  uint32_t extraBuf;          // bytes on top of them
};

constexpr uint32_t kRepeatBytes = 256;  // one vector repeat
constexpr uint32_t kBlockBytes = 32;    // UB allocation unit

constexpr uint64_t AlignBlock(uint64_t bytes) { return (bytes + kBlockBytes - 1) / kBlockBytes * kBlockBytes; }

// fp32 temporaries an API keeps live per element (its NPU algorithm's live nodes); 16-bit inputs
// are widened to fp32 first, so they also hold the widened source and result, and each fp32
// node counts twice in units of a 2-byte element.
constexpr TmpFactor FloatNodes(uint32_t typeSize, uint32_t fp32Nodes) {
  if (fp32Nodes == 0) return {0, 0};
  return typeSize >= 4 ? TmpFactor{fp32Nodes, 0} : TmpFactor{2 * (fp32Nodes + 2), 0};
}

constexpr uint64_t MaxTmpBytes(TmpFactor f, uint64_t count, uint32_t typeSize) {
  if (count == 0 || f.maxLiveNodeCount == 0) return f.extraBuf;
  return f.maxLiveNodeCount * AlignBlock(count * typeSize) + f.extraBuf;
}

constexpr uint64_t MinTmpBytes(TmpFactor f, uint64_t count, uint32_t typeSize) {
  if (count == 0 || f.maxLiveNodeCount == 0) return f.extraBuf;
  const uint64_t slice = AlignBlock(count * typeSize) < kRepeatBytes ? AlignBlock(count * typeSize) : kRepeatBytes;
  return f.maxLiveNodeCount * slice + f.extraBuf;
}

// Sum / Mean over rows of n elements: one fp32 partial per 256-byte repeat of a row (the NPU
// reduces repeat by repeat, then the partials).
constexpr uint64_t SumTmpBytes(uint64_t n, uint32_t typeSize) {
  return n == 0 ? 0 : AlignBlock((n * typeSize + kRepeatBytes - 1) / kRepeatBytes * 4);
}

// ReduceSum/Max/Min/Prod/Mean/All/Any (reduce.h): one fp32 accumulator per output element.
constexpr uint64_t ReduceTmpBytes(uint64_t outCount) { return AlignBlock(outCount * 4); }

// Select with a byte mask: the mask cast to half for the [m, k] source (the NPU's Cast step).
constexpr uint64_t SelectTmpBytes(uint64_t m, uint64_t k) { return AlignBlock(m * k * 2); }

// DropOut: the mask expanded to one byte per source element (bit mode), at least one block.
constexpr uint64_t DropOutTmpBytes(uint64_t elements) { return AlignBlock(elements == 0 ? 1 : elements); }

// fp32 live nodes per API (X-macro: name, nodes). An API absent here needs no temporary space.
// (X-macro lists laid out by hand: the formatter never settles on them.)
// clang-format off
#define ASC_TWIN_ELEMENTWISE_TMP_APIS(X) \
  X(Acos, 3) X(Acosh, 2) X(Asin, 3) X(Asinh, 2) X(Atan, 4) X(Atanh, 2) X(Cos, 3) X(Cosh, 2)  \
  X(Sin, 3) X(Sinh, 2) X(Tan, 4) X(Tanh, 2) X(SinCos, 4) X(Erf, 3) X(Erfc, 4) X(Exp, 2)      \
  X(Log, 1) X(Digamma, 6) X(Lgamma, 6) X(Sign, 2) X(Frac, 1) X(Ceil, 1) X(Floor, 1)          \
  X(Trunc, 1) X(Round, 1) X(Rint, 1) X(Clamp, 1) X(Axpy, 2) X(Hypot, 3) X(Fmod, 3)           \
  X(Fma, 1) X(Xor, 1) X(Power, 4) X(Sigmoid, 2) X(Gelu, 2) X(Swish, 1) X(Silu, 1)            \
  X(SwiGLU, 3) X(GeGLU, 3) X(ReGlu, 1) X(IsInf, 1) X(IsNan, 1) X(Where, 1)                   \
  X(BitwiseAnd, 0) X(BitwiseOr, 0) X(BitwiseNot, 0) X(BitwiseXor, 0) X(LogicalAnd, 1)        \
  X(LogicalAnds, 1) X(LogicalOr, 1) X(LogicalOrs, 1) X(LogicalNot, 1) X(LogicalXor, 1)
// clang-format on

namespace nodes {
#define ASC_TWIN_TMP_NODES(name, n) constexpr uint32_t k##name = n;
ASC_TWIN_ELEMENTWISE_TMP_APIS(ASC_TWIN_TMP_NODES)
#undef ASC_TWIN_TMP_NODES
}  // namespace nodes

}  // namespace asc_twin_tmp

#endif  // ASC_TWIN_KERNEL_TILING_ASC_TWIN_TMP_SIZES_H_
