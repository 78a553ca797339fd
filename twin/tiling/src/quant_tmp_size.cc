// Quantisation tmp sizes (AscendQuant, AscendDequant, AscendAntiQuant) through the model the
// kernel headers check against (kernel_tiling/quant_tmp_size.h). Bad input gives max = min = 0
// and one error line naming the function and the cause.
#include <cstdint>

#include "elementwise_tmp_size.h"
#include "kernel_tiling/quant_tmp_size.h"
#include "tiling/tiling_api.h"

namespace AscendC {
namespace {

constexpr uint64_t kMaxBytes = 0xFFFFFFFFull;

bool Elements(const char* api, const char* what, const ge::Shape& shape, uint64_t* count) {
  const char* why = nullptr;
  if (!asc_twin_tiling::ShapeElements(shape, count, &why)) {
    asc_twin_tiling::TilingError(api, "%s is not usable: %s", what, why);
    return false;
  }
  if (*count == 0) {
    asc_twin_tiling::TilingError(api, "%s has no elements", what);
    return false;
  }
  return true;
}

bool Store(const char* api, asc_twin_tmp::TmpRange r, uint32_t& maxValue, uint32_t& minValue) {
  if (r.max > kMaxBytes) {
    asc_twin_tiling::TilingError(api, "the temporary space exceeds 4 GiB");
    return false;
  }
  maxValue = static_cast<uint32_t>(r.max);
  minValue = static_cast<uint32_t>(r.min);
  return true;
}

bool QuantRange(const char* api, const ge::Shape& srcShape, uint32_t typeSize, uint32_t& maxValue, uint32_t& minValue) {
  maxValue = minValue = 0;
  uint64_t count = 0;
  if (!Elements(api, "srcShape", srcShape, &count)) return false;
  if (typeSize != 2 && typeSize != 4) {
    asc_twin_tiling::TilingError(api, "typeSize %u is not 2 (half) or 4 (float)", typeSize);
    return false;
  }
  return Store(api, asc_twin_tmp::QuantTmpBytes(count), maxValue, minValue);
}

bool DequantRange(const char* api, const ge::Shape& srcShape, uint32_t typeSize, uint32_t& maxValue,
                  uint32_t& minValue) {
  maxValue = minValue = 0;
  uint64_t count = 0;
  if (!Elements(api, "srcShape", srcShape, &count)) return false;
  if (typeSize != 4) {
    asc_twin_tiling::TilingError(api, "typeSize %u is not 4 (the source is int32_t)", typeSize);
    return false;
  }
  const uint64_t n = static_cast<uint64_t>(srcShape.GetDim(srcShape.GetDimNum() - 1));
  if (n % 8 != 0) {
    asc_twin_tiling::TilingError(api, "the last dimension %llu is not a multiple of 8 (32 bytes of int32_t)",
                                 static_cast<unsigned long long>(n));
    return false;
  }
  return Store(api, asc_twin_tmp::DequantTmpBytes(count / n, n), maxValue, minValue);
}

bool AntiQuantRange(const char* api, const ge::Shape& srcShape, const ge::Shape& scaleShape, ge::DataType in,
                    ge::DataType out, uint32_t& maxValue, uint32_t& minValue) {
  maxValue = minValue = 0;
  uint64_t count = 0, params = 0;
  if (!Elements(api, "srcShape", srcShape, &count) || !Elements(api, "scaleShape", scaleShape, &params)) return false;
  if (in != ge::DT_INT8 && in != ge::DT_INT4) {
    asc_twin_tiling::TilingError(api, "inputDataType %d is not DT_INT8 or DT_INT4", static_cast<int>(in));
    return false;
  }
  if (out != ge::DT_FLOAT16 && out != ge::DT_BF16) {
    asc_twin_tiling::TilingError(api, "outputDataType %d is not DT_FLOAT16 or DT_BF16", static_cast<int>(out));
    return false;
  }
  if (params > count || count % params != 0) {
    asc_twin_tiling::TilingError(api, "scaleShape's %llu elements do not divide srcShape's %llu",
                                 static_cast<unsigned long long>(params), static_cast<unsigned long long>(count));
    return false;
  }
  return Store(api, asc_twin_tmp::AntiQuantTmpBytes(count, params), maxValue, minValue);
}

}  // namespace

void GetAscendQuantMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                                 uint32_t& minValue) {
  QuantRange("GetAscendQuantMaxMinTmpSize", srcShape, typeSize, maxValue, minValue);
}
uint32_t GetAscendQuantMaxTmpSize(const ge::Shape& srcShape, const uint32_t typeSize) {
  uint32_t mx = 0, mn = 0;
  QuantRange("GetAscendQuantMaxTmpSize", srcShape, typeSize, mx, mn);
  return mx;
}
uint32_t GetAscendQuantMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize) {
  uint32_t mx = 0, mn = 0;
  QuantRange("GetAscendQuantMinTmpSize", srcShape, typeSize, mx, mn);
  return mn;
}
void GetAscendQuantTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
  // one half per element: in units of typeSize, 1 node for half; a float source needs half as many
  // bytes, which the factor form cannot say below one node, so it reports 1 (an upper bound)
  maxLiveNodeCount = (typeSize == 2 || typeSize == 4) ? 1 : 0;
  extraBuf = 0;
  if (maxLiveNodeCount == 0) {
    asc_twin_tiling::TilingError("GetAscendQuantTmpBufferFactorSize", "typeSize %u is not 2 (half) or 4 (float)",
                                 typeSize);
  }
}

void GetAscendDequantMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                                   uint32_t& minValue) {
  DequantRange("GetAscendDequantMaxMinTmpSize", srcShape, typeSize, maxValue, minValue);
}
uint32_t GetAscendDequantMaxTmpSize(const ge::Shape& srcShape, const uint32_t typeSize) {
  uint32_t mx = 0, mn = 0;
  DequantRange("GetAscendDequantMaxTmpSize", srcShape, typeSize, mx, mn);
  return mx;
}
uint32_t GetAscendDequantMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSize) {
  uint32_t mx = 0, mn = 0;
  DequantRange("GetAscendDequantMinTmpSize", srcShape, typeSize, mx, mn);
  return mn;
}

uint32_t GetAscendAntiQuantMaxTmpSize(const ge::Shape& srcShape, const ge::Shape& scaleShape, bool,
                                      ge::DataType inputDataType, ge::DataType outputDataType) {
  uint32_t mx = 0, mn = 0;
  AntiQuantRange("GetAscendAntiQuantMaxTmpSize", srcShape, scaleShape, inputDataType, outputDataType, mx, mn);
  return mx;
}
uint32_t GetAscendAntiQuantMinTmpSize(const ge::Shape& srcShape, const ge::Shape& scaleShape, bool,
                                      ge::DataType inputDataType, ge::DataType outputDataType) {
  uint32_t mx = 0, mn = 0;
  AntiQuantRange("GetAscendAntiQuantMinTmpSize", srcShape, scaleShape, inputDataType, outputDataType, mx, mn);
  return mn;
}
void GetAscendAntiQuantMaxMinTmpSize(const ge::Shape& srcShape, const ge::Shape& scaleShape, bool,
                                     ge::DataType inputDataType, ge::DataType outputDataType, uint32_t& maxValue,
                                     uint32_t& minValue) {
  AntiQuantRange("GetAscendAntiQuantMaxMinTmpSize", srcShape, scaleShape, inputDataType, outputDataType, maxValue,
                 minValue);
}
void GetAscendAntiQuantTmpBufferFactorSize(const ge::Shape& srcShape, const ge::Shape& scaleShape, bool,
                                           ge::DataType inputDataType, ge::DataType outputDataType,
                                           uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
  uint32_t mx = 0, mn = 0;
  maxLiveNodeCount = extraBuf = 0;
  if (!AntiQuantRange("GetAscendAntiQuantTmpBufferFactorSize", srcShape, scaleShape, inputDataType, outputDataType, mx,
                      mn))
    return;
  uint64_t params = 0;
  const char* why = nullptr;
  asc_twin_tiling::ShapeElements(scaleShape, &params, &why);
  maxLiveNodeCount = 4;  // one fp32 per source element, in units of its one byte
  extraBuf = static_cast<uint32_t>(2 * asc_twin_tmp::AlignBlock(params * 4));
}

}  // namespace AscendC
