// Host tmp-size functions of reduce.h's ReduceSum/Max/Min/Prod/Mean/All/Any and the pattern enum.
#ifndef ASC_TWIN_TILING_REDUCE_REDUCE_TILING_H_
#define ASC_TWIN_TILING_REDUCE_REDUCE_TILING_H_

#include <cstdint>

#include "kernel_tiling/reduce_pattern.h"
#include "tiling/utils/types.h"

namespace AscendC {

#define ASC_TWIN_DECLARE_REDUCE_TMP(Name)                                                                          \
  void Get##Name##MaxMinTmpSize(const AscendC::TensorShape& srcShape, const AscendC::TensorDataType dataType,      \
                                ReducePattern pattern, bool isSrcInnerPad, bool isReuseSource, uint32_t& maxValue, \
                                uint32_t& minValue);
ASC_TWIN_DECLARE_REDUCE_TMP(ReduceSum)
ASC_TWIN_DECLARE_REDUCE_TMP(ReduceMax)
ASC_TWIN_DECLARE_REDUCE_TMP(ReduceMin)
ASC_TWIN_DECLARE_REDUCE_TMP(ReduceProd)
ASC_TWIN_DECLARE_REDUCE_TMP(ReduceMean)
ASC_TWIN_DECLARE_REDUCE_TMP(ReduceAll)
ASC_TWIN_DECLARE_REDUCE_TMP(ReduceAny)
#undef ASC_TWIN_DECLARE_REDUCE_TMP

}  // namespace AscendC

#endif  // ASC_TWIN_TILING_REDUCE_REDUCE_TILING_H_
