// The SoftMax family's host tiling: temporary sizes (kernel_tiling/softmax_norm_tmp_size.h, the
// rule the kernels check) and the SoftMaxTiling fill. The twin's kernels read srcM / srcK (or the
// call's SoftMaxShapeInfo); the split fields describe the passes a workspace of the given size
// allows (splitM rows at a time, rangeM passes, a tail of tailM rows), as CANN's fields do.
#include "tiling/activation/logsoftmax_tiling.h"
#include "tiling/activation/softmax_tiling.h"

#include <algorithm>

#include "kernel_tiling/softmax_norm_tmp_size.h"
#include "shape_split.h"
#include "tiling_log.h"

namespace {

using asc_twin_tiling::RowsByLastAxis;
using AscendC::tiling::twin_tmp::RowBytes;
using AscendC::tiling::twin_tmp::TileBytes;

// Rows x last axis, or false with one error line naming the function and the cause.
bool Split(const char* api, const ge::Shape& shape, uint32_t dataTypeSize, RowsByLastAxis* rc) {
  const char* why = nullptr;
  if (!asc_twin_tiling::SplitLastAxis(shape, rc, &why)) {
    ASC_TWIN_TILING_ERROR("%s: srcShape: %s", api, why);
    return false;
  }
  if (dataTypeSize != 2 && dataTypeSize != 4) {
    ASC_TWIN_TILING_ERROR("%s: dataTypeSize %u is not 2 (half, bfloat16) or 4 (float)", api, dataTypeSize);
    return false;
  }
  if (rc->rows > 0xFFFFFFFFull || rc->cols > 0xFFFFFFFFull || rc->elements() > 0xFFFFFFFFull) {
    ASC_TWIN_TILING_ERROR("%s: srcShape has more elements than a 32-bit count holds", api);
    return false;
  }
  return true;
}

uint32_t MinBytes(const char* api, const ge::Shape& shape, uint32_t dataTypeSize, uint32_t floatRows) {
  RowsByLastAxis rc;
  if (!Split(api, shape, dataTypeSize, &rc)) return 0;
  return RowBytes(rc.cols, floatRows);
}

uint32_t MaxBytes(const char* api, const ge::Shape& shape, uint32_t dataTypeSize, uint32_t floatRows) {
  RowsByLastAxis rc;
  if (!Split(api, shape, dataTypeSize, &rc)) return 0;
  return TileBytes(rc.rows, rc.cols, floatRows);
}

// Fills `t` (zeroed on bad input) for a tile of the shape, statistics of statSize bytes.
void Fill(const char* api, const ge::Shape& shape, uint32_t dataTypeSize, uint32_t statSize, uint32_t workBytes,
          uint32_t floatRows, AscendC::tiling::SoftMaxTiling* t) {
  *t = AscendC::tiling::SoftMaxTiling{};
  RowsByLastAxis rc;
  if (!Split(api, shape, dataTypeSize, &rc)) return;
  if (statSize != 2 && statSize != 4) {
    ASC_TWIN_TILING_ERROR("%s: the statistics' dataTypeSize %u is not 2 or 4", api, statSize);
    return;
  }
  const uint32_t m = static_cast<uint32_t>(rc.rows), k = static_cast<uint32_t>(rc.cols);
  const uint32_t row = RowBytes(k, floatRows);
  if (m != 0 && workBytes < row) {
    ASC_TWIN_TILING_ERROR("%s: localWorkSpaceSize %u is below the minimum of %u bytes for a last axis of %u", api,
                          workBytes, row, k);
    return;
  }
  const uint32_t blk = 32 / statSize;
  t->srcM = m;
  t->srcK = k;
  t->srcSize = m * k;
  t->outMaxM = m;
  t->outMaxK = blk;
  t->outMaxSize = m * blk;
  const uint32_t split = m == 0 ? 0 : std::min<uint32_t>(m, workBytes / row);
  t->splitM = split;
  t->splitK = k;
  t->splitSize = split * k;
  t->reduceM = split;
  t->reduceK = blk;
  t->reduceSize = split * blk;
  t->rangeM = split == 0 ? 0 : m / split;
  t->tailM = split == 0 ? 0 : m % split;
  t->tailSplitSize = t->tailM * k;
  t->tailReduceSize = t->tailM * blk;
}

template <typename Host, typename Pod>
void CopyToHost(const Pod& k, Host& h) {
#define ASC_TWIN_SET_FIELD(type, name) h.set_##name(k.name);
  ASC_TWIN_SOFTMAX_TILING_FIELDS(ASC_TWIN_SET_FIELD)
#undef ASC_TWIN_SET_FIELD
}

constexpr uint32_t kOneRow = AscendC::tiling::twin_tmp::kSoftMaxFloatRows;
constexpr uint32_t kTwoRows = AscendC::tiling::twin_tmp::kGradFloatRows;

}  // namespace

namespace AscendC {

uint32_t GetSoftMaxMaxTmpSize(const TensorShape& srcShape, const uint32_t dataTypeSize, const bool) {
  return MaxBytes("GetSoftMaxMaxTmpSize", srcShape, dataTypeSize, kOneRow);
}
uint32_t GetSoftMaxMinTmpSize(const TensorShape& srcShape, const uint32_t dataTypeSize, const bool) {
  return MinBytes("GetSoftMaxMinTmpSize", srcShape, dataTypeSize, kOneRow);
}
void SoftMaxTilingFunc(const TensorShape& srcShape, const uint32_t dataTypeSize, const uint32_t localWorkSpaceSize,
                       AscendC::tiling::SoftMaxTiling& softmaxTiling) {
  Fill("SoftMaxTilingFunc", srcShape, dataTypeSize, dataTypeSize, localWorkSpaceSize, kOneRow, &softmaxTiling);
}
void SoftMaxTilingFunc(const TensorShape& srcShape, const uint32_t dataTypeSize, const uint32_t localWorkSpaceSize,
                       optiling::SoftMaxTiling& softmaxTiling) {
  AscendC::tiling::SoftMaxTiling t;
  SoftMaxTilingFunc(srcShape, dataTypeSize, localWorkSpaceSize, t);
  CopyToHost(t, softmaxTiling);
}

uint32_t GetSoftMaxFlashMaxTmpSize(const TensorShape& srcShape, const uint32_t dataTypeSize, const bool, const bool) {
  return MaxBytes("GetSoftMaxFlashMaxTmpSize", srcShape, dataTypeSize, kOneRow);
}
uint32_t GetSoftMaxFlashMinTmpSize(const TensorShape& srcShape, const uint32_t dataTypeSize, const bool, const bool) {
  return MinBytes("GetSoftMaxFlashMinTmpSize", srcShape, dataTypeSize, kOneRow);
}
void SoftMaxFlashTilingFunc(const TensorShape& srcShape, const uint32_t dataTypeSize, const uint32_t localWorkSpaceSize,
                            AscendC::tiling::SoftMaxTiling& softmaxFlashTiling, const bool) {
  Fill("SoftMaxFlashTilingFunc", srcShape, dataTypeSize, dataTypeSize, localWorkSpaceSize, kOneRow,
       &softmaxFlashTiling);
}
void SoftMaxFlashTilingFunc(const TensorShape& srcShape, const uint32_t dataTypeSize, const uint32_t localWorkSpaceSize,
                            optiling::SoftMaxTiling& softmaxFlashTiling, const bool isUpdate) {
  AscendC::tiling::SoftMaxTiling t;
  SoftMaxFlashTilingFunc(srcShape, dataTypeSize, localWorkSpaceSize, t, isUpdate);
  CopyToHost(t, softmaxFlashTiling);
}

uint32_t GetSoftMaxGradMaxTmpSize(const TensorShape& srcShape, const uint32_t dataTypeSize, const bool, const bool) {
  return MaxBytes("GetSoftMaxGradMaxTmpSize", srcShape, dataTypeSize, kTwoRows);
}
uint32_t GetSoftMaxGradMinTmpSize(const TensorShape& srcShape, const uint32_t dataTypeSize, const bool, const bool) {
  return MinBytes("GetSoftMaxGradMinTmpSize", srcShape, dataTypeSize, kTwoRows);
}
void SoftMaxGradTilingFunc(const TensorShape& srcShape, const uint32_t dataTypeSize, const uint32_t localWorkSpaceSize,
                           AscendC::tiling::SoftMaxTiling& softmaxGradTiling, const bool) {
  Fill("SoftMaxGradTilingFunc", srcShape, dataTypeSize, dataTypeSize, localWorkSpaceSize, kTwoRows, &softmaxGradTiling);
}
void SoftMaxGradTilingFunc(const TensorShape& srcShape, const uint32_t dataTypeSize, const uint32_t localWorkSpaceSize,
                           optiling::SoftMaxTiling& softmaxGradTiling, const bool isFront) {
  AscendC::tiling::SoftMaxTiling t;
  SoftMaxGradTilingFunc(srcShape, dataTypeSize, localWorkSpaceSize, t, isFront);
  CopyToHost(t, softmaxGradTiling);
}

bool IsBasicBlockInSoftMax(AscendC::tiling::SoftMaxTiling& tiling, const uint32_t) {
  return tiling.srcM != 0 && tiling.srcM % 8 == 0 && tiling.srcK % 64 == 0 && tiling.srcK < 2048;
}
bool IsBasicBlockInSoftMax(optiling::SoftMaxTiling& tiling, const uint32_t dataTypeSize) {
  AscendC::tiling::SoftMaxTiling t{};
  t.srcM = tiling.get_srcM();
  t.srcK = tiling.get_srcK();
  return IsBasicBlockInSoftMax(t, dataTypeSize);
}

uint32_t GetSoftMaxFlashV2MinTmpSize(const TensorShape& srcShape, const uint32_t dataTypeSize1, const uint32_t,
                                     const bool, const bool, const bool) {
  return MinBytes("GetSoftMaxFlashV2MinTmpSize", srcShape, dataTypeSize1, kOneRow);
}
uint32_t GetSoftMaxFlashV2MaxTmpSize(const TensorShape& srcShape, const uint32_t dataTypeSize1, const uint32_t,
                                     const bool, const bool, const bool) {
  return MaxBytes("GetSoftMaxFlashV2MaxTmpSize", srcShape, dataTypeSize1, kOneRow);
}
void SoftMaxFlashV2TilingFunc(const TensorShape& srcShape, const uint32_t dataTypeSize1, const uint32_t dataTypeSize2,
                              const uint32_t localWorkSpaceSize, AscendC::tiling::SoftMaxTiling& softmaxFlashTiling,
                              const bool, const bool, const bool) {
  Fill("SoftMaxFlashV2TilingFunc", srcShape, dataTypeSize1, dataTypeSize2, localWorkSpaceSize, kOneRow,
       &softmaxFlashTiling);
}
void SoftMaxFlashV2TilingFunc(const TensorShape& srcShape, const uint32_t dataTypeSize1, const uint32_t dataTypeSize2,
                              const uint32_t localWorkSpaceSize, optiling::SoftMaxTiling& softmaxFlashTiling,
                              const bool isUpdate, const bool isBasicBlock, const bool isFlashOutputBrc) {
  AscendC::tiling::SoftMaxTiling t;
  SoftMaxFlashV2TilingFunc(srcShape, dataTypeSize1, dataTypeSize2, localWorkSpaceSize, t, isUpdate, isBasicBlock,
                           isFlashOutputBrc);
  CopyToHost(t, softmaxFlashTiling);
}

void GetSoftMaxFlashV3MaxMinTmpSize(const TensorShape& srcShape, const uint32_t dataTypeSize1, const uint32_t,
                                    uint32_t& maxValue, uint32_t& minValue, const bool, const bool) {
  maxValue = MaxBytes("GetSoftMaxFlashV3MaxMinTmpSize", srcShape, dataTypeSize1, kTwoRows);
  minValue = MinBytes("GetSoftMaxFlashV3MaxMinTmpSize", srcShape, dataTypeSize1, kTwoRows);
}
void SoftMaxFlashV3TilingFunc(const TensorShape& srcShape, const uint32_t dataTypeSize1, const uint32_t dataTypeSize2,
                              const uint32_t localWorkSpaceSize, AscendC::tiling::SoftMaxTiling& softmaxFlashV3Tiling,
                              const bool, const bool) {
  Fill("SoftMaxFlashV3TilingFunc", srcShape, dataTypeSize1, dataTypeSize2, localWorkSpaceSize, kTwoRows,
       &softmaxFlashV3Tiling);
}
void SoftMaxFlashV3TilingFunc(const TensorShape& srcShape, const uint32_t dataTypeSize1, const uint32_t dataTypeSize2,
                              const uint32_t localWorkSpaceSize, optiling::SoftMaxTiling& softmaxFlashV3Tiling,
                              const bool isUpdate, const bool isBasicBlock) {
  AscendC::tiling::SoftMaxTiling t;
  SoftMaxFlashV3TilingFunc(srcShape, dataTypeSize1, dataTypeSize2, localWorkSpaceSize, t, isUpdate, isBasicBlock);
  CopyToHost(t, softmaxFlashV3Tiling);
}

// NOLINTNEXTLINE(performance-unnecessary-value-param): CANN's signature, by value (const ge::Shape)
uint32_t GetLogSoftMaxMaxTmpSize(const TensorShape srcShape, const uint32_t dataTypeSize, const bool) {
  return MaxBytes("GetLogSoftMaxMaxTmpSize", srcShape, dataTypeSize, kOneRow);
}
// NOLINTNEXTLINE(performance-unnecessary-value-param): CANN's signature, by value (const ge::Shape)
uint32_t GetLogSoftMaxMinTmpSize(const TensorShape srcShape, const uint32_t dataTypeSize, const bool) {
  return MinBytes("GetLogSoftMaxMinTmpSize", srcShape, dataTypeSize, kOneRow);
}
// NOLINTNEXTLINE(performance-unnecessary-value-param): CANN's signature, by value (const ge::Shape)
void LogSoftMaxTilingFunc(const TensorShape srcShape, const uint32_t dataTypeSize, const uint32_t localWorkSpaceSize,
                          AscendC::tiling::LogSoftMaxTiling& softmaxTiling) {
  // the same fields as SoftMaxTiling, in the same order
  AscendC::tiling::SoftMaxTiling t;
  Fill("LogSoftMaxTilingFunc", srcShape, dataTypeSize, dataTypeSize, localWorkSpaceSize, kOneRow, &t);
#define ASC_TWIN_COPY_FIELD(type, name) softmaxTiling.name = t.name;
  ASC_TWIN_LOGSOFTMAX_TILING_FIELDS(ASC_TWIN_COPY_FIELD)
#undef ASC_TWIN_COPY_FIELD
}
// NOLINTNEXTLINE(performance-unnecessary-value-param): CANN's signature, by value (const ge::Shape)
void LogSoftMaxTilingFunc(const TensorShape srcShape, const uint32_t dataTypeSize, const uint32_t localWorkSpaceSize,
                          optiling::LogSoftMaxTiling& softmaxTiling) {
  AscendC::tiling::LogSoftMaxTiling t;
  LogSoftMaxTilingFunc(srcShape, dataTypeSize, localWorkSpaceSize, t);
#define ASC_TWIN_SET_FIELD(type, name) softmaxTiling.set_##name(t.name);
  ASC_TWIN_LOGSOFTMAX_TILING_FIELDS(ASC_TWIN_SET_FIELD)
#undef ASC_TWIN_SET_FIELD
}

}  // namespace AscendC
