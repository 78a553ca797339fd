// Parameter structs of DataCopy / DataCopyPad (field names, defaults and
// constructors as in CANN's kernel_struct_data_copy.h).
#ifndef ASC_TWIN_KERNEL_STRUCT_DATA_COPY_H_
#define ASC_TWIN_KERNEL_STRUCT_DATA_COPY_H_

#include <cstdint>

#include "kernel_macros.h"
#include "kernel_struct_fixpipe.h"

namespace AscendC {

// blockLen and gaps in 32-byte blocks on both sides.
struct DataCopyParams {
  __aicore__ DataCopyParams() = default;
  __aicore__ DataCopyParams(uint16_t count, uint16_t len, uint16_t srcStrideIn, uint16_t dstStrideIn)
      : blockCount(count), blockLen(len), srcStride(srcStrideIn), dstStride(dstStrideIn) {}
  uint16_t blockCount = 1;
  uint16_t blockLen = 0;
  union {
    uint16_t srcGap;
    uint16_t srcStride = 0;
  };
  union {
    uint16_t dstGap;
    uint16_t dstStride = 0;
  };
};

// blockLen in bytes; the GM-side stride in bytes, the UB-side stride in 32-B blocks.
// The constructor takes all five fields (rsv has no default), as CANN's does: a four-element
// brace list `{count, len, srcStride, dstStride}` is then a DataCopyParams only, so a
// DataCopyPad call written with one picks the DataCopyParams overload instead of being ambiguous.
struct DataCopyExtParams {
  __aicore__ DataCopyExtParams() = default;
  __aicore__ DataCopyExtParams(uint16_t count, uint32_t len, uint32_t srcStrideIn, uint32_t dstStrideIn, uint32_t rsvIn)
      : blockCount(count), blockLen(len), srcStride(srcStrideIn), dstStride(dstStrideIn), rsv(rsvIn) {}
  uint16_t blockCount = 1;
  uint32_t blockLen = 0;
  uint32_t srcStride = 0;
  uint32_t dstStride = 0;
  uint32_t rsv = 0;
};

template <typename T>
struct DataCopyPadExtParams {
  __aicore__ DataCopyPadExtParams() = default;
  __aicore__ DataCopyPadExtParams(bool isPadIn, uint8_t left, uint8_t right, T value)
      : isPad(isPadIn), leftPadding(left), rightPadding(right), paddingValue(value) {}
  bool isPad = false;
  uint8_t leftPadding = 0;
  uint8_t rightPadding = 0;
  T paddingValue = 0;
};

// Older DataCopyPad form: the pad value travels as raw bits.
struct DataCopyPadParams {
  __aicore__ DataCopyPadParams() = default;
  __aicore__ DataCopyPadParams(bool isPadIn, uint8_t left, uint8_t right, uint64_t value)
      : isPad(isPadIn), leftPadding(left), rightPadding(right), paddingValue(value) {}
  bool isPad = false;
  uint8_t leftPadding = 0;
  uint8_t rightPadding = 0;
  uint64_t paddingValue = 0;
};

// GM (ND) -> L1 (NZ) move of ndNum matrices of nValue rows x dValue elements (NpuArch 2201
// field widths): row r, element d of matrix i goes from src[i * srcNdMatrixStride + r * srcDValue
// + d] to dst[i * dstNzMatrixStride + (d / C0) * dstNzC0Stride * C0 + r * dstNzNStride * C0 + d % C0],
// C0 = 32 B of elements; the rest of a row's last 32-byte block is zero-filled.
struct Nd2NzParams {
  __aicore__ Nd2NzParams() {}
  __aicore__ Nd2NzParams(const uint16_t ndNumIn, const uint16_t nValueIn, const uint16_t dValueIn,
                         const uint16_t srcNdMatrixStrideIn, const uint16_t srcDValueIn, const uint16_t dstNzC0StrideIn,
                         const uint16_t dstNzNStrideIn, const uint16_t dstNzMatrixStrideIn)
      : ndNum(ndNumIn),
        nValue(nValueIn),
        dValue(dValueIn),
        srcNdMatrixStride(srcNdMatrixStrideIn),
        srcDValue(srcDValueIn),
        dstNzC0Stride(dstNzC0StrideIn),
        dstNzNStride(dstNzNStrideIn),
        dstNzMatrixStride(dstNzMatrixStrideIn) {}
  uint16_t ndNum = 0;
  uint16_t nValue = 0;
  uint16_t dValue = 0;
  uint16_t srcNdMatrixStride = 0;
  uint16_t srcDValue = 0;
  uint16_t dstNzC0Stride = 0;
  uint16_t dstNzNStride = 0;
  uint16_t dstNzMatrixStride = 0;
};

// DataCopy L0C (CO1) -> GM / L1: the older form of Fixpipe. The scalar quantisation, the NZ2ND
// layout and the per-channel table come from registers (SetFixpipePreQuantFlag,
// SetFixpipeNz2ndFlag, SetFixPipeConfig); srcStride in rows (mSize rounded up to 16),
// dstStride in 32-byte blocks for an NZ result, in elements per row with nz2ndEn.
struct DataCopyCO12DstParams {
  __aicore__ DataCopyCO12DstParams() {}
  __aicore__ DataCopyCO12DstParams(const uint16_t nSizeIn, const uint16_t mSizeIn, const uint32_t dstStrideIn,
                                   const uint16_t srcStrideIn, const QuantMode_t quantPreIn, const uint8_t reluPreIn,
                                   const bool channelSplitIn, const bool nz2ndEnIn)
      : nSize(nSizeIn),
        mSize(mSizeIn),
        dstStride(dstStrideIn),
        srcStride(srcStrideIn),
        quantPre(quantPreIn),
        reluPre(reluPreIn),
        channelSplit(channelSplitIn),
        nz2ndEn(nz2ndEnIn) {}
  uint8_t sid = 0;
  uint16_t nSize = 0;
  uint16_t mSize = 0;
  uint32_t dstStride = 0;
  uint16_t srcStride = 0;
  uint8_t unitFlag = 0;
  uint8_t clipReluPre = 0;  // Atlas 200I/500 A2 only
  uint8_t eltWiseOp = 0;    // Atlas 200I/500 A2 only
  QuantMode_t quantPre = QuantMode_t::NoQuant;
  uint8_t reluPre = 0;
  bool channelSplit = false;
  bool nz2ndEn = false;
};

}  // namespace AscendC

#endif  // ASC_TWIN_KERNEL_STRUCT_DATA_COPY_H_
