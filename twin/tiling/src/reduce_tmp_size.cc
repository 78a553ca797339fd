// Sum / Mean / Reduce* tmp sizes (tiling/reduce/*), on the model of kernel_tiling/asc_twin_tmp_sizes.h
// that reduce/sum.h, mean.h and reduce.h check.
#include <cstring>

#include "elementwise_tmp_size.h"
#include "tiling/tiling_api.h"

namespace AscendC {
namespace {

const char* PatternAxes(ReducePattern p) {
  static const char* const kAxes[] = {"AR",       "RA",        "R",   "ARA",  "ARAR",  "ARARA",  "ARARAR",  "ARARARA",
                                      "ARARARAR", "ARARARARA", "RAR", "RARA", "RARAR", "RARARA", "RARARAR", "RARARARA"};
  const uint32_t i = static_cast<uint32_t>(p);
  return i < sizeof(kAxes) / sizeof(kAxes[0]) ? kAxes[i] : nullptr;
}

uint32_t TypeSizeOf(ge::DataType t) {
  switch (t) {
    case ge::DT_FLOAT:
    case ge::DT_INT32:
    case ge::DT_UINT32:
      return 4;
    case ge::DT_FLOAT16:
    case ge::DT_BF16:
    case ge::DT_INT16:
    case ge::DT_UINT16:
      return 2;
    case ge::DT_INT8:
    case ge::DT_UINT8:
    case ge::DT_BOOL:
      return 1;
    case ge::DT_INT64:
    case ge::DT_UINT64:
      return 8;
    default:
      return 0;
  }
}

void ReduceTmp(const char* api, const TensorShape& shape, ge::DataType dataType, ReducePattern pattern,
               bool isSrcInnerPad, uint32_t& maxValue, uint32_t& minValue) {
  maxValue = minValue = 0;
  const char* axes = PatternAxes(pattern);
  const std::vector<int64_t> dims = shape.GetDims();
  const uint32_t typeSize = TypeSizeOf(dataType);
  if (axes == nullptr)
    return asc_twin_tiling::TilingError(api, "pattern %u is not a ReducePattern", static_cast<uint32_t>(pattern));
  if (typeSize == 0)
    return asc_twin_tiling::TilingError(api, "dataType %d is not supported", static_cast<int>(dataType));
  if (dims.size() != std::strlen(axes)) {
    return asc_twin_tiling::TilingError(api, "srcShape has %zu dims, pattern %s needs %zu", dims.size(), axes,
                                        std::strlen(axes));
  }
  uint64_t out = 1;
  for (size_t d = 0; d < dims.size(); ++d) {
    if (dims[d] <= 0)
      return asc_twin_tiling::TilingError(api, "srcShape dim %zu is %lld", d, static_cast<long long>(dims[d]));
    if (axes[d] != 'A') continue;
    uint64_t len = static_cast<uint64_t>(dims[d]);
    const uint64_t align = 32 / typeSize;
    if (d + 1 == dims.size() && isSrcInnerPad) len = (len + align - 1) / align * align;
    out *= len;
  }
  maxValue = minValue = static_cast<uint32_t>(asc_twin_tmp::ReduceTmpBytes(out));
}

}  // namespace

#define ASC_TWIN_DEFINE_REDUCE_TMP(Name)                                                                           \
  void Get##Name##MaxMinTmpSize(const TensorShape& srcShape, const TensorDataType dataType, ReducePattern pattern, \
                                bool isSrcInnerPad, bool, uint32_t& maxValue, uint32_t& minValue) {                \
    ReduceTmp("Get" #Name "MaxMinTmpSize", srcShape, dataType, pattern, isSrcInnerPad, maxValue, minValue);        \
  }
ASC_TWIN_DEFINE_REDUCE_TMP(ReduceSum)
ASC_TWIN_DEFINE_REDUCE_TMP(ReduceMax)
ASC_TWIN_DEFINE_REDUCE_TMP(ReduceMin)
ASC_TWIN_DEFINE_REDUCE_TMP(ReduceProd)
ASC_TWIN_DEFINE_REDUCE_TMP(ReduceMean)
ASC_TWIN_DEFINE_REDUCE_TMP(ReduceAll)
ASC_TWIN_DEFINE_REDUCE_TMP(ReduceAny)
#undef ASC_TWIN_DEFINE_REDUCE_TMP

void GetSumMaxMinTmpSize(const uint32_t n, const uint32_t typeSize, const bool, uint32_t& maxSize, uint32_t& minSize) {
  maxSize = minSize = 0;
  if (typeSize != 2 && typeSize != 4) {
    return asc_twin_tiling::TilingError("GetSumMaxMinTmpSize", "typeSize %u is not 2 (half) or 4 (float)", typeSize);
  }
  maxSize = minSize = static_cast<uint32_t>(asc_twin_tmp::SumTmpBytes(n, typeSize));
}

void GetMeanMaxMinTmpSize(const uint32_t n, const uint32_t srcTypeSize, const uint32_t, const bool, uint32_t& maxSize,
                          uint32_t& minSize) {
  maxSize = minSize = 0;
  if (srcTypeSize != 2 && srcTypeSize != 4) {
    return asc_twin_tiling::TilingError("GetMeanMaxMinTmpSize", "srcTypeSize %u is not 2 (half) or 4 (float)",
                                        srcTypeSize);
  }
  maxSize = minSize = static_cast<uint32_t>(asc_twin_tmp::SumTmpBytes(n, srcTypeSize));
}

void GetMeanTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuffer) {
  // one fp32 partial per 256-byte repeat: a fraction of a node, so the factor form has no nodes
  maxLiveNodeCount = 0;
  extraBuffer = typeSize == 0 ? 0 : 32;
}

}  // namespace AscendC
