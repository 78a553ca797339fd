// adv_api/normalization/layernorm.h: LayerNorm in both of CANN's forms, and WelfordUpdate.
//   LayerNorm<T, isReuseSource>(out, mean, variance, x, gamma, beta, [tmp], epsilon, LayerNormTiling):
//     x is [B, S, H] (H padded, originalHLength of data), mean/variance [B * S] of T;
//   LayerNorm<U, T, isReuseSource, config>(out, mean, rstd, x, gamma, beta, epsilon, [tmp], para,
//     LayerNormSeparateTiling): x is [A, R] (rLengthWithPadding per row), mean/rstd [A] float;
//     config drops gamma / beta / the statistics, or writes the variance for rstd.
//   y = (x - mean) / sqrt(variance + epsilon) * gamma + beta, variance over the row (population).
#ifndef ASC_TWIN_ADV_API_NORMALIZATION_LAYERNORM_H_
#define ASC_TWIN_ADV_API_NORMALIZATION_LAYERNORM_H_

#include "adv_api/normalization/layernorm_utils.h"
#include "adv_api/normalization/norm_rows.h"

namespace AscendC {
namespace twin {
namespace adv {

inline void NeedNormTmp(const char* api, const LocalTensor<uint8_t>* tmp, const NormTile& t) {
  if (tmp != nullptr) {
    NeedTmp(api, *tmp, ::AscendC::tiling::twin_tmp::RowBytes(t.k, ::AscendC::tiling::twin_tmp::kNormFloatRows));
  }
}

template <typename T>
inline void LayerNormClassic(const LocalTensor<T>& output, const LocalTensor<T>& mean, const LocalTensor<T>& variance,
                             const LocalTensor<T>& x, const LocalTensor<T>& gamma, const LocalTensor<T>& beta,
                             const LocalTensor<uint8_t>* tmp, T epsilon, const LayerNormTiling& tiling) {
  const char* api = "LayerNorm";
  NormTile t{tiling.bLength * tiling.sLength, tiling.hLength, tiling.originalHLength};
  if (t.oriK == 0) t.oriK = t.k;
  CheckNormTile<T>(api, t);
  if (t.rows == 0 || t.k == 0) return;
  const uint64_t n = uint64_t{t.rows} * t.k;
  NeedOperand(api, "output", output, n);
  NeedOperand(api, "inputX", x, n);
  NeedOperand(api, "gamma", gamma, t.k);
  NeedOperand(api, "beta", beta, t.k);
  NeedOperand(api, "outputMean", mean, t.rows);
  NeedOperand(api, "outputVariance", variance, t.rows);
  NeedNormTmp(api, tmp, t);
  NormIo<T, T, T> io;
  io.dst = output.TwinData();
  io.x = x.TwinData();
  io.gamma = gamma.TwinData();
  io.beta = beta.TwinData();
  io.mean = mean.TwinData();
  io.second = variance.TwinData();
  io.epsilon = static_cast<float>(epsilon);
  NormRows(t, io, tmp);
}

template <typename U, typename T>
inline void LayerNormSeparate(const LocalTensor<T>& output, const LocalTensor<float>& mean,
                              const LocalTensor<float>& rstd, const LocalTensor<T>& x, const LocalTensor<U>& gamma,
                              const LocalTensor<U>& beta, float epsilon, const LocalTensor<uint8_t>* tmp,
                              const LayerNormPara& para, const LayerNormConfig& config) {
  const char* api = "LayerNorm";
  const NormTile t{para.aLength, para.rLengthWithPadding, para.rLength};
  CheckNormTile<T>(api, t);
  if (t.rows == 0 || t.k == 0) return;
  const uint64_t n = uint64_t{t.rows} * t.k;
  NeedOperand(api, "output", output, n);
  NeedOperand(api, "inputX", x, n);
  if (!config.isNoGamma) NeedOperand(api, "gamma", gamma, t.oriK);
  if (!config.isNoBeta) NeedOperand(api, "beta", beta, t.oriK);
  if (!config.isOnlyOutput) {
    NeedOperand(api, "outputMean", mean, t.rows);
    NeedOperand(api, "outputRstd", rstd, t.rows);
  }
  NeedNormTmp(api, tmp, t);
  NormIo<T, U, float> io;
  io.dst = output.TwinData();
  io.x = x.TwinData();
  io.gamma = config.isNoGamma ? nullptr : gamma.TwinData();
  io.beta = config.isNoBeta ? nullptr : beta.TwinData();
  io.mean = config.isOnlyOutput ? nullptr : mean.TwinData();
  io.second = config.isOnlyOutput ? nullptr : rstd.TwinData();
  io.secondIsRstd = config.isOutputRstd;
  io.epsilon = epsilon;
  NormRows(t, io, tmp);
}

// Welford's online update, per element j < abComputeLength of each of rnLength rows:
//   mean' = mean + (x - mean) * nRec,  M2' = M2 + (x - mean) * (x - mean')
template <typename T, typename U>
inline void WelfordUpdateTile(const LocalTensor<U>& outMean, const LocalTensor<U>& outVar, const LocalTensor<U>& inMean,
                              const LocalTensor<U>& inVar, const LocalTensor<T>& x, const LocalTensor<uint8_t>* tmp,
                              const WelfordUpdateParam& para, bool isInplace) {
  const char* api = "WelfordUpdate";
  if (para.abComputeLength > para.abLength) {
    RaiseTrap("%s: abComputeLength %u exceeds abLength %u", api, para.abComputeLength, para.abLength);
  }
  if ((uint64_t{para.abLength} * sizeof(T)) % ONE_BLK_SIZE != 0) {
    RaiseTrap("%s: abLength %u is not 32-byte aligned", api, para.abLength);
  }
  if (tmp != nullptr && tmp->TwinData() == nullptr) RaiseTrap("%s: sharedTmpBuffer is an unallocated LocalTensor", api);
  const uint64_t n = uint64_t{para.rnLength} * para.abLength;
  if (n == 0) return;
  NeedOperand(api, "inputX", x, n);
  NeedOperand(api, "inputMean", inMean, n);
  NeedOperand(api, "inputVariance", inVar, n);
  NeedOperand(api, "outputMean", outMean, n);
  NeedOperand(api, "outputVariance", outVar, n);
  for (uint32_t r = 0; r < para.rnLength; ++r) {
    const size_t off = size_t{r} * para.abLength;
    for (uint32_t j = 0; j < para.abLength; ++j) {
      const size_t i = off + j;
      if (j >= para.abComputeLength) {
        if (isInplace) {
          outMean.TwinData()[i] = inMean.TwinData()[i];
          outVar.TwinData()[i] = inVar.TwinData()[i];
        }
        continue;
      }
      const float xv = static_cast<float>(x.TwinData()[i]);
      const float m = static_cast<float>(inMean.TwinData()[i]);
      const float d = xv - m;
      const float m2 = m + d * para.nRec;
      outMean.TwinData()[i] = static_cast<U>(m2);
      outVar.TwinData()[i] = static_cast<U>(static_cast<float>(inVar.TwinData()[i]) + d * (xv - m2));
    }
  }
}

}  // namespace adv
}  // namespace twin

template <typename T, bool isReuseSource = false>
__aicore__ inline void LayerNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean,
                                 const LocalTensor<T>& outputVariance, const LocalTensor<T>& inputX,
                                 const LocalTensor<T>& gamma, const LocalTensor<T>& beta,
                                 const LocalTensor<uint8_t>& sharedTmpBuffer, const T epsilon,
                                 LayerNormTiling& tiling) {
  twin::adv::LayerNormClassic(output, outputMean, outputVariance, inputX, gamma, beta, &sharedTmpBuffer, epsilon,
                              tiling);
}

template <typename T, bool isReuseSource = false>
__aicore__ inline void LayerNorm(const LocalTensor<T>& output, const LocalTensor<T>& outputMean,
                                 const LocalTensor<T>& outputVariance, const LocalTensor<T>& inputX,
                                 const LocalTensor<T>& gamma, const LocalTensor<T>& beta, const T epsilon,
                                 LayerNormTiling& tiling) {
  twin::adv::LayerNormClassic(output, outputMean, outputVariance, inputX, gamma, beta, nullptr, epsilon, tiling);
}

template <typename U, typename T, bool isReuseSource = false, const LayerNormConfig& config = LNCFG_NORM>
__aicore__ inline void LayerNorm(const LocalTensor<T>& output, const LocalTensor<float>& outputMean,
                                 const LocalTensor<float>& outputRstd, const LocalTensor<T>& inputX,
                                 const LocalTensor<U>& gamma, const LocalTensor<U>& beta, const float epsilon,
                                 const LayerNormPara& para, const LayerNormSeparateTiling& tiling) {
  (void)tiling;
  twin::adv::LayerNormSeparate<U, T>(output, outputMean, outputRstd, inputX, gamma, beta, epsilon, nullptr, para,
                                     config);
}

template <typename U, typename T, bool isReuseSource = false, const LayerNormConfig& config = LNCFG_NORM>
__aicore__ inline void LayerNorm(const LocalTensor<T>& output, const LocalTensor<float>& outputMean,
                                 const LocalTensor<float>& outputRstd, const LocalTensor<T>& inputX,
                                 const LocalTensor<U>& gamma, const LocalTensor<U>& beta, const float epsilon,
                                 const LocalTensor<uint8_t>& sharedTmpBuffer, const LayerNormPara& para,
                                 const LayerNormSeparateTiling& tiling) {
  (void)tiling;
  twin::adv::LayerNormSeparate<U, T>(output, outputMean, outputRstd, inputX, gamma, beta, epsilon, &sharedTmpBuffer,
                                     para, config);
}

template <typename T, typename U, bool isReuseSource = false, const WelfordUpdateConfig& config = WFUPDATE_DEFAULT_CFG>
__aicore__ inline void WelfordUpdate(const LocalTensor<U>& outputMean, const LocalTensor<U>& outputVariance,
                                     const LocalTensor<U>& inputMean, const LocalTensor<U>& inputVariance,
                                     const LocalTensor<T>& inputX, const WelfordUpdateParam& para) {
  twin::adv::WelfordUpdateTile<T, U>(outputMean, outputVariance, inputMean, inputVariance, inputX, nullptr, para,
                                     config.isInplace);
}

template <typename T, typename U, bool isReuseSource = false, const WelfordUpdateConfig& config = WFUPDATE_DEFAULT_CFG>
__aicore__ inline void WelfordUpdate(const LocalTensor<U>& outputMean, const LocalTensor<U>& outputVariance,
                                     const LocalTensor<U>& inputMean, const LocalTensor<U>& inputVariance,
                                     const LocalTensor<T>& inputX, const LocalTensor<uint8_t>& sharedTmpBuffer,
                                     const WelfordUpdateParam& para) {
  twin::adv::WelfordUpdateTile<T, U>(outputMean, outputVariance, inputMean, inputVariance, inputX, &sharedTmpBuffer,
                                     para, config.isInplace);
}

}  // namespace AscendC

#endif  // ASC_TWIN_ADV_API_NORMALIZATION_LAYERNORM_H_
