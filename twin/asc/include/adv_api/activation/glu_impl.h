// The gated linear units: dst = src0 * act(src1) over calCount elements, src0 and src1 of one
// size (CANN checks it), fp32 inside, rounded once.
#ifndef ASC_TWIN_ADV_API_ACTIVATION_GLU_IMPL_H_
#define ASC_TWIN_ADV_API_ACTIVATION_GLU_IMPL_H_

#include "adv_api/activation/activation_impl.h"

namespace AscendC {
namespace twin {
namespace adv {

template <typename T, typename Act>
inline void Glu(const char* api, const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                uint32_t calCount, Act act) {
  static_assert(kIsAdvFloat<T>, "GeGLU/SwiGLU/ReGlu take half, bfloat16_t or float");
  if (src0.GetSize() != src1.GetSize()) {
    RaiseTrap("%s: srcTensor0 holds %u elements, srcTensor1 %u (they must match)", api, src0.GetSize(), src1.GetSize());
  }
  Binary(api, dst, src0, src1, calCount, [act](float a, float b) { return a * act(b); });
}

}  // namespace adv
}  // namespace twin
}  // namespace AscendC

#endif  // ASC_TWIN_ADV_API_ACTIVATION_GLU_IMPL_H_
