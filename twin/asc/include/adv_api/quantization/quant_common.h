// The engine under the quantisation APIs: the A2/A3 sequences of ascend_quant.h,
// ascend_dequant.h and ascend_antiquant.h computed element by element, each step rounded to the
// type the NPU computes it in (half steps: computed in fp32 and rounded once to half, which is
// correctly rounded for one + or *; float -> int8 and float -> bfloat16 round to nearest even),
// and the operand / sharedTmpBuffer checks (one line naming the API and the cause).
#ifndef ASC_TWIN_ADV_API_QUANTIZATION_QUANT_COMMON_H_
#define ASC_TWIN_ADV_API_QUANTIZATION_QUANT_COMMON_H_

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "asc_twin/cast_lane.h"
#include "asc_twin/elementwise.h"
#include "kernel_tensor.h"
#include "kernel_tiling/quant_tmp_size.h"

namespace AscendC {
namespace twin {
namespace quant {

inline half HalfMul(half a, half b) { return static_cast<half>(static_cast<float>(a) * static_cast<float>(b)); }
inline half HalfAdd(half a, half b) { return static_cast<half>(static_cast<float>(a) + static_cast<float>(b)); }
// half -> int8_t with CAST_NONE (= CAST_RINT): ties to even, saturating.
inline int8_t HalfToInt8(half h) {
  return SaturateInt<int8_t>(RoundByMode(static_cast<float>(h), RoundMode::CAST_RINT));
}

inline void CheckTmp(const char* api, const LocalTensor<uint8_t>& tmp, uint64_t minBytes, const char* sizeApi) {
  CheckUbOperand(api, "sharedTmpBuffer", tmp, 0);
  if (tmp.GetSize() < minBytes) {
    RaiseTrap("%s: sharedTmpBuffer holds %u bytes, less than the %llu bytes the call needs (the minimum of %s)", api,
              tmp.GetSize(), static_cast<unsigned long long>(minBytes), sizeApi);
  }
}

// A parameter count must divide calCount and keep each row's view 32-byte aligned.
template <typename T>
inline void CheckParamCount(const char* api, const char* what, uint32_t paramCount, uint32_t calCount) {
  if (paramCount == 0) RaiseTrap("%s: %s is 0", api, what);
  if (calCount % paramCount != 0)
    RaiseTrap("%s: calCount %u is not a multiple of %s %u", api, calCount, what, paramCount);
  if (paramCount * sizeof(T) % ONE_BLK_SIZE != 0) {
    RaiseTrap("%s: %s %u is not 32-byte aligned (%u bytes)", api, what, paramCount,
              static_cast<uint32_t>(paramCount * sizeof(T)));
  }
}

}  // namespace quant
}  // namespace twin
}  // namespace AscendC

#endif  // ASC_TWIN_ADV_API_QUANTIZATION_QUANT_COMMON_H_
