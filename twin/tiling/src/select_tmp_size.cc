// Select (byte mask) tmp sizes on the model of kernel_tiling/asc_twin_tmp_sizes.h (SelectTmpBytes).
#include "elementwise_tmp_size.h"
#include "shape_split.h"
#include "tiling/tiling_api.h"

namespace AscendC {
namespace {

uint32_t SelectTmp(const char* api, const TensorShape& src0, const TensorShape& src1, uint32_t srcTypeSize) {
  const TensorShape& src = src0.GetShapeSize() >= src1.GetShapeSize() ? src0 : src1;
  asc_twin_tiling::RowsByLastAxis split;
  const char* why = nullptr;
  if (!asc_twin_tiling::SplitLastAxis(src, &split, &why)) {
    asc_twin_tiling::TilingError(api, "the source shape is not usable: %s", why);
    return 0;
  }
  if (srcTypeSize == 0 || (split.cols * srcTypeSize) % 32 != 0) {
    asc_twin_tiling::TilingError(api, "the source's last axis (%llu elements of %u bytes) is not 32-byte aligned",
                                 static_cast<unsigned long long>(split.cols), srcTypeSize);
    return 0;
  }
  return static_cast<uint32_t>(asc_twin_tmp::SelectTmpBytes(split.rows, split.cols));
}

}  // namespace

#define ASC_TWIN_DEFINE_SELECT_TMP(Name)                                                                       \
  uint32_t Get##Name##MaxTmpSize(const TensorShape& src0Shape, const TensorShape& src1Shape,                   \
                                 const uint32_t srcTypeSize, const TensorShape&, const uint32_t, const bool) { \
    return SelectTmp("Get" #Name "MaxTmpSize", src0Shape, src1Shape, srcTypeSize);                             \
  }                                                                                                            \
  uint32_t Get##Name##MinTmpSize(const TensorShape& src0Shape, const TensorShape& src1Shape,                   \
                                 const uint32_t srcTypeSize, const TensorShape&, const uint32_t, const bool) { \
    return SelectTmp("Get" #Name "MinTmpSize", src0Shape, src1Shape, srcTypeSize);                             \
  }                                                                                                            \
  void Get##Name##MaxMinTmpSize(const TensorShape& src0Shape, const TensorShape& src1Shape,                    \
                                const uint32_t srcTypeSize, const TensorShape&, const uint32_t, const bool,    \
                                uint32_t& maxValue, uint32_t& minValue) {                                      \
    maxValue = minValue = SelectTmp("Get" #Name "MaxMinTmpSize", src0Shape, src1Shape, srcTypeSize);           \
  }
ASC_TWIN_DEFINE_SELECT_TMP(Select)
ASC_TWIN_DEFINE_SELECT_TMP(SelectWithBytesMask)
#undef ASC_TWIN_DEFINE_SELECT_TMP

}  // namespace AscendC
