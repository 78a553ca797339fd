// Repeat-parameter structs of the level-0 (mask/repeat) vector APIs, CANN's names and
// field order (kernel_struct_unary.h / kernel_struct_binary.h there). Strides are in
// 32-byte data blocks: *BlkStride between the 8 blocks of one repeat, *RepStride between
// consecutive repeats.
#ifndef ASC_TWIN_KERNEL_STRUCT_REPEAT_H_
#define ASC_TWIN_KERNEL_STRUCT_REPEAT_H_

#include <cstdint>

#include "kernel_macros.h"

namespace AscendC {

constexpr uint32_t DEFAULT_BLK_NUM = 8;
constexpr uint16_t DEFAULT_BLK_STRIDE = 1;
constexpr uint8_t DEFAULT_REPEAT_STRIDE = 8;
constexpr uint32_t MAX_REPEAT_TIMES = 255;

struct UnaryRepeatParams {
  __aicore__ UnaryRepeatParams() {}
  __aicore__ UnaryRepeatParams(const uint16_t dstBlkStrideIn, const uint16_t srcBlkStrideIn,
                               const uint8_t dstRepStrideIn, const uint8_t srcRepStrideIn)
      : dstBlkStride(dstBlkStrideIn),
        srcBlkStride(srcBlkStrideIn),
        dstRepStride(dstRepStrideIn),
        srcRepStride(srcRepStrideIn) {}
  __aicore__ UnaryRepeatParams(const uint16_t dstBlkStrideIn, const uint16_t srcBlkStrideIn,
                               const uint8_t dstRepStrideIn, const uint8_t srcRepStrideIn, const bool halfBlockIn)
      : dstBlkStride(dstBlkStrideIn),
        srcBlkStride(srcBlkStrideIn),
        dstRepStride(dstRepStrideIn),
        srcRepStride(srcRepStrideIn),
        halfBlock(halfBlockIn) {}

  uint32_t blockNumber = DEFAULT_BLK_NUM;
  uint16_t dstBlkStride = DEFAULT_BLK_STRIDE;
  uint16_t srcBlkStride = DEFAULT_BLK_STRIDE;
  uint8_t dstRepStride = DEFAULT_REPEAT_STRIDE;
  uint8_t srcRepStride = DEFAULT_REPEAT_STRIDE;
  bool repeatStrideMode = false;
  bool strideSizeMode = false;
  bool halfBlock = false;
};

struct BinaryRepeatParams {
  __aicore__ BinaryRepeatParams() {}
  __aicore__ BinaryRepeatParams(const uint8_t dstBlkStrideIn, const uint8_t src0BlkStrideIn,
                                const uint8_t src1BlkStrideIn, const uint8_t dstRepStrideIn,
                                const uint8_t src0RepStrideIn, const uint8_t src1RepStrideIn)
      : dstBlkStride(dstBlkStrideIn),
        src0BlkStride(src0BlkStrideIn),
        src1BlkStride(src1BlkStrideIn),
        dstRepStride(dstRepStrideIn),
        src0RepStride(src0RepStrideIn),
        src1RepStride(src1RepStrideIn) {}

  uint32_t blockNumber = DEFAULT_BLK_NUM;
  uint8_t dstBlkStride = DEFAULT_BLK_STRIDE;
  uint8_t src0BlkStride = DEFAULT_BLK_STRIDE;
  uint8_t src1BlkStride = DEFAULT_BLK_STRIDE;
  uint8_t dstRepStride = DEFAULT_REPEAT_STRIDE;
  uint8_t src0RepStride = DEFAULT_REPEAT_STRIDE;
  uint8_t src1RepStride = DEFAULT_REPEAT_STRIDE;
  bool repeatStrideMode = false;
  bool strideSizeMode = false;
};

// GatherMask: repeat parameters (src1 = the pattern tensor).
struct GatherMaskParams {
  __aicore__ GatherMaskParams() {}
  __aicore__ GatherMaskParams(const uint8_t src0BlockStrideIn, const uint16_t repeatTimesIn,
                              const uint16_t src0RepeatStrideIn, const uint8_t src1RepeatStrideIn)
      : src0BlockStride(src0BlockStrideIn),
        repeatTimes(repeatTimesIn),
        src0RepeatStride(src0RepeatStrideIn),
        src1RepeatStride(src1RepeatStrideIn) {}
  uint8_t src0BlockStride = DEFAULT_BLK_STRIDE;
  uint16_t repeatTimes = 1;
  uint16_t src0RepeatStride = DEFAULT_REPEAT_STRIDE;
  uint8_t src1RepeatStride = 1;
};

}  // namespace AscendC

#endif  // ASC_TWIN_KERNEL_STRUCT_REPEAT_H_
