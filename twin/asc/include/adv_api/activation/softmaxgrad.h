// adv_api/activation/softmaxgrad.h: SoftmaxGrad and SoftmaxGradFront, the softmax backward step.
// Per row d = rowsum(grad * src); SoftmaxGradFront (or isFront) writes d over one 32-byte block
// per row of dst, SoftmaxGrad writes dst = (grad - d) * src.
#ifndef ASC_TWIN_ADV_API_ACTIVATION_SOFTMAXGRAD_H_
#define ASC_TWIN_ADV_API_ACTIVATION_SOFTMAXGRAD_H_

#include "adv_api/activation/softmax_rows.h"

namespace AscendC {
namespace twin {
namespace adv {

template <typename T>
inline void SoftmaxGradTile(const char* api, const LocalTensor<T>& dst, const LocalTensor<T>& grad,
                            const LocalTensor<T>& src, const LocalTensor<uint8_t>* tmp, const SoftMaxTiling& tiling,
                            bool isFront, const SoftMaxShapeInfo& shape, bool isBasicBlock, bool isNZ) {
  const RowTile t = ResolveRowTile<T>(api, tiling.srcM, tiling.srcK, shape, SOFTMAX_DEFAULT_CFG, isBasicBlock, isNZ);
  if (t.m == 0) return;
  const uint64_t n = uint64_t{t.m} * t.k;
  NeedOperand(api, "gradTensor", grad, n);
  NeedOperand(api, "srcTensor", src, n);
  constexpr uint32_t bs = BlockElems<T>();
  NeedOperand(api, "dstTensor", dst, isFront ? uint64_t{t.m} * bs : n);
  NeedSoftmaxTmp(api, tmp, t, ::AscendC::tiling::twin_tmp::kGradFloatRows);
  float* gs = ScratchFloats(tmp, size_t{2} * t.k);
  float* ss = gs + t.k;
  for (uint32_t r = 0; r < t.m; ++r) {
    const float* g = WidenRow(grad.TwinData() + size_t{r} * t.k, t.oriK, gs);
    const float* s = WidenRow(src.TwinData() + size_t{r} * t.k, t.oriK, ss);
    const float d = RowDot(g, s, t.oriK);
    if (isFront) {
      StoreStat(dst.TwinData(), bs, r, d);
      continue;
    }
    T* out = dst.TwinData() + size_t{r} * t.k;
    if constexpr (std::is_same<T, float>::value) {
      for (uint32_t j = 0; j < t.oriK; ++j) out[j] = (g[j] - d) * s[j];
    } else {
      for (uint32_t j = 0; j < t.oriK; ++j) out[j] = static_cast<T>((g[j] - d) * s[j]);
    }
    ZeroPad(out, t);
  }
}

}  // namespace adv
}  // namespace twin

template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false>
__aicore__ inline void SoftmaxGrad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor,
                                   const LocalTensor<T>& srcTensor, const SoftMaxTiling& tiling, bool isFront = false,
                                   const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  twin::adv::SoftmaxGradTile<T>("SoftmaxGrad", dstTensor, gradTensor, srcTensor, nullptr, tiling, isFront,
                                softmaxShapeInfo, false, isDataFormatNZ);
}

template <typename T, bool isBasicBlock = false, bool isDataFormatNZ = false>
__aicore__ inline void SoftmaxGradFront(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor,
                                        const LocalTensor<T>& srcTensor, const SoftMaxTiling& tiling,
                                        const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  twin::adv::SoftmaxGradTile<T>("SoftmaxGradFront", dstTensor, gradTensor, srcTensor, nullptr, tiling, true,
                                softmaxShapeInfo, isBasicBlock, isDataFormatNZ);
}

template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false>
__aicore__ inline void SoftmaxGrad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor,
                                   const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                   const SoftMaxTiling& tiling, bool isFront = false,
                                   const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  twin::adv::SoftmaxGradTile<T>("SoftmaxGrad", dstTensor, gradTensor, srcTensor, &sharedTmpBuffer, tiling, isFront,
                                softmaxShapeInfo, false, isDataFormatNZ);
}

template <typename T, bool isBasicBlock = false, bool isDataFormatNZ = false>
__aicore__ inline void SoftmaxGradFront(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor,
                                        const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                        const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}) {
  twin::adv::SoftmaxGradTile<T>("SoftmaxGradFront", dstTensor, gradTensor, srcTensor, &sharedTmpBuffer, tiling, true,
                                softmaxShapeInfo, isBasicBlock, isDataFormatNZ);
}

}  // namespace AscendC

#endif  // ASC_TWIN_ADV_API_ACTIVATION_SOFTMAXGRAD_H_
