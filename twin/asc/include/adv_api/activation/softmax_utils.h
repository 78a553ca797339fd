// adv_api/activation/softmax_utils.h: the SoftMax family's configuration and shape structs, with
// CANN's names, members and defaults.
#ifndef ASC_TWIN_ADV_API_ACTIVATION_SOFTMAX_UTILS_H_
#define ASC_TWIN_ADV_API_ACTIVATION_SOFTMAX_UTILS_H_

#include <cstdint>

#include "kernel_macros.h"
#include "kernel_shape_info.h"  // DataFormat

namespace AscendC {

enum class SoftmaxMode {
  SOFTMAX_NORMAL = 0,
  SOFTMAX_OUTPUT_WITHOUT_BRC = 1,  // max/sum: one element per row instead of a 32-byte block
};

struct SoftmaxConfig {
  __aicore__ constexpr SoftmaxConfig(const bool isCheckTilingIn) : isCheckTiling(isCheckTilingIn) {}
  __aicore__ constexpr SoftmaxConfig(const bool isCheckTilingIn, const uint32_t oriSrcMIn, const uint32_t oriSrcKIn)
      : isCheckTiling(isCheckTilingIn), oriSrcM(oriSrcMIn), oriSrcK(oriSrcKIn) {}
  __aicore__ constexpr SoftmaxConfig(const bool isCheckTilingIn, const uint32_t oriSrcMIn, const uint32_t oriSrcKIn,
                                     const SoftmaxMode modeIn)
      : isCheckTiling(isCheckTilingIn), oriSrcM(oriSrcMIn), oriSrcK(oriSrcKIn), mode(modeIn) {}
  bool isCheckTiling = true;
  uint32_t oriSrcM = 0;
  uint32_t oriSrcK = 0;
  SoftmaxMode mode = SoftmaxMode::SOFTMAX_NORMAL;
};

constexpr SoftmaxConfig SOFTMAX_DEFAULT_CFG = {true, 0, 0, SoftmaxMode::SOFTMAX_NORMAL};

// SoftmaxFlashV3's parameters.
struct SoftMaxParams {
  uint32_t srcM{0};
  uint32_t srcK{0};
  uint32_t oriSrcM{0};
  uint32_t oriSrcK{0};
  uint32_t loopCnt{1};
  uint32_t splitMeanCnt{8};
  float alpha{0.9375};
};

// The tile a call works on: srcM rows of srcK elements (srcK * sizeof(T) a multiple of 32 bytes),
// of which the first oriSrcK are data. All zero: the tiling's srcM / srcK.
struct SoftMaxShapeInfo {
  uint32_t srcM{0};
  uint32_t srcK{0};
  uint32_t oriSrcM{0};
  uint32_t oriSrcK{0};
};

}  // namespace AscendC

#endif  // ASC_TWIN_ADV_API_ACTIVATION_SOFTMAX_UTILS_H_
