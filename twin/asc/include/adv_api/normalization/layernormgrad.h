// adv_api/normalization/layernormgrad.h: LayerNormGrad, the input gradient of LayerNorm. Per row
// of [B * S, H] (n = originalHLength data columns), with rstd = (variance + epsilon)^-1/2:
//   pd_xl = dy * gamma, pd_var = sum(-0.5 * pd_xl * (x - mean)) * rstd^3,
//   pd_mean = sum(-pd_xl * rstd) + pd_var / n * sum(-2 (x - mean)),
//   pd_x = pd_mean / n + pd_var * 2 / n * (x - mean) + pd_xl * rstd,  resForGamma = (x - mean) * rstd
#ifndef ASC_TWIN_ADV_API_NORMALIZATION_LAYERNORMGRAD_H_
#define ASC_TWIN_ADV_API_NORMALIZATION_LAYERNORMGRAD_H_

#include "adv_api/normalization/layernormgrad_utils.h"
#include "adv_api/normalization/norm_rows.h"

namespace AscendC {
namespace twin {
namespace adv {

template <typename T>
inline void LayerNormGradTile(const LocalTensor<T>& pdX, const LocalTensor<T>& resForGamma, const LocalTensor<T>& dy,
                              const LocalTensor<T>& x, const LocalTensor<T>& variance, const LocalTensor<T>& mean,
                              const LocalTensor<T>& gamma, const LocalTensor<uint8_t>* tmp, T epsilon,
                              const LayerNormGradTiling& tiling, const LayerNormGradShapeInfo& shapeInfo) {
  const char* api = "LayerNormGrad";
  if (shapeInfo.dataFormat != DataFormat::ND) RaiseTrap("%s: the twin implements the ND format only", api);
  NormTile t{tiling.bLength * tiling.sLength, tiling.hLength, tiling.originalHLength};
  if (t.oriK == 0) t.oriK = t.k;
  CheckNormTile<T>(api, t);
  if (t.rows == 0 || t.k == 0) return;
  const uint64_t n = uint64_t{t.rows} * t.k;
  NeedOperand(api, "outputPdX", pdX, n);
  NeedOperand(api, "resForGamma", resForGamma, n);
  NeedOperand(api, "inputDy", dy, n);
  NeedOperand(api, "inputX", x, n);
  NeedOperand(api, "inputVariance", variance, t.rows);
  NeedOperand(api, "inputMean", mean, t.rows);
  NeedOperand(api, "inputGamma", gamma, t.k);
  if (tmp != nullptr) {
    NeedTmp(api, *tmp, ::AscendC::tiling::twin_tmp::RowBytes(t.k, ::AscendC::tiling::twin_tmp::kGradFloatRows));
  }
  float* xs = ScratchFloats(tmp, size_t{3} * t.k);
  float* ds = xs + t.k;
  const float* g = WidenRow(gamma.TwinData(), t.oriK, ds + t.k);
  const float inv = 1.0f / static_cast<float>(t.oriK);
  for (uint32_t r = 0; r < t.rows; ++r) {
    const size_t off = size_t{r} * t.k;
    const float* xf = WidenRow(x.TwinData() + off, t.oriK, xs);
    const float* df = WidenRow(dy.TwinData() + off, t.oriK, ds);
    const float m = static_cast<float>(mean.TwinData()[r]);
    const float rstd = 1.0f / std::sqrt(static_cast<float>(variance.TwinData()[r]) + static_cast<float>(epsilon));
    float sVar = 0.0f, sMean = 0.0f, sDev = 0.0f;
    for (uint32_t j = 0; j < t.oriK; ++j) {
      const float pdxl = df[j] * g[j], dev = xf[j] - m;
      sVar += -0.5f * pdxl * dev;
      sMean += -pdxl * rstd;
      sDev += -2.0f * dev;
    }
    const float pdVar = sVar * rstd * rstd * rstd;
    const float pdMean = sMean + pdVar * inv * sDev;
    T* px = pdX.TwinData() + off;
    T* rg = resForGamma.TwinData() + off;
    for (uint32_t j = 0; j < t.oriK; ++j) {
      const float dev = xf[j] - m;
      const float v = pdMean * inv + pdVar * 2.0f * inv * dev + df[j] * g[j] * rstd;
      px[j] = static_cast<T>(v);
      rg[j] = static_cast<T>(dev * rstd);
    }
    for (uint32_t j = t.oriK; j < t.k; ++j) px[j] = rg[j] = static_cast<T>(0.0f);
  }
}

}  // namespace adv
}  // namespace twin

template <typename T, bool isReuseSource = false>
__aicore__ inline void LayerNormGrad(const LocalTensor<T>& outputPdX, const LocalTensor<T>& resForGamma,
                                     const LocalTensor<T>& inputDy, const LocalTensor<T>& inputX,
                                     const LocalTensor<T>& inputVariance, const LocalTensor<T>& inputMean,
                                     const LocalTensor<T>& inputGamma, LocalTensor<uint8_t>& sharedTmpBuffer, T epsilon,
                                     LayerNormGradTiling& tiling, const LayerNormGradShapeInfo& shapeInfo = {}) {
  twin::adv::LayerNormGradTile(outputPdX, resForGamma, inputDy, inputX, inputVariance, inputMean, inputGamma,
                               &sharedTmpBuffer, epsilon, tiling, shapeInfo);
}

template <typename T, bool isReuseSource = false>
__aicore__ inline void LayerNormGrad(const LocalTensor<T>& outputPdX, const LocalTensor<T>& resForGamma,
                                     const LocalTensor<T>& inputDy, const LocalTensor<T>& inputX,
                                     const LocalTensor<T>& inputVariance, const LocalTensor<T>& inputMean,
                                     const LocalTensor<T>& inputGamma, T epsilon, LayerNormGradTiling& tiling,
                                     const LayerNormGradShapeInfo& shapeInfo = {}) {
  twin::adv::LayerNormGradTile(outputPdX, resForGamma, inputDy, inputX, inputVariance, inputMean, inputGamma, nullptr,
                               epsilon, tiling, shapeInfo);
}

}  // namespace AscendC

#endif  // ASC_TWIN_ADV_API_NORMALIZATION_LAYERNORMGRAD_H_
