// adv_api/normalization/normalize.h: Normalize, LayerNorm with the statistics given: per row of
// [A, R] (rLengthWithPadding per row), rstd = 1 / sqrt(variance + epsilon) (an output unless
// isOnlyOutput), y = (x - mean) * rstd * gamma + beta (gamma / beta dropped by the config).
// ReducePattern::AR only, as CANN's A2/A3 implementation.
#ifndef ASC_TWIN_ADV_API_NORMALIZATION_NORMALIZE_H_
#define ASC_TWIN_ADV_API_NORMALIZATION_NORMALIZE_H_

#include "adv_api/normalization/norm_rows.h"
#include "adv_api/normalization/normalize_utils.h"

namespace AscendC {
namespace twin {
namespace adv {

template <typename U, typename T>
inline void NormalizeTile(const LocalTensor<T>& output, const LocalTensor<float>& outputRstd,
                          const LocalTensor<float>& mean, const LocalTensor<float>& variance, const LocalTensor<T>& x,
                          const LocalTensor<U>& gamma, const LocalTensor<U>& beta, const LocalTensor<uint8_t>* tmp,
                          float epsilon, const NormalizePara& para, const NormalizeConfig& config) {
  const char* api = "Normalize";
  if (config.reducePattern != ReducePattern::AR) RaiseTrap("%s: only ReducePattern::AR is supported", api);
  const uint32_t a = config.aLength == -1 ? para.aLength : static_cast<uint32_t>(config.aLength);
  const NormTile t{a, para.rLengthWithPadding, para.rLength};
  CheckNormTile<T>(api, t);
  if (t.rows == 0 || t.k == 0) return;
  const uint64_t n = uint64_t{t.rows} * t.k;
  NeedOperand(api, "output", output, n);
  NeedOperand(api, "inputX", x, n);
  NeedOperand(api, "inputMean", mean, t.rows);
  NeedOperand(api, "inputVariance", variance, t.rows);
  if (!config.isOnlyOutput) NeedOperand(api, "outputRstd", outputRstd, t.rows);
  if (!config.isNoGamma) NeedOperand(api, "gamma", gamma, t.oriK);
  if (!config.isNoBeta) NeedOperand(api, "beta", beta, t.oriK);
  if (tmp != nullptr && tmp->TwinData() == nullptr) RaiseTrap("%s: sharedTmpBuffer is an unallocated LocalTensor", api);
  NormIo<T, U, float> io;
  io.dst = output.TwinData();
  io.x = x.TwinData();
  io.gamma = config.isNoGamma ? nullptr : gamma.TwinData();
  io.beta = config.isNoBeta ? nullptr : beta.TwinData();
  io.givenMean = mean.TwinData();
  io.givenVar = variance.TwinData();
  io.second = config.isOnlyOutput ? nullptr : outputRstd.TwinData();
  io.secondIsRstd = true;
  io.epsilon = epsilon;
  NormRows(t, io, tmp);
}

}  // namespace adv
}  // namespace twin

template <typename U, typename T, bool isReuseSource = false, const NormalizeConfig& config = NLCFG_NORM>
__aicore__ inline void Normalize(const LocalTensor<T>& output, const LocalTensor<float>& outputRstd,
                                 const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                                 const LocalTensor<T>& inputX, const LocalTensor<U>& gamma, const LocalTensor<U>& beta,
                                 const LocalTensor<uint8_t>& sharedTmpBuffer, const float epsilon,
                                 const NormalizePara& para) {
  twin::adv::NormalizeTile<U, T>(output, outputRstd, inputMean, inputVariance, inputX, gamma, beta, &sharedTmpBuffer,
                                 epsilon, para, config);
}

template <typename U, typename T, bool isReuseSource = false, const NormalizeConfig& config = NLCFG_NORM>
__aicore__ inline void Normalize(const LocalTensor<T>& output, const LocalTensor<float>& outputRstd,
                                 const LocalTensor<float>& inputMean, const LocalTensor<float>& inputVariance,
                                 const LocalTensor<T>& inputX, const LocalTensor<U>& gamma, const LocalTensor<U>& beta,
                                 const float epsilon, const NormalizePara& para) {
  twin::adv::NormalizeTile<U, T>(output, outputRstd, inputMean, inputVariance, inputX, gamma, beta, nullptr, epsilon,
                                 para, config);
}

}  // namespace AscendC

#endif  // ASC_TWIN_ADV_API_NORMALIZATION_NORMALIZE_H_
