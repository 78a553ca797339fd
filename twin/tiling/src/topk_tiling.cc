// TopK host side: the tmp range through the model the kernel checks against
// (kernel_tiling/topk_tiling.h) and the TopkTiling fill. The fields the twin's TopK reads
// (allDataSize, innerDataSize, kAlignFourBytes, kAlignTwoBytes, tmpLocalSize) are exact; the
// sort/merge schedule fields are filled from the same shape as the NPU's 32-element sort and
// 4-way merges would use it.
#include <cstdint>

#include "elementwise_tmp_size.h"
#include "tiling/tiling_api.h"

namespace AscendC {
namespace {

bool CheckShape(const char* api, int32_t inner, int32_t outter, TopKMode mode, uint32_t dataTypeSize) {
  if (dataTypeSize != 2 && dataTypeSize != 4) {
    asc_twin_tiling::TilingError(api, "dataTypeSize %u is not 2 (half) or 4 (float)", dataTypeSize);
    return false;
  }
  if (outter < 1 || inner < 32 || inner % 32 != 0) {
    asc_twin_tiling::TilingError(api, "inner %d / outter %d: inner must be a positive multiple of 32, outter >= 1",
                                 inner, outter);
    return false;
  }
  if (mode == TopKMode::TOPK_NSMALL && inner != 32) {
    asc_twin_tiling::TilingError(api, "TOPK_NSMALL needs inner 32, got %d", inner);
    return false;
  }
  if (mode == TopKMode::TOPK_NORMAL && inner > 4096) {
    asc_twin_tiling::TilingError(api, "TOPK_NORMAL takes inner up to 4096, got %d", inner);
    return false;
  }
  return true;
}

uint64_t MinBytes(int32_t inner, int32_t outter, TopKMode mode, uint32_t typeSize, bool isInitIndex, bool isLargest) {
  const uint64_t row = asc_twin_tmp::TopKRowTmpBytes(static_cast<uint64_t>(inner), typeSize, isInitIndex, isLargest);
  return mode == TopKMode::TOPK_NSMALL ? row * static_cast<uint64_t>(outter) : row;
}

}  // namespace

bool GetTopKMaxMinTmpSize(const platform_ascendc::PlatformAscendC&, const int32_t inner, const int32_t outter,
                          const bool, const bool isInitIndex, enum TopKMode mode, const bool isLargest,
                          const uint32_t dataTypeSize, uint32_t& maxValue, uint32_t& minValue) {
  maxValue = minValue = 0;
  if (!CheckShape("GetTopKMaxMinTmpSize", inner, outter, mode, dataTypeSize)) return false;
  const uint64_t mn = MinBytes(inner, outter, mode, dataTypeSize, isInitIndex, isLargest);
  const uint64_t mx = mode == TopKMode::TOPK_NSMALL ? mn : mn * static_cast<uint64_t>(outter);
  if (mx > 0xFFFFFFFFull) {
    asc_twin_tiling::TilingError("GetTopKMaxMinTmpSize", "the temporary space exceeds 4 GiB");
    return false;
  }
  maxValue = static_cast<uint32_t>(mx);
  minValue = static_cast<uint32_t>(mn);
  return true;
}

bool TopKTilingFunc(const platform_ascendc::PlatformAscendC&, const int32_t inner, const int32_t outter,
                    const int32_t k, const uint32_t dataTypeSize, const bool isInitIndex, enum TopKMode mode,
                    const bool isLargest, AscendC::tiling::TopkTiling& t) {
  constexpr const char* api = "TopKTilingFunc";
  t = AscendC::tiling::TopkTiling{};
  if (!CheckShape(api, inner, outter, mode, dataTypeSize)) return false;
  if (k < 1 || k > inner) {
    asc_twin_tiling::TilingError(api, "k %d is outside [1, inner %d]", k, inner);
    return false;
  }
  t.tmpLocalSize = static_cast<int32_t>(MinBytes(inner, outter, mode, dataTypeSize, isInitIndex, isLargest));
  t.allDataSize = inner * outter;
  t.innerDataSize = inner;
  t.sortRepeat = static_cast<uint32_t>(mode == TopKMode::TOPK_NSMALL ? outter : inner / 32);
  int32_t lists = inner / 32, merges = 0;  // 4-way merge rounds until one sorted list is left
  while (lists > 1) {
    lists = (lists + 3) / 4;
    ++merges;
  }
  t.mrgSortRepeat = merges;
  t.kAlignFourBytes = (k + 7) / 8 * 8;
  t.kAlignTwoBytes = (k + 15) / 16 * 16;
  t.maskOffset = inner;  // scores then indices in one row of pairs
  t.maskVreducev2FourBytes = 2 * t.kAlignFourBytes;
  t.maskVreducev2TwoBytes = 4 * t.kAlignTwoBytes;
  t.mrgSortSrc1offset = 32 * 2;  // pairs of 8 bytes, in 4-byte elements
  t.mrgSortSrc2offset = 2 * t.mrgSortSrc1offset;
  t.mrgSortSrc3offset = 3 * t.mrgSortSrc1offset;
  t.mrgSortTwoQueueSrc1Offset = t.mrgSortSrc1offset;
  t.srcIndexOffset = inner;
  t.copyUbToUbBlockCount = static_cast<uint32_t>(inner * 4 / 32);
  t.topkNSmallSrcIndexOffset = inner * outter;
  // GatherMask patterns picking scores (even 4-byte words) and indices (odd ones) of the pairs
  t.vreduceValMask0 = 0x55555555u;
  t.vreduceValMask1 = 0x55555555u;
  t.vreduceIdxMask0 = 0xAAAAAAAAu;
  t.vreduceIdxMask1 = 0xAAAAAAAAu;
  t.vreducehalfValMask0 = t.vreducehalfValMask1 = t.vreducehalfValMask2 = t.vreducehalfValMask3 = 0x1111u;
  t.vreducehalfValMask4 = t.vreducehalfValMask5 = t.vreducehalfValMask6 = t.vreducehalfValMask7 = 0x1111u;
  (void)isLargest;
  return true;
}

bool TopKTilingFunc(const platform_ascendc::PlatformAscendC& ascendcPlatform, const int32_t inner, const int32_t outter,
                    const int32_t k, const uint32_t dataTypeSize, const bool isInitIndex, enum TopKMode mode,
                    const bool isLargest, optiling::TopkTiling& topKTiling) {
  AscendC::tiling::TopkTiling t;
  const bool ok = TopKTilingFunc(ascendcPlatform, inner, outter, k, dataTypeSize, isInitIndex, mode, isLargest, t);
#define ASC_TWIN_SET_FIELD(type, name) topKTiling.set_##name(t.name);
  ASC_TWIN_TOPK_TILING_FIELDS(ASC_TWIN_SET_FIELD)
#undef ASC_TWIN_SET_FIELD
  return ok;
}

}  // namespace AscendC
