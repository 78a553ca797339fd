// Parameter structs of Fixpipe (L0C -> GM / UB / L1): CO2Layout, FixpipeConfig, CFG_NZ /
// CFG_ROW_MAJOR / CFG_COLUMN_MAJOR, FixpipeParamsV220 (NpuArch 2201), and the builtin
// QuantMode_t at global scope, as CANN's compiler declares it. Names, order and defaults as in
// CANN's kernel_struct_fixpipe.h.
#ifndef ASC_TWIN_KERNEL_STRUCT_FIXPIPE_H_
#define ASC_TWIN_KERNEL_STRUCT_FIXPIPE_H_

#include <cstdint>

#include "kernel_macros.h"

// The quantisation a Fixpipe applies on the way out of L0C (values in CANN's order).
enum QuantMode_t : uint8_t {
  NoQuant = 0,   // float -> float, int32_t -> int32_t
  F322F16,       // float -> half, CAST_RINT
  F322BF16,      // float -> bfloat16_t, CAST_RINT
  DEQF16,        // int32_t -> half, scalar scale (deqScalar)
  VDEQF16,       // int32_t -> half, one scale per channel (cbufWorkspace)
  QF322B8_PRE,   // float -> int8_t/uint8_t, scalar
  VQF322B8_PRE,  // float -> int8_t/uint8_t, per channel
  REQ8,          // int32_t -> int8_t/uint8_t, scalar
  VREQ8,         // int32_t -> int8_t/uint8_t, per channel
};

namespace AscendC {

enum class CO2Layout : uint8_t {
  NZ = 0,
  ROW_MAJOR,     // ND, row major
  COLUMN_MAJOR,  // ND, column major (Ascend 950 only)
};

struct FixpipeConfig {
  CO2Layout format;
  __aicore__ constexpr inline FixpipeConfig(CO2Layout format_) : format(format_) {}
  __aicore__ constexpr inline FixpipeConfig(CO2Layout format_, bool /*isToUB_*/) : format(format_) {}
  __aicore__ constexpr inline FixpipeConfig(CO2Layout format_, bool /*isToUB_*/, bool /*enableFixVal_*/)
      : format(format_) {}
};

constexpr FixpipeConfig CFG_NZ = {CO2Layout::NZ};
constexpr FixpipeConfig CFG_ROW_MAJOR = {CO2Layout::ROW_MAJOR};
constexpr FixpipeConfig CFG_COLUMN_MAJOR = {CO2Layout::COLUMN_MAJOR};

struct FixpipeParamsV220 {
  __aicore__ FixpipeParamsV220() {}
  __aicore__ FixpipeParamsV220(const uint16_t nSizeIn, const uint16_t mSizeIn, const uint16_t srcStrideIn,
                               const uint32_t dstStrideIn, const bool reluEnIn)
      : nSize(nSizeIn), mSize(mSizeIn), srcStride(srcStrideIn), dstStride(dstStrideIn), reluEn(reluEnIn) {}
  __aicore__ FixpipeParamsV220(const uint16_t nSizeIn, const uint16_t mSizeIn, const uint16_t srcStrideIn,
                               const uint32_t dstStrideIn, const bool reluEnIn, const QuantMode_t quantPreIn,
                               const int64_t deqScalarIn, const uint16_t ndNumIn, const uint16_t srcNdStrideIn,
                               const uint16_t dstNdStrideIn, const uint8_t unitFlagIn)
      : nSize(nSizeIn),
        mSize(mSizeIn),
        srcStride(srcStrideIn),
        dstStride(dstStrideIn),
        quantPre(quantPreIn),
        deqScalar(static_cast<uint64_t>(deqScalarIn)),
        ndNum(ndNumIn),
        srcNdStride(srcNdStrideIn),
        dstNdStride(dstNdStrideIn),
        reluEn(reluEnIn),
        unitFlag(unitFlagIn) {}
  __aicore__ FixpipeParamsV220(const uint16_t nSizeIn, const uint16_t mSizeIn, const uint16_t srcStrideIn,
                               const uint32_t dstStrideIn, const bool reluEnIn, const QuantMode_t quantPreIn,
                               const int64_t deqScalarIn, const uint16_t ndNumIn, const uint16_t srcNdStrideIn,
                               const uint16_t dstNdStrideIn, const uint8_t unitFlagIn, const bool isChannelSplitIn)
      : FixpipeParamsV220(nSizeIn, mSizeIn, srcStrideIn, dstStrideIn, reluEnIn, quantPreIn, deqScalarIn, ndNumIn,
                          srcNdStrideIn, dstNdStrideIn, unitFlagIn) {
    isChannelSplit = isChannelSplitIn;
  }
  uint16_t nSize = 0;
  uint16_t mSize = 0;
  uint16_t srcStride = 0;  // units of 16 rows (C0_SIZE): mSize rounded up to 16
  uint32_t dstStride = 0;  // NZ out: 32-byte blocks between n-blocks; ND out: elements per row
  QuantMode_t quantPre = QuantMode_t::NoQuant;
  uint64_t deqScalar = 0;
  uint16_t ndNum = 1;
  uint16_t srcNdStride = 0;  // units of 16 x C0_SIZE (1024 elements)
  uint16_t dstNdStride = 0;  // elements
  bool reluEn = false;
  uint8_t unitFlag = 0;
  bool isChannelSplit = false;
};

using FixpipeParamsM300 = FixpipeParamsV220;
using FixpipeParamsM310 = FixpipeParamsV220;

}  // namespace AscendC

#endif  // ASC_TWIN_KERNEL_STRUCT_FIXPIPE_H_
