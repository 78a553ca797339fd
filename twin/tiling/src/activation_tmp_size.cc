// The tmp-size functions of the element-wise activations (tiling/activation/{gelu,sigmoid,silu,
// swish,swiglu,geglu,reglu}_tiling.h), on the twin's tmp model (kernel_tiling/asc_twin_tmp_sizes.h).
#include "elementwise_tmp_size.h"
#include "tiling/tiling_api.h"

namespace AscendC {

using asc_twin_tiling::ElementwiseTmpFactor;
using asc_twin_tiling::ElementwiseTmpSize;
namespace nodes = asc_twin_tmp::nodes;

void GetGeluMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                          uint32_t& minValue) {
  ElementwiseTmpSize("GetGeluMaxMinTmpSize", srcShape, typeSize, nodes::kGelu, maxValue, minValue);
}
uint32_t GetGeluMaxTmpSize(const TensorShape& srcShape, const uint32_t typeSize) {
  uint32_t maxValue = 0, minValue = 0;
  ElementwiseTmpSize("GetGeluMaxTmpSize", srcShape, typeSize, nodes::kGelu, maxValue, minValue);
  return maxValue;
}
uint32_t GetGeluMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize) {
  uint32_t maxValue = 0, minValue = 0;
  ElementwiseTmpSize("GetGeluMinTmpSize", srcShape, typeSize, nodes::kGelu, maxValue, minValue);
  return minValue;
}

void GetSigmoidMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, bool, uint32_t& maxValue,
                             uint32_t& minValue) {
  ElementwiseTmpSize("GetSigmoidMaxMinTmpSize", srcShape, typeSize, nodes::kSigmoid, maxValue, minValue);
}
void GetSiluTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool, uint32_t& maxValue,
                    uint32_t& minValue) {
  ElementwiseTmpSize("GetSiluTmpSize", srcShape, typeSize, nodes::kSilu, maxValue, minValue);
}
void GetSwishTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool, uint32_t& maxValue,
                     uint32_t& minValue) {
  ElementwiseTmpSize("GetSwishTmpSize", srcShape, typeSize, nodes::kSwish, maxValue, minValue);
}
void GetSwiGLUMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, uint32_t& maxValue,
                            uint32_t& minValue, const bool) {
  ElementwiseTmpSize("GetSwiGLUMaxMinTmpSize", srcShape, typeSize, nodes::kSwiGLU, maxValue, minValue);
}
void GetSwiGLUTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuffer) {
  ElementwiseTmpFactor(typeSize, nodes::kSwiGLU, maxLiveNodeCount, extraBuffer);
}
void GetGeGLUMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool, uint32_t& maxValue,
                           uint32_t& minValue) {
  ElementwiseTmpSize("GetGeGLUMaxMinTmpSize", srcShape, typeSize, nodes::kGeGLU, maxValue, minValue);
}
void GetGeGLUTmpBufferFactorSize(const uint32_t typeSize, uint32_t& maxLiveNodeCount, uint32_t& extraBuf) {
  ElementwiseTmpFactor(typeSize, nodes::kGeGLU, maxLiveNodeCount, extraBuf);
}
void GetReGluMaxMinTmpSize(const TensorShape& srcShape, const uint32_t typeSize, const bool, uint32_t& maxValue,
                           uint32_t& minValue) {
  ElementwiseTmpSize("GetReGluMaxMinTmpSize", srcShape, typeSize, nodes::kReGlu, maxValue, minValue);
}

}  // namespace AscendC
