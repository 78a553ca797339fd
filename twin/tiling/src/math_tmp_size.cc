// Get<Api>MaxMinTmpSize / Get<Api>TmpBufferFactorSize of the math library (tiling/math/*),
// each the twin's tmp model of that API (kernel_tiling/asc_twin_tmp_sizes.h).
#include <algorithm>

#include "elementwise_tmp_size.h"
#include "tiling/tiling_api.h"

namespace AscendC {

using asc_twin_tiling::ElementwiseTmpFactor;
using asc_twin_tiling::ElementwiseTmpSize;
namespace nodes = asc_twin_tmp::nodes;

// (shape, typeSize, isReuseSource, maxValue, minValue) and (typeSize, maxLiveNodeCount, extraBuf).
#define ASC_TWIN_SHAPE_TMP(Name)                                                                                      \
  void Get##Name##MaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool, uint32_t& maxValue, \
                                uint32_t& minValue) {                                                                 \
    ElementwiseTmpSize("Get" #Name "MaxMinTmpSize", srcShape, typeSize, nodes::k##Name, maxValue, minValue);          \
  }                                                                                                                   \
  void Get##Name##TmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {      \
    ElementwiseTmpFactor(typeSize, nodes::k##Name, maxLiveNodeCount, extraBuf);                                       \
  }

// The forms that also take the platform (the model does not depend on it on A2/A3).
#define ASC_TWIN_PLATFORM_TMP(Name)                                                                            \
  void Get##Name##MaxMinTmpSize(const platform_ascendc::PlatformAscendC&, const TensorShape& srcShape,         \
                                const uint32_t typeSize, const bool, uint32_t& maxValue, uint32_t& minValue) { \
    ElementwiseTmpSize("Get" #Name "MaxMinTmpSize", srcShape, typeSize, nodes::k##Name, maxValue, minValue);   \
  }                                                                                                            \
  void Get##Name##TmpBufferFactorSize(const platform_ascendc::PlatformAscendC&, const uint32_t typeSize,       \
                                      uint32_t& maxLivedNodeCount, uint32_t& extraBuf) {                       \
    ElementwiseTmpFactor(typeSize, nodes::k##Name, maxLivedNodeCount, extraBuf);                               \
  }

ASC_TWIN_SHAPE_TMP(Acos)
ASC_TWIN_SHAPE_TMP(Acosh)
ASC_TWIN_SHAPE_TMP(Asin)
ASC_TWIN_SHAPE_TMP(Asinh)
ASC_TWIN_SHAPE_TMP(Atan)
ASC_TWIN_SHAPE_TMP(Atanh)
ASC_TWIN_SHAPE_TMP(Axpy)
ASC_TWIN_SHAPE_TMP(Ceil)
ASC_TWIN_SHAPE_TMP(Clamp)
ASC_TWIN_SHAPE_TMP(Cos)
ASC_TWIN_SHAPE_TMP(Cosh)
ASC_TWIN_SHAPE_TMP(Digamma)
ASC_TWIN_SHAPE_TMP(Erf)
ASC_TWIN_SHAPE_TMP(Erfc)
ASC_TWIN_SHAPE_TMP(Floor)
ASC_TWIN_SHAPE_TMP(Frac)
ASC_TWIN_SHAPE_TMP(Hypot)
ASC_TWIN_SHAPE_TMP(Lgamma)
ASC_TWIN_SHAPE_TMP(Log)
ASC_TWIN_SHAPE_TMP(Sign)
ASC_TWIN_SHAPE_TMP(Sin)
ASC_TWIN_SHAPE_TMP(Sinh)
ASC_TWIN_SHAPE_TMP(Tan)
ASC_TWIN_SHAPE_TMP(Tanh)
ASC_TWIN_SHAPE_TMP(Trunc)
ASC_TWIN_SHAPE_TMP(Xor)
ASC_TWIN_SHAPE_TMP(Fmod)

ASC_TWIN_PLATFORM_TMP(BitwiseAnd)
ASC_TWIN_PLATFORM_TMP(BitwiseNot)
ASC_TWIN_PLATFORM_TMP(BitwiseOr)
ASC_TWIN_PLATFORM_TMP(BitwiseXor)
ASC_TWIN_PLATFORM_TMP(Fma)
ASC_TWIN_PLATFORM_TMP(IsInf)
ASC_TWIN_PLATFORM_TMP(IsNan)
ASC_TWIN_PLATFORM_TMP(LogicalAnd)
ASC_TWIN_PLATFORM_TMP(LogicalAnds)
ASC_TWIN_PLATFORM_TMP(LogicalNot)
ASC_TWIN_PLATFORM_TMP(LogicalOr)
ASC_TWIN_PLATFORM_TMP(LogicalOrs)
ASC_TWIN_PLATFORM_TMP(LogicalXor)
ASC_TWIN_PLATFORM_TMP(Rint)
ASC_TWIN_PLATFORM_TMP(Round)
ASC_TWIN_PLATFORM_TMP(SinCos)
ASC_TWIN_PLATFORM_TMP(Where)

bool GetExpMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool, uint32_t& maxValue,
                         uint32_t& minValue) {
  return ElementwiseTmpSize("GetExpMaxMinTmpSize", srcShape, typeSize, nodes::kExp, maxValue, minValue);
}
void GetExpTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuffer) {
  ElementwiseTmpFactor(typeSize, nodes::kExp, maxLiveNodeCount, extraBuffer);
}

// CumSum keeps one fp32 running row (first axis) or value per row (last axis) per element slice.
void GetCumSumMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool, const bool,
                            uint32_t& maxValue, uint32_t& minValue) {
  if (srcShape.GetDims().size() != 2) {
    maxValue = minValue = 0;
    asc_twin_tiling::TilingError("GetCumSumMaxMinTmpSize", "srcShape has %zu dims; CumSum takes [outter, inner]",
                                 srcShape.GetDims().size());
    return;
  }
  ElementwiseTmpSize("GetCumSumMaxMinTmpSize", srcShape, typeSize, 1, maxValue, minValue);
}

void GetPowerMaxMinTmpSize(const TensorShape& srcShape1, const TensorShape& srcShape2, const bool typeIsInt,
                           const uint32_t typeSize, const bool, uint32_t& maxValue, uint32_t& minValue) {
  // the tensor operand's shape counts (a scalar operand's shape is {1})
  const TensorShape& larger = srcShape1.GetShapeSize() >= srcShape2.GetShapeSize() ? srcShape1 : srcShape2;
  ElementwiseTmpSize("GetPowerMaxMinTmpSize", larger, typeSize, typeIsInt ? 1 : nodes::kPower, maxValue, minValue);
}
void GetPowerTmpBufferFactorSize(const bool, const bool, const bool typeIsInt, const uint32_t typeSize,
                                 uint32_t& maxLiveNodeCount, uint32_t& extraBuffer) {
  ElementwiseTmpFactor(typeSize, typeIsInt ? 1 : nodes::kPower, maxLiveNodeCount, extraBuffer);
}

}  // namespace AscendC
