// TopkTiling: the TopK high-level API's tiling (CANN's fields, names and order; TopKTilingFunc
// in tiling/tiling_api.h fills it, optiling::TopkTiling is its host class), as kernels name
// it without a namespace. The twin's TopK reads allDataSize, innerDataSize, kAlignFourBytes,
// kAlignTwoBytes and tmpLocalSize (checked against the call's TopKInfo and k); the other
// fields describe the NPU's sort/merge schedule and are filled for CANN compatibility.
#ifndef ASC_TWIN_KERNEL_TILING_TOPK_TILING_H_
#define ASC_TWIN_KERNEL_TILING_TOPK_TILING_H_

#include <cstdint>

// (X-macro list laid out by hand: the formatter never settles on it.)
// clang-format off
#define ASC_TWIN_TOPK_TILING_FIELDS(F) \
  F(int32_t, tmpLocalSize) F(int32_t, allDataSize) F(int32_t, innerDataSize) F(uint32_t, sortRepeat) \
  F(int32_t, mrgSortRepeat) F(int32_t, kAlignFourBytes) F(int32_t, kAlignTwoBytes) F(int32_t, maskOffset) \
  F(int32_t, maskVreducev2FourBytes) F(int32_t, maskVreducev2TwoBytes) F(int32_t, mrgSortSrc1offset) \
  F(int32_t, mrgSortSrc2offset) F(int32_t, mrgSortSrc3offset) F(int32_t, mrgSortTwoQueueSrc1Offset) \
  F(int32_t, mrgFourQueueTailPara1) F(int32_t, mrgFourQueueTailPara2) F(int32_t, srcIndexOffset) \
  F(uint32_t, copyUbToUbBlockCount) F(int32_t, topkMrgSrc1MaskSizeOffset) F(int32_t, topkNSmallSrcIndexOffset) \
  F(uint32_t, vreduceValMask0) F(uint32_t, vreduceValMask1) F(uint32_t, vreduceIdxMask0) \
  F(uint32_t, vreduceIdxMask1) F(uint16_t, vreducehalfValMask0) F(uint16_t, vreducehalfValMask1) \
  F(uint16_t, vreducehalfValMask2) F(uint16_t, vreducehalfValMask3) F(uint16_t, vreducehalfValMask4) \
  F(uint16_t, vreducehalfValMask5) F(uint16_t, vreducehalfValMask6) F(uint16_t, vreducehalfValMask7)
// clang-format on

namespace AscendC {
namespace tiling {
#define ASC_TWIN_TOPK_FIELD(type, name) type name = 0;
struct TopkTiling {
  ASC_TWIN_TOPK_TILING_FIELDS(ASC_TWIN_TOPK_FIELD)
};
#undef ASC_TWIN_TOPK_FIELD
}  // namespace tiling
}  // namespace AscendC

using TopkTiling = AscendC::tiling::TopkTiling;

namespace AscendC {
#ifndef ASCC_ENUM_TOPKMODE
#define ASCC_ENUM_TOPKMODE
enum class TopKMode { TOPK_NORMAL, TOPK_NSMALL };
#endif
}  // namespace AscendC

// The twin's temporary-space model of TopK, shared by GetTopKMaxMinTmpSize and the kernel:
// a row of inner (score, index) pairs twice (the sort's ping-pong), the generated indices when
// isInitIndex is false, and a negated copy of the row for the smallest k. The normal mode
// works a row at a time (min: one row, max: all outter rows at once); the small mode sorts all
// rows together (min = max).
namespace asc_twin_tmp {
constexpr uint64_t TopKRowTmpBytes(uint64_t inner, uint32_t typeSize, bool isInitIndex, bool isLargest) {
  const uint64_t pairs = (inner * 8 + 31) / 32 * 32;
  const uint64_t idx = isInitIndex ? 0 : (inner * 4 + 31) / 32 * 32;
  const uint64_t neg = isLargest ? 0 : (inner * typeSize + 31) / 32 * 32;
  return 2 * pairs + idx + neg;
}
}  // namespace asc_twin_tmp

#endif  // ASC_TWIN_KERNEL_TILING_TOPK_TILING_H_
