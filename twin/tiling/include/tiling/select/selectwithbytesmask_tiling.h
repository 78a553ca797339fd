// Host tmp-size functions of Select with a byte mask (either name CANN uses). The source shape
// is the tensor operand's (the scalar's shape is {1}).
#ifndef ASC_TWIN_TILING_SELECT_SELECTWITHBYTESMASK_TILING_H_
#define ASC_TWIN_TILING_SELECT_SELECTWITHBYTESMASK_TILING_H_

#include <cstdint>

#include "tiling/utils/types.h"

namespace AscendC {

#define ASC_TWIN_DECLARE_SELECT_TMP(Name)                                                                      \
  uint32_t Get##Name##MaxTmpSize(const AscendC::TensorShape& src0Shape, const AscendC::TensorShape& src1Shape, \
                                 const uint32_t srcTypeSize, const AscendC::TensorShape& maskShape,            \
                                 const uint32_t maskTypeSize, const bool isReuseMask);                         \
  uint32_t Get##Name##MinTmpSize(const AscendC::TensorShape& src0Shape, const AscendC::TensorShape& src1Shape, \
                                 const uint32_t srcTypeSize, const AscendC::TensorShape& maskShape,            \
                                 const uint32_t maskTypeSize, const bool isReuseMask);                         \
  void Get##Name##MaxMinTmpSize(const AscendC::TensorShape& src0Shape, const AscendC::TensorShape& src1Shape,  \
                                const uint32_t srcTypeSize, const AscendC::TensorShape& maskShape,             \
                                const uint32_t maskTypeSize, const bool isReuseMask, uint32_t& maxValue,       \
                                uint32_t& minValue);
ASC_TWIN_DECLARE_SELECT_TMP(Select)
ASC_TWIN_DECLARE_SELECT_TMP(SelectWithBytesMask)
#undef ASC_TWIN_DECLARE_SELECT_TMP

}  // namespace AscendC

#endif  // ASC_TWIN_TILING_SELECT_SELECTWITHBYTESMASK_TILING_H_
