// adv_api/normalization/deepnorm.h: DeepNorm, LayerNorm of x1 = alpha * x + gx over the last
// axis of [B, S, H]: y = (x1 - mean) / sqrt(variance + epsilon) * gamma + beta; mean and
// variance [B * S] of T are outputs.
#ifndef ASC_TWIN_ADV_API_NORMALIZATION_DEEPNORM_H_
#define ASC_TWIN_ADV_API_NORMALIZATION_DEEPNORM_H_

#include "adv_api/normalization/norm_rows.h"

namespace AscendC {
namespace twin {
namespace adv {

template <typename T>
inline void DeepNormTile(const LocalTensor<T>& dst, const LocalTensor<T>& mean, const LocalTensor<T>& variance,
                         const LocalTensor<T>& src, const LocalTensor<T>& gx, const LocalTensor<T>& beta,
                         const LocalTensor<T>& gamma, const LocalTensor<uint8_t>* tmp, T alpha, T epsilon,
                         const DeepNormTiling& tiling, bool isBasicBlock) {
  const char* api = "DeepNorm";
  NormTile t{tiling.bLength * tiling.sLength, tiling.hLength, tiling.originalHLength};
  if (t.oriK == 0) t.oriK = t.k;
  CheckNormTile<T>(api, t);
  if (t.rows == 0 || t.k == 0) return;
  if (isBasicBlock && (t.k % 64 != 0 || t.k > 2040 || t.rows % 8 != 0)) {
    RaiseTrap("%s: isBasicBlock = true needs H a multiple of 64 up to 2040 and B * S a multiple of 8 (got %u x %u)",
              api, t.rows, t.k);
  }
  const uint64_t n = uint64_t{t.rows} * t.k;
  NeedOperand(api, "dstLocal", dst, n);
  NeedOperand(api, "srcLocal", src, n);
  NeedOperand(api, "gxLocal", gx, n);
  NeedOperand(api, "betaLocal", beta, t.k);
  NeedOperand(api, "gammaLocal", gamma, t.k);
  NeedOperand(api, "meanLocal", mean, t.rows);
  NeedOperand(api, "rstdLocal", variance, t.rows);
  if (tmp != nullptr) {
    NeedTmp(api, *tmp, ::AscendC::tiling::twin_tmp::RowBytes(t.k, ::AscendC::tiling::twin_tmp::kNormFloatRows));
  }
  NormIo<T, T, T> io;
  io.dst = dst.TwinData();
  io.x = src.TwinData();
  io.gx = gx.TwinData();
  io.alpha = static_cast<float>(alpha);
  io.gamma = gamma.TwinData();
  io.beta = beta.TwinData();
  io.mean = mean.TwinData();
  io.second = variance.TwinData();
  io.epsilon = static_cast<float>(epsilon);
  NormRows(t, io, tmp);
}

}  // namespace adv
}  // namespace twin

template <typename T, bool isReuseSrc = false, bool isBasicBlock = false>
__aicore__ inline void DeepNorm(const LocalTensor<T>& dstLocal, const LocalTensor<T>& meanLocal,
                                const LocalTensor<T>& rstdLocal, const LocalTensor<T>& srcLocal,
                                const LocalTensor<T>& gxLocal, const LocalTensor<T>& betaLocal,
                                const LocalTensor<T>& gammaLocal, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                const T alpha, const T epsilon, DeepNormTiling& tiling) {
  twin::adv::DeepNormTile(dstLocal, meanLocal, rstdLocal, srcLocal, gxLocal, betaLocal, gammaLocal, &sharedTmpBuffer,
                          alpha, epsilon, tiling, isBasicBlock);
}

template <typename T, bool isReuseSrc = false, bool isBasicBlock = false>
__aicore__ inline void DeepNorm(const LocalTensor<T>& dstLocal, const LocalTensor<T>& meanLocal,
                                const LocalTensor<T>& rstdLocal, const LocalTensor<T>& srcLocal,
                                const LocalTensor<T>& gxLocal, const LocalTensor<T>& betaLocal,
                                const LocalTensor<T>& gammaLocal, const T alpha, const T epsilon,
                                DeepNormTiling& tiling) {
  twin::adv::DeepNormTile(dstLocal, meanLocal, rstdLocal, srcLocal, gxLocal, betaLocal, gammaLocal, nullptr, alpha,
                          epsilon, tiling, isBasicBlock);
}

}  // namespace AscendC

#endif  // ASC_TWIN_ADV_API_NORMALIZATION_DEEPNORM_H_
