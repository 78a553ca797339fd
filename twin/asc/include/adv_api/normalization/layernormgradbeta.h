// adv_api/normalization/layernormgradbeta.h: LayerNormGradBeta, the gamma and beta gradients:
// pdGamma[h] = sum over the B * S rows of dy * resForGamma, pdBeta[h] = sum of dy (float sums).
#ifndef ASC_TWIN_ADV_API_NORMALIZATION_LAYERNORMGRADBETA_H_
#define ASC_TWIN_ADV_API_NORMALIZATION_LAYERNORMGRADBETA_H_

#include "adv_api/normalization/norm_rows.h"

namespace AscendC {
namespace twin {
namespace adv {

template <typename T>
inline void LayerNormGradBetaTile(const LocalTensor<T>& pdGamma, const LocalTensor<T>& pdBeta,
                                  const LocalTensor<T>& resForGamma, const LocalTensor<T>& dy,
                                  const LocalTensor<uint8_t>* tmp, const LayerNormGradBetaTiling& tiling) {
  const char* api = "LayerNormGradBeta";
  NormTile t{tiling.bLength * tiling.sLength, tiling.hLength, tiling.originalHLength};
  if (t.oriK == 0) t.oriK = t.k;
  CheckNormTile<T>(api, t);
  if (t.rows == 0 || t.k == 0) return;
  const uint64_t n = uint64_t{t.rows} * t.k;
  NeedOperand(api, "resForGamma", resForGamma, n);
  NeedOperand(api, "inputDy", dy, n);
  NeedOperand(api, "outputPdGamma", pdGamma, t.k);
  NeedOperand(api, "outputPdBeta", pdBeta, t.k);
  if (tmp != nullptr) {
    NeedTmp(api, *tmp, ::AscendC::tiling::twin_tmp::RowBytes(t.k, ::AscendC::tiling::twin_tmp::kGradFloatRows));
  }
  float* sg = ScratchFloats(tmp, size_t{2} * t.k);
  float* sb = sg + t.k;
  for (uint32_t j = 0; j < t.oriK; ++j) sg[j] = sb[j] = 0.0f;
  for (uint32_t r = 0; r < t.rows; ++r) {
    const T* d = dy.TwinData() + size_t{r} * t.k;
    const T* g = resForGamma.TwinData() + size_t{r} * t.k;
    for (uint32_t j = 0; j < t.oriK; ++j) {
      const float dv = static_cast<float>(d[j]);
      sg[j] += dv * static_cast<float>(g[j]);
      sb[j] += dv;
    }
  }
  for (uint32_t j = 0; j < t.k; ++j) {
    pdGamma.TwinData()[j] = static_cast<T>(j < t.oriK ? sg[j] : 0.0f);
    pdBeta.TwinData()[j] = static_cast<T>(j < t.oriK ? sb[j] : 0.0f);
  }
}

}  // namespace adv
}  // namespace twin

template <typename T, bool isReuseSource = false>
__aicore__ inline void LayerNormGradBeta(const LocalTensor<T>& outputPdGamma, const LocalTensor<T>& outputPdBeta,
                                         const LocalTensor<T>& resForGamma, const LocalTensor<T>& inputDy,
                                         const LocalTensor<uint8_t>& sharedTmpBuffer,
                                         const LayerNormGradBetaTiling& tiling) {
  twin::adv::LayerNormGradBetaTile(outputPdGamma, outputPdBeta, resForGamma, inputDy, &sharedTmpBuffer, tiling);
}

template <typename T, bool isReuseSource = false>
__aicore__ inline void LayerNormGradBeta(const LocalTensor<T>& outputPdGamma, const LocalTensor<T>& outputPdBeta,
                                         const LocalTensor<T>& resForGamma, const LocalTensor<T>& inputDy,
                                         LayerNormGradBetaTiling& tiling) {
  twin::adv::LayerNormGradBetaTile(outputPdGamma, outputPdBeta, resForGamma, inputDy, nullptr, tiling);
}

}  // namespace AscendC

#endif  // ASC_TWIN_ADV_API_NORMALIZATION_LAYERNORMGRADBETA_H_
